// bench_reuse.cu - re-use of loaded data in L1 and L2 (family `reuse`).
//
// own rows (k_own<D>): feature-major data x[f * pitch + g] (f < D, g the global
// thread index, pitch = n + pad, n the threads of the grid: a multiple of 2^14 bytes,
// so with pad = 0 a thread's D lines fall in the same L1 sets; pad = 32 floats puts
// them in consecutive sets; D = 10, 12, 14 and pads of 256 .. 4096 floats probe the
// sets). Each thread re-reads its own D words once per
// trip of an outer loop of R trips whose counter is not in the index (the distance
// of point g to each of R centroids: s += (x[f * n + g] - c_r)^2, c_r = r / 4).
// The loads are `ld.global.ca.f32` in volatile asm so that nvcc cannot keep them in
// registers across the outer loop; the inner loop over f is unrolled by 8 (8 loads
// in flight per thread). 256-thread blocks, __launch_bounds__(256, 8) (at most 32
// registers). The SM's shared memory carve-out is set with
// cudaFuncAttributePreferredSharedMemoryCarveout to 8 KiB or 132 KiB (the L1 keeps
// 248 KiB or 124 KiB of the 256 KiB); each block takes dynamic shared memory
// (carve-out / B - 1 KiB, the 1 KiB being the per-block reservation) so that
// exactly B blocks fit an SM. Per-SM footprint B * 256 * D * 4 bytes; the grid is
// 4 waves (4 * B * SMs blocks), so the whole array is 4 * SMs times that (up to
// 198 MiB, more than the L2). L2 flushed before every repetition.
//
// tile rows (k_tile): C = A * B for n x n row-major floats, the plain loop
// s += A[row * n + k] * B[k * n + col] per thread, threadIdx.x -> col: consecutive
// threads read consecutive words of B's row k, and the lanes of a warp on one row
// read the same word of A. Blocks 16x16 and 32x8, n = 256 .. 2048. L2 flushed
// before every repetition.
//
// sweep rows (k_sweep): a buffer of S MiB (32 .. 96 around the 50 MiB L2 and 16)
// read P = 8 times per launch. 8 blocks of 256 threads per SM; in each warp lanes
// 0..L-1 load, the others return. pattern `lines`: in request i of a warp lane l
// reads the first word of line i * L + l (each request touches L lines, one sector
// each; every line of the buffer once per pass); pattern `full`: the 32 lanes read
// the 32 words of line i (4 sectors). Requests are spread over the grid's warps in
// grid-stride order (warp w takes i = w, w + W, ...). The L2 is not flushed: the
// two warm-up launches leave it as the timed launches find it.
//
// Output: OUT.csv (calibration columns, median of 7 repetitions after 2 warm-ups).
//
// usage: bench_reuse OUT.csv [device]
#include "common.cuh"

__device__ __forceinline__ float load_ca(const float *p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// own: R trips of D re-reads of the thread's own words (see the header).
template <int D>
__global__ void __launch_bounds__(256, 8) k_own(const float *x, unsigned pitch, int R,
                                                float *out) {
  extern __shared__ float pad[];  // sized only to set the blocks per SM
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float c = (float)r * 0.25f;
    const float *q = x + g;
#pragma unroll 8
    for (int f = 0; f < D; ++f, q += pitch) {
      float d = load_ca(q) - c;
      s = fmaf(d, d, s);
    }
  }
  out[g] = s;
  (void)pad;
}

// Host mirror of k_own for thread g.
static float own_want(int D, unsigned pitch, int R, size_t g) {
  float s = 0;
  for (int r = 0; r < R; ++r) {
    float c = (float)r * 0.25f;
    for (int f = 0; f < D; ++f) {
      float d = pattern_at((size_t)f * pitch + g, 4, 0.5f) - c;
      s = fmaf(d, d, s);
    }
  }
  return s;
}

// tile: one element of C = A * B per thread, the k loop as written by hand.
__global__ void k_tile(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < n; ++k) s = fmaf(A[row * n + k], B[k * n + col], s);
  C[row * n + col] = s;
}

// sweep: P passes over `lines` 128-byte lines, lanes 0..L-1 of each warp (see header).
__global__ void k_sweep(const float *x, unsigned lines, int L, int full, int P, float *out) {
  unsigned lane = threadIdx.x & 31;
  unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned W = (gridDim.x * blockDim.x) >> 5;
  if (lane >= (unsigned)L) return;
  unsigned nreq = full ? lines : lines / L;
  float s = 0;
  for (int p = 0; p < P; ++p) {
#pragma unroll 4
    for (unsigned i = w; i < nreq; i += W) {
      size_t word = full ? (size_t)i * 32 + lane : ((size_t)i * L + lane) * 32;
      s += load_ca(x + word);
    }
  }
  out[(size_t)w * 32 + lane] = s;
}

typedef void (*own_t)(const float *, unsigned, int, float *);

static std::string mib(size_t b) { return std::to_string(b >> 20) + "M"; }

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int S = b.sm_count;
  const size_t K = 1024, M = K * K;
  const size_t maxBytes = 200 * M;
  float *x, *out;
  CK(cudaMalloc(&x, maxBytes));
  CK(cudaMalloc(&out, 64 * M));
  fill_pattern(x, maxBytes / 4, 4, 0.5f);
  const size_t smem_kib = b.prop.sharedMemPerMultiprocessor / K;

  // ---- own: D words per thread re-read R times ----
  {
    const int Ds[9] = {4, 8, 16, 24, 32, 48, 10, 12, 14};
    const own_t ks[9] = {k_own<4>,  k_own<8>,  k_own<16>, k_own<24>, k_own<32>,
                         k_own<48>, k_own<10>, k_own<12>, k_own<14>};
    const int bpss[4] = {1, 2, 4, 8};
    const int carves[2] = {8, 132};  // KiB of shared memory per SM
    const int R = 32, waves = 4;
    // one row: D words (kernel v), B blocks per SM, carve-out C KiB, pitch n + pad floats
    auto own_row = [&](int v, int B, int C, unsigned pad) {
      int D = Ds[v];
      int pct = (int)(C * 100 / smem_kib);  // rounded up to the C KiB step by the driver
      CK(cudaFuncSetAttribute((const void *)ks[v],
                              cudaFuncAttributePreferredSharedMemoryCarveout, pct));
      allow_dyn_smem(ks[v], 131 * K);
      size_t dyn = (size_t)(C / B) * K - b.prop.reservedSharedMemPerBlock;
      if (B == 8 && C == 8) dyn = 0;
      unsigned grid = waves * B * S, n = grid * 256, pitch = n + pad;
      REQUIRE((size_t)D * pitch * 4 <= maxBytes, "own D=%d B=%d: %zu bytes", D, B,
              (size_t)D * pitch * 4);
      own_t k = ks[v];
      Row r;
      r.family = "reuse";
      r.name = "own_d" + std::to_string(D);
      r.params = "blocks_per_sm=" + std::to_string(B) + " carveout=" + std::to_string(C) +
                 "K trips=" + std::to_string(R) + " pad=" + std::to_string(pad) +
                 " carveout_pct=" + std::to_string(pct);
      row_shape(r, k, dim3(grid), dim3(256), dyn);
      r.t = time_case(b, 7, true, [&] { k<<<grid, 256, dyn, b.stream>>>(x, pitch, R, out); });
      r.bytes = 4ull * n * (D + 1);
      r.flops = 3ull * n * D * R;
      emit(b, r);
      check_spread(r.name.c_str(), out, n,
                   [&](size_t g) { return own_want(D, pitch, R, g); });
    };
    // the pitch n (a multiple of 2^14 bytes: a thread's D lines share L1 sets) and
    // n + 32 floats (128 bytes more: consecutive lines, consecutive sets)
    for (unsigned pad : {0u, 32u})
      for (int ci = 0; ci < 2; ++ci)
        for (int bi = 0; bi < 4; ++bi)
          for (int v = 0; v < 6; ++v) own_row(v, bpss[bi], carves[ci], pad);
    // the set probe: D = 10, 12, 14 at pitch n; D = 16 at pitches n + 256 .. 4096 floats
    for (int v = 6; v < 9; ++v) own_row(v, 1, 8, 0);
    for (unsigned pad : {256u, 1024u, 2048u, 4096u}) own_row(2, 1, 8, pad);
  }

  // ---- tile: C = A * B, the k loop reading a column of B and a broadcast word of A ----
  {
    const int ns[7] = {256, 384, 512, 768, 1024, 1536, 2048};
    const int bxs[2] = {16, 32}, bys[2] = {16, 8};
    float *A = x, *B = x + 8 * M, *Cm = out;  // A and B: 32 MiB apart, 16 MiB each at most
    for (int si = 0; si < 2; ++si)
      for (int ni = 0; ni < 7; ++ni) {
        int n = ns[ni];
        dim3 blk(bxs[si], bys[si]), grd(n / bxs[si], n / bys[si]);
        Row r;
        r.family = "reuse";
        r.name = "tile_" + std::to_string(bxs[si]) + "x" + std::to_string(bys[si]);
        r.params = "n=" + std::to_string(n);
        row_shape(r, k_tile, grd, blk, 0);
        r.t = time_case(b, 7, true, [&] { k_tile<<<grd, blk, 0, b.stream>>>(A, B, Cm, n); });
        r.bytes = 12ull * n * n;
        r.flops = 2ull * n * n * n;
        emit(b, r);
        size_t nn = (size_t)n * n;
        check_spread(r.name.c_str(), Cm, nn, [&](size_t e) {
          size_t row = e / n, col = e % n;
          float s = 0;
          for (int k = 0; k < n; ++k)
            s = fmaf(pattern_at(row * n + k, 4, 0.5f),
                     pattern_at(8 * M + (size_t)k * n + col, 4, 0.5f), s);
          return s;
        });
      }
  }

  // ---- sweep: S MiB re-read 8 times per launch with L lanes per warp ----
  {
    fill_pattern(x, maxBytes / 4, 7, 0.5f);
    const size_t sizes[8] = {16 * M, 32 * M, 40 * M, 48 * M, 56 * M, 64 * M, 80 * M, 96 * M};
    const int Ls[6] = {1, 2, 4, 8, 32, 32};
    const int P = 8, T = 256, bps = 8;
    const unsigned grid = bps * S, W = grid * T / 32;
    std::vector<float> h((size_t)W * 32);
    for (int si = 0; si < 8; ++si)
      for (int li = 0; li < 6; ++li) {
        int L = Ls[li], full = li == 5;
        unsigned lines = (unsigned)(sizes[si] / 128);
        Row r;
        r.family = "reuse";
        r.name = std::string(full ? "sweep_full" : "sweep_lines");
        r.params = "size=" + mib(sizes[si]) + " lanes=" + std::to_string(L) +
                   " passes=" + std::to_string(P);
        row_shape(r, k_sweep, dim3(grid), dim3(T), 0);
        r.t = time_case(b, 7, false, [&] {
          k_sweep<<<grid, T, 0, b.stream>>>(x, lines, L, full, P, out);
        });
        unsigned nreq = full ? lines : lines / L;
        r.bytes = (unsigned long long)P * nreq * (full ? 128 : 4ull * L);
        emit(b, r);
        CK(cudaMemcpy(h.data(), out, h.size() * 4, cudaMemcpyDeviceToHost));
        for (unsigned w = 0; w < W; w += 37)
          for (int l = 0; l < L; ++l) {
            float s = 0;
            for (int p = 0; p < P; ++p)
              for (unsigned i = w; i < nreq; i += W) {
                size_t word = full ? (size_t)i * 32 + l : ((size_t)i * L + l) * 32;
                s += pattern_at(word, 7, 0.5f);
              }
            float got = h[(size_t)w * 32 + l];
            REQUIRE(got == s, "%s %s: warp %u lane %d summed %g, expected %g", r.name.c_str(),
                    r.params.c_str(), w, l, got, s);
          }
      }
  }
  CK(cudaFree(x));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
