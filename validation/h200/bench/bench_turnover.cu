// bench_turnover.cu - the life of memory-bound blocks (family `turnover`): how long a
// block slot stays busy when each block moves a few bytes per thread, and how the DRAM
// latency a warp sees grows with the bytes in flight.
//   one-shot  one element per thread, n = 2^24 .. 2^28 elements (blocks of 32 .. 1024
//             threads, 2^14 .. 2^20 blocks), bodies: `store` (out[g] = g & 1023),
//             `copy` (4-byte load + store), `copy16` (float4 load + store), `add2`
//             (out = a + b: two loads + store), `ld2`, `ld4`, `ld8` (k independent
//             loads a[(g + j*T) & mask], j < k, summed, then one store). DRAM: L2
//             flushed before every repetition (1 GiB buffers); L2: n = 2^21 (2^20 for
//             copy16, 2^19 for ld4), no flush (the warm-ups leave the data in L2).
//   pinned    copy and ld4 with n = 2^24 and blocks of 64, 256, 1024 threads pinned to
//             1 .. 16 blocks per SM with dynamic shared memory (DRAM).
//   gsum      grid-stride read-only sum: 132 * B blocks of 256 threads (B = 1, 2, 4, 8
//             pinned with dynamic shared memory: 8 .. 64 warps per SM), each trip
//             issues L independent loads (L = 1, 2, 4, 8; 4-byte or 16-byte) then adds
//             them (`#pragma unroll 1`: the next trip's loads wait for this trip's
//             adds, so a warp has exactly L loads in flight); every thread writes its
//             sum. DRAM: 1 GiB read once, L2 flushed; L2: a 16 MiB buffer read 16
//             times, warm.
//   fma       no loads: 0, 64 or 512 dependent FMAs then a store (store=1) or none
//             (store=0), blocks of 256 (1, 2 per SM pinned, or 8) and 1024 threads
//             (1 pinned, or 2): a block's life without memory and the gap between one
//             block's end and the next one's start on its slot.
// Every row is timed with CUDA events (median of 7 after 2 warm-ups) on a kernel
// without instrumentation; then one more launch of the same kernel with stamps (thread
// 0 of each block: clock64, %globaltimer and %smid at its start; lane 0 of each warp:
// atomicMax of clock64 after its store) gives the side table STAMPS.csv: the block
// life (last warp's end - first thread's start, SM clock cycles), the start-to-start
// period of blocks on one SM, the mean blocks resident per SM, per-SM spans and the
// SM clock (clock64 against %globaltimer across each SM's starts).
//
// usage: bench_turnover OUT.csv STAMPS.csv [device]
#include "stamps.cuh"

static FILE *g_st = nullptr;

// ---------------------------------------------------------------- kernels
template <bool S>
__global__ void k_store(float *out, BlockStamps ts) {
  STAMP_START
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = float(g & 1023);
  STAMP_END
}

// K independent loads at (g + j*T) & mask, summed, one store (K = 1: the copy).
template <int K, bool S>
__global__ void k_ldk(const float *__restrict__ a, float *out, unsigned T, unsigned mask,
                      BlockStamps ts) {
  STAMP_START
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int j = 0; j < K; ++j) s += a[(g + j * T) & mask];
  out[g] = s;
  STAMP_END
}

template <bool S>
__global__ void k_add2(const float *__restrict__ a, const float *__restrict__ b, float *out,
                       BlockStamps ts) {
  STAMP_START
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = a[g] + b[g];
  STAMP_END
}

template <bool S>
__global__ void k_copy16(const float4 *__restrict__ a, float4 *out, BlockStamps ts) {
  STAMP_START
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = a[g];
  STAMP_END
}

// Grid-stride sum: `trips` trips of L independent loads (element type V: float or
// float4), indices (g + (t*L + j) * T) & mask in units of V.
__device__ __forceinline__ float vsum(float v) { return v; }
__device__ __forceinline__ float vsum(float4 v) { return (v.x + v.y) + (v.z + v.w); }

template <typename V, int L, bool S>
__global__ void k_gsum(const V *__restrict__ a, float *out, unsigned T, unsigned trips,
                       unsigned mask, BlockStamps ts) {
  STAMP_START
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  unsigned i = g;
#pragma unroll 1
  for (unsigned t = 0; t < trips; ++t) {
    V v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) v[j] = a[(i + j * T) & mask];
#pragma unroll
    for (int j = 0; j < L; ++j) s += vsum(v[j]);
    i += L * T;
  }
  out[g] = s;
  STAMP_END
}

// No memory but an optional store: `iters` dependent FMAs, then out[g] (st = 1, or
// never when st = 0: x is never -1): a block's life without loads, and the gap between
// one block's end and the next one's start on its slot.
template <bool S>
__global__ void k_fma(float *out, int iters, int st, BlockStamps ts) {
  STAMP_START
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float x = float(g & 1023) * (1.0f / 1024);
  for (int i = 0; i < iters; ++i) x = fmaf(x, 0.9999f, 1e-4f);
  if (st || x == -1.0f) out[g] = x;
  STAMP_END
}

// ---------------------------------------------------------------- host side
struct Ctx {
  Bench b;
  float *A, *B, *O;  // 1 GiB each
  BlockStamps ts;         // for up to kStampBlocks blocks
};
static const size_t kN = size_t(1) << 28;  // floats per buffer

static std::string p2(size_t n) {
  int k = 0;
  while ((size_t(1) << k) < n) ++k;
  return "2^" + std::to_string(k);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv STAMPS.csv [device]\n", argv[0]);
    return 2;
  }
  Ctx c;
  Bench &b = c.b;
  bench_open(b, argv[1], argc > 3 ? atoi(argv[3]) : 0);
  g_st = fopen(argv[2], "w");
  REQUIRE(g_st, "cannot write %s", argv[2]);
  stamps_header(g_st);
  CK(cudaMalloc(&c.A, kN * 4));
  CK(cudaMalloc(&c.B, kN * 4));
  CK(cudaMalloc(&c.O, kN * 4));
  fill_pattern(c.A, kN, 4, 0.5f);   // 0, .5, 1, 1.5, ...
  fill_pattern(c.B, kN, 8, 0.25f);  // 0, .25, ..., 1.75
  stamps_alloc(c.ts);
  const int sms = b.sm_count;
  const int bss[6] = {32, 64, 128, 256, 512, 1024};
  const BlockStamps ts = c.ts;
  float *A = c.A, *B = c.B, *O = c.O;
  auto A4 = (const float4 *)c.A;
  auto O4 = (float4 *)c.O;

  // ------------------------------------------------------------ one-shot bodies
  // body: 0 store, 1 copy, 2 copy16, 3 add2, 4 ld2, 5 ld4, 6 ld8
  const char *bname[7] = {"store", "copy", "copy16", "add2", "ld2", "ld4", "ld8"};
  auto one_shot = [&](int body, size_t n, int bs, size_t dyn, bool cold, const char *ws,
                      long long pin) {
    long long blocks = (long long)(n / bs);
    unsigned T = (unsigned)n;
    unsigned mask = (unsigned)(kN - 1);
    Row r;
    r.family = "turnover";
    r.name = bname[body];
    r.params = std::string("n=") + p2(n) + " bs=" + std::to_string(bs) + " ws=" + ws +
               (pin ? " bpsm=" + std::to_string(pin) : std::string());
    int k = body >= 4 ? (body == 4 ? 2 : body == 5 ? 4 : 8) : 1;
    std::function<void(bool)> L;
    const void *kf = nullptr, *kfs = nullptr;
    switch (body) {
    case 0:
      kf = (const void *)k_store<false>;
      kfs = (const void *)k_store<true>;
      L = [&, blocks](bool s) {
        if (s) k_store<true><<<blocks, bs, dyn, b.stream>>>(O, ts);
        else k_store<false><<<blocks, bs, dyn, b.stream>>>(O, ts);
      };
      r.bytes = 4ull * n;
      break;
    case 2:
      kf = (const void *)k_copy16<false>;
      kfs = (const void *)k_copy16<true>;
      L = [&, blocks](bool s) {
        if (s) k_copy16<true><<<blocks, bs, dyn, b.stream>>>(A4, O4, ts);
        else k_copy16<false><<<blocks, bs, dyn, b.stream>>>(A4, O4, ts);
      };
      r.bytes = 32ull * n;
      break;
    case 3:
      kf = (const void *)k_add2<false>;
      kfs = (const void *)k_add2<true>;
      L = [&, blocks](bool s) {
        if (s) k_add2<true><<<blocks, bs, dyn, b.stream>>>(A, B, O, ts);
        else k_add2<false><<<blocks, bs, dyn, b.stream>>>(A, B, O, ts);
      };
      r.bytes = 12ull * n;
      r.flops = n;
      break;
    default: {
      typedef void (*kt)(const float *, float *, unsigned, unsigned, BlockStamps);
      kt kn = k == 1 ? k_ldk<1, false> : k == 2 ? k_ldk<2, false> : k == 4 ? k_ldk<4, false>
                                                                           : k_ldk<8, false>;
      kt ks = k == 1 ? k_ldk<1, true> : k == 2 ? k_ldk<2, true> : k == 4 ? k_ldk<4, true>
                                                                         : k_ldk<8, true>;
      kf = (const void *)kn;
      kfs = (const void *)ks;
      L = [&, blocks, kn, ks, T, mask](bool s) {
        (s ? ks : kn)<<<blocks, bs, dyn, b.stream>>>(A, O, T, mask, ts);
      };
      r.bytes = 4ull * n * (k + 1);
      r.flops = (unsigned long long)n * (k - 1);
    }
    }
    if (dyn) {
      CK(cudaFuncSetAttribute(kf, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
      CK(cudaFuncSetAttribute(kfs, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    }
    r.grid_x = blocks;
    r.block_x = bs;
    r.dyn_smem = (long long)dyn;
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, kf));
    r.regs = fa.numRegs;
    r.static_smem = (long long)fa.sharedSizeBytes;
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kf, bs, dyn));
    r.blocks_per_sm = occ;
    CK(cudaMemsetAsync(O, 0xff, n * (body == 2 ? 16 : 4), b.stream));
    run_stamped_row(c.b, c.ts, g_st, r, cold, blocks, occ, L);
    // checks
    if (body == 0) {
      check_spread("store", O, n, [](size_t g) { return float(g & 1023); });
    } else if (body == 2) {
      std::vector<float> h = sample(O, 0, (n * 4) / 1024 + 1, 1024);
      for (size_t q = 0; q < 1024; ++q) {
        size_t i = q * ((n * 4) / 1024 + 1);
        if (i >= n * 4) break;
        REQUIRE(h[q] == pattern_at(i, 4, 0.5f), "copy16: out[%zu] = %g", i, h[q]);
      }
    } else if (body == 3) {
      check_spread("add2", O, n, [](size_t g) {
        return pattern_at(g, 4, 0.5f) + pattern_at(g, 8, 0.25f);
      });
    } else {
      check_spread(bname[body], O, n, [&](size_t g) {
        float s = 0;
        for (int j = 0; j < k; ++j) s += pattern_at((g + (size_t)j * T) & mask, 4, 0.5f);
        return s;
      });
    }
  };

  // DRAM sweep: n = 2^24, 2^25 (bs = 32 only), 2^26, 2^28; blocks <= 2^20; float4 and
  // the k-load bodies keep their footprint within the 1 GiB buffers.
  const size_t ns[4] = {size_t(1) << 24, size_t(1) << 25, size_t(1) << 26, size_t(1) << 28};
  for (int body = 0; body < 7; ++body)
    for (int bsi = 0; bsi < 6; ++bsi)
      for (int ni = 0; ni < 4; ++ni) {
        int bs = bss[bsi];
        size_t n = ns[ni];
        if (ni == 1 && bs != 32) continue;
        if (n / bs > kStampBlocks) continue;
        int k = body >= 4 ? (body == 4 ? 2 : body == 5 ? 4 : 8) : 1;
        if (body == 2 && n * 4 > kN) continue;
        if (k > 1 && n * k > kN) continue;
        one_shot(body, n, bs, 0, true, "dram", 0);
      }
  // L2-resident (warm) sweep.
  for (int body = 0; body < 7; ++body) {
    if (body == 4 || body == 6) continue;
    size_t n = body == 2 ? size_t(1) << 20 : body == 5 ? size_t(1) << 19 : size_t(1) << 21;
    for (int bsi = 0; bsi < 6; ++bsi) one_shot(body, n, bss[bsi], 0, false, "l2", 0);
  }
  // Pinned blocks per SM (dynamic shared memory), DRAM.
  {
    const int pbs[3] = {64, 256, 1024};
    const int pb[5] = {1, 2, 4, 8, 16};
    for (int body : {1, 5})
      for (int q = 0; q < 3; ++q)
        for (int p = 0; p < 5; ++p) {
          if (pbs[q] * pb[p] > 2048) continue;
          one_shot(body, size_t(1) << 24, pbs[q], dyn_smem_for_bpsm(b.prop, pb[p]), true,
                   "dram", pb[p]);
        }
  }

  // ------------------------------------------------------------ FMA-only blocks (the gap)
  for (int bs : {256, 1024})
    for (int bp : {1, 2, 8})
      for (int iters : {0, 64, 512})
        for (int st : {0, 1}) {
          if (bs * bp > 2048) continue;
          if (bs == 1024 && iters == 64) continue;
          bool pin = bp < 2048 / bs;
          size_t dyn = pin ? dyn_smem_for_bpsm(b.prop, bp) : 0;
          unsigned blocks = bs == 256 ? 1u << 16 : 1u << 14;
          CK(cudaFuncSetAttribute((const void *)k_fma<false>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
          CK(cudaFuncSetAttribute((const void *)k_fma<true>,
                                  cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
          Row r;
          r.family = "turnover";
          r.name = "fma";
          r.params = "iters=" + std::to_string(iters) + " store=" + std::to_string(st) +
                     " bs=" + std::to_string(bs) + (pin ? " bpsm=" + std::to_string(bp) : "");
          row_shape(r, k_fma<false>, dim3(blocks), dim3(bs), dyn);
          r.bytes = st ? 4ull * blocks * bs : 0;
          r.flops = 2ull * blocks * bs * iters;
          std::function<void(bool)> launch = [&, blocks, dyn, bs, iters, st](bool s) {
            if (s) k_fma<true><<<blocks, bs, dyn, b.stream>>>(O, iters, st, ts);
            else k_fma<false><<<blocks, bs, dyn, b.stream>>>(O, iters, st, ts);
          };
          run_stamped_row(c.b, c.ts, g_st, r, false, blocks, r.blocks_per_sm, launch);
          if (st)
            check_spread("fma", O, (size_t)blocks * bs, [&](size_t g) {
              float x = float(g & 1023) * (1.0f / 1024);
              for (int i = 0; i < iters; ++i) x = fmaf(x, 0.9999f, 1e-4f);
              return x;
            });
        }

  // ------------------------------------------------------------ grid-stride sums
  {
    const int Ls[4] = {1, 2, 4, 8};
    for (int ws = 0; ws < 2; ++ws)
      for (int w = 0; w < 2; ++w) {
        if (ws == 1 && w == 1) continue;  // L2: 4-byte loads only
        for (int li = 0; li < 4; ++li)
          for (int bp : {1, 2, 4, 8}) {
            int L = Ls[li];
            size_t dyn = dyn_smem_for_bpsm(b.prop, bp);
            unsigned blocks = (unsigned)(sms * bp), T = blocks * 256;
            size_t nf = ws == 0 ? kN : size_t(1) << 22;  // floats in the buffer
            size_t passes = ws == 0 ? 1 : 16;
            size_t nv = nf / (w ? 4 : 1);                // elements of type V
            unsigned mask = (unsigned)(nv - 1);
            unsigned trips = (unsigned)(nv * passes / ((size_t)T * L));
            typedef void (*kf4)(const float *, float *, unsigned, unsigned, unsigned, BlockStamps);
            typedef void (*kf16)(const float4 *, float *, unsigned, unsigned, unsigned, BlockStamps);
            kf4 a4[2] = {nullptr, nullptr};
            kf16 a16[2] = {nullptr, nullptr};
#define PICK(LL)                                                                    \
  if (L == LL) {                                                                    \
    a4[0] = k_gsum<float, LL, false>;                                               \
    a4[1] = k_gsum<float, LL, true>;                                                \
    a16[0] = k_gsum<float4, LL, false>;                                             \
    a16[1] = k_gsum<float4, LL, true>;                                              \
  }
            PICK(1) PICK(2) PICK(4) PICK(8)
#undef PICK
            const void *kf = w ? (const void *)a16[0] : (const void *)a4[0];
            CK(cudaFuncSetAttribute(kf, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
            CK(cudaFuncSetAttribute(w ? (const void *)a16[1] : (const void *)a4[1],
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
            Row r;
            r.family = "turnover";
            r.name = std::string("gsum") + (w ? "16" : "4") + "_l" + std::to_string(L);
            r.params = std::string("ws=") + (ws ? "l2" : "dram") + " bpsm=" + std::to_string(bp);
            row_shape(r, kf, dim3(blocks), dim3(256), dyn);
            r.bytes = (unsigned long long)trips * L * T * (w ? 16 : 4);
            r.flops = (unsigned long long)trips * L * T * (w ? 4 : 1);
            std::function<void(bool)> launch = [&, blocks, T, trips, mask, dyn](bool s) {
              if (w) a16[s]<<<blocks, 256, dyn, b.stream>>>(A4, O, T, trips, mask, ts);
              else a4[s]<<<blocks, 256, dyn, b.stream>>>(A, O, T, trips, mask, ts);
            };
            run_stamped_row(c.b, c.ts, g_st, r, ws == 0, blocks, bp, launch, trips,
                    (long long)bp * 8 * L * 32 * (w ? 16 : 4));
            // each load sums to (g % 4) * 0.5 (4-byte) or 3 (float4): T is a multiple of 4
            check_spread(r.name.c_str(), O, T, [&](size_t g) {
              float per = w ? 3.0f : float(g % 4) * 0.5f;
              return per * float((size_t)trips * L);
            });
          }
      }
  }

  CK(cudaFree(c.A));
  CK(cudaFree(c.B));
  CK(cudaFree(c.O));
  stamps_free(c.ts);
  fclose(g_st);
  bench_close(b);
  return 0;
}
