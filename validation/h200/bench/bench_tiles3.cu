// bench_tiles3.cu - what the shared-memory tiled kernels of bench_tiles2 leave open
// (family `tiles3`), with clock64 stamps around each phase as bench_tiles2 does:
//   wt       a WMMA tile loop from shared memory: C_b = A_b B_b (fp16 in, fp32
//            accumulate) for block b, 128 threads (4 warps in 2x2), a 64x64 block tile,
//            each warp a 32x32 sub-tile (2x2 m16n16k16 fragments), BK = 16 or 32 (the
//            k steps of a trip: BK/16, each 2 + 2 load_matrix_sync from shared memory
//            and 4 mma_sync). A_b (64 x K, row-major) and B_b (K x 64 of a row-major
//            K x 64G) are block b's own panels; shared rows padded by 8 halves.
//            ld = how a trip's tiles reach shared memory:
//              sc  one half per load, the copy loops `for (i = tid; i < 64*BK; i += 128)`
//                  (trip count unknown to nvcc: 8 or 16 loads per thread and matrix);
//              v8  one 16-byte load (8 halves) per thread and matrix per 16 k
//                  (BK/16 per thread and matrix, unrolled).
//            comp = full (the mma k steps) or none (one shared half of each tile read).
//            Grids 16, 132 (one block per SM), 528 (4 per SM), 1056 (8 per SM).
//   st       the 5-point stencil staged in shared memory with a one-point halo, each
//            load bounds-checked (bench_tiles2's stencil), halo = how the halo arrives:
//              br  each side's load and store in its own `if` after the centre's store
//                  (as bench_tiles2 hoist=0);
//              ho  all five loads (predicated) before any store (hoist=1);
//              xb  the left/right halo in branches, the upper/lower hoisted;
//              yb  the upper/lower halo in branches, the left/right hoisted;
//              pv  as br, but the halo values read from a private array laid out per
//                  block (no other block fetches those lines);
//              nh  no halo loads: the halo cells set to 0 in the same branches.
//            Side table: load = warp 0's load phase (thread (0,0)), bar2 = the last
//            warp's load phase (thread (0, BY-1)), comp = warp 0's compute+store.
//            data=dram flushes the L2 before every repetition; data=l2 does not (the
//            grid's input read again from L2).
//   tnl      bench_tiles2's register-blocked SGEMM compute (g64: 4x4 outputs per
//            thread, g128: 8x8; BK = 8, 256 threads, __launch_bounds__(256, 2)) with
//            no loads: the tiles stay in shared memory, each trip the BK k steps then
//            __syncthreads; 1, 2 (and for g64 4) blocks per SM.
// Side table tiles3_cycles.csv as bench_tiles2's: per row the medians over blocks of
// the cycles per trip of each phase (load, bar1, comp, bar2) and of the whole loop.
// The rows time the kernels without their stamps (STAMP 0) and take the side table from
// one more launch with them (STAMP 1): behind its own flush where the timing is cold
// (data=dram), straight after the timed repetitions where it is warm (data=l2, tnl), so
// that it starts from the state they did. The stamps' live registers change the SASS:
// the stamped kernels take more registers (k_wt<16, v8, full> 90 against 74, k_st 26..31
// against 15..23; k_wt<32, sc, full> 80 against 64, so wt32_sc_full's 8-per-SM row runs
// only without them), and without them ptxas issues part of the next trip's loads of the
// k_wt v8 kernels before the trip's second barrier. Runs before 2026-12-07 timed the
// stamped kernels.
//
// usage: bench_tiles3 OUT.csv CYCLES.csv [device]
#include <cuda_fp16.h>
#include <mma.h>

#include "common.cuh"

using namespace nvcuda;

__host__ __device__ inline float va(size_t m, size_t k) { return float((m + 2 * k) % 4); }
__host__ __device__ inline float vb(size_t k, size_t n) { return float((3 * k + n) % 5); }

static const int kPhases = kTilePhases;  // load, barrier, compute, barrier, whole loop

// ---------------------------------------------------------------- (a) wt
enum { LD_SC = 0, LD_V8 = 1 };

template <int BK, int LD, int FULL, int STAMP>
__global__ void __launch_bounds__(128)
    k_wt(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
         int K, long long *cyc, int cs) {
  constexpr int AP = BK + 8, BP = 72;
  __shared__ __align__(32) __half As[64][AP];
  __shared__ __align__(32) __half Bs[BK][BP];
  const int tid = threadIdx.x, warp = tid / 32, wy = warp / 2, wx = warp % 2;
  const int b = blockIdx.x;
  const size_t ld = (size_t)gridDim.x * 64;  // row length of B
  const int row0 = b * 64, col0 = b * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(c[i][j], 0.0f);
  float acc0 = 0.f;
  long long d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  const long long ts = stamp_clock<STAMP>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    const long long t0 = stamp_clock<STAMP>();
    if (LD == LD_SC) {
      for (int i = tid; i < 64 * BK; i += 128) {
        int r = i / BK, cc = i % BK;
        As[r][cc] = A[(size_t)(row0 + r) * K + k0 + cc];
      }
      for (int i = tid; i < BK * 64; i += 128) {
        int r = i / 64, cc = i % 64;
        Bs[r][cc] = B[(size_t)(k0 + r) * ld + col0 + cc];
      }
    } else {
#pragma unroll
      for (int j = 0; j < BK / 16; ++j) {
        int i = tid + 128 * j, r = i / (BK / 8), c8 = i % (BK / 8);
        *(uint4 *)&As[r][c8 * 8] = *(const uint4 *)&A[(size_t)(row0 + r) * K + k0 + c8 * 8];
      }
#pragma unroll
      for (int j = 0; j < BK / 16; ++j) {
        int i = tid + 128 * j, r = i / 8, c8 = i % 8;
        *(uint4 *)&Bs[r][c8 * 8] = *(const uint4 *)&B[(size_t)(k0 + r) * ld + col0 + c8 * 8];
      }
    }
    const long long t1 = stamp_clock<STAMP>();
    __syncthreads();
    const long long t2 = stamp_clock<STAMP>();
    if (FULL) {
#pragma unroll
      for (int kk = 0; kk < BK; kk += 16) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> bf[2];
#pragma unroll
        for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[wy * 32 + i * 16][kk], AP);
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(bf[j], &Bs[kk][wx * 32 + j * 16], BP);
#pragma unroll
        for (int i = 0; i < 2; ++i)
#pragma unroll
          for (int j = 0; j < 2; ++j) wmma::mma_sync(c[i][j], a[i], bf[j], c[i][j]);
      }
    } else {
      acc0 += __half2float(As[tid % 64][0]) + __half2float(Bs[0][tid % 64]);
    }
    const long long t3 = stamp_clock<STAMP>();
    __syncthreads();
    const long long t4 = stamp_clock<STAMP>();
    d0 += t1 - t0;
    d1 += t2 - t1;
    d2 += t3 - t2;
    d3 += t4 - t3;
  }
  const long long te = stamp_clock<STAMP>();
  if (FULL) {
    float *Cb = C + (size_t)b * 64 * 64;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::store_matrix_sync(Cb + (wy * 32 + i * 16) * 64 + wx * 32 + j * 16, c[i][j], 64,
                                wmma::mem_row_major);
  } else {
    C[(size_t)b * 128 + tid] = acc0;
  }
  if (STAMP && tid == 0) {
    cyc[0 * cs + b] = d0;
    cyc[1 * cs + b] = d1;
    cyc[2 * cs + b] = d2;
    cyc[3 * cs + b] = d3;
    cyc[4 * cs + b] = te - ts;
  }
}

// A: rows x K row-major, A(m, k) = va; B: K x rows row-major, B(k, n) = vb.
__global__ void k_wt_fill(__half *A, __half *B, int rows, int K) {
  size_t n = (size_t)rows * K;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    A[i] = __float2half(va(i / K, i % K));
    B[i] = __float2half(vb(i / rows, i % rows));
  }
}

// ---------------------------------------------------------------- (b) st
enum { H_BR = 0, H_HO = 1, H_XB = 2, H_YB = 3, H_PV = 4, H_NH = 5 };
static const float kC0 = 0.5f, kC1 = 0.125f;

template <int BX, int BY, int H, int STAMP>
__global__ void __launch_bounds__(BX *BY)
    k_st(const float *__restrict__ in, const float *__restrict__ halo, float *__restrict__ out,
         int n, long long *cyc, int cs) {
  __shared__ float t[BY + 2][BX + 2];
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  const int b = blockIdx.y * gridDim.x + blockIdx.x;
  const float *hb = halo + (size_t)b * (2 * BY + 2 * BX);  // H_PV: left, right, up, down
  const bool l = threadIdx.x == 0, r = threadIdx.x == BX - 1, u = threadIdx.y == 0,
             d = threadIdx.y == BY - 1;
  auto ld = [&](int xx, int yy) {
    return (xx >= 0 && xx < n && yy >= 0 && yy < n) ? in[(size_t)yy * n + xx] : 0.0f;
  };
  const long long t0 = stamp_clock<STAMP>();
  if (H == H_HO) {
    float vc = ld(x, y), vl = l ? ld(x - 1, y) : 0.f, vr = r ? ld(x + 1, y) : 0.f,
          vu = u ? ld(x, y - 1) : 0.f, vd = d ? ld(x, y + 1) : 0.f;
    t[ty][tx] = vc;
    if (l) t[ty][0] = vl;
    if (r) t[ty][BX + 1] = vr;
    if (u) t[0][tx] = vu;
    if (d) t[BY + 1][tx] = vd;
  } else if (H == H_XB) {
    float vc = ld(x, y), vu = u ? ld(x, y - 1) : 0.f, vd = d ? ld(x, y + 1) : 0.f;
    t[ty][tx] = vc;
    if (u) t[0][tx] = vu;
    if (d) t[BY + 1][tx] = vd;
    if (l) t[ty][0] = ld(x - 1, y);
    if (r) t[ty][BX + 1] = ld(x + 1, y);
  } else if (H == H_YB) {
    float vc = ld(x, y), vl = l ? ld(x - 1, y) : 0.f, vr = r ? ld(x + 1, y) : 0.f;
    t[ty][tx] = vc;
    if (l) t[ty][0] = vl;
    if (r) t[ty][BX + 1] = vr;
    if (u) t[0][tx] = ld(x, y - 1);
    if (d) t[BY + 1][tx] = ld(x, y + 1);
  } else if (H == H_PV) {
    t[ty][tx] = ld(x, y);
    if (l) t[ty][0] = hb[threadIdx.y];
    if (r) t[ty][BX + 1] = hb[BY + threadIdx.y];
    if (u) t[0][tx] = hb[2 * BY + threadIdx.x];
    if (d) t[BY + 1][tx] = hb[2 * BY + BX + threadIdx.x];
  } else if (H == H_NH) {
    t[ty][tx] = ld(x, y);
    if (l) t[ty][0] = 0.f;
    if (r) t[ty][BX + 1] = 0.f;
    if (u) t[0][tx] = 0.f;
    if (d) t[BY + 1][tx] = 0.f;
  } else {
    t[ty][tx] = ld(x, y);
    if (l) t[ty][0] = ld(x - 1, y);
    if (r) t[ty][BX + 1] = ld(x + 1, y);
    if (u) t[0][tx] = ld(x, y - 1);
    if (d) t[BY + 1][tx] = ld(x, y + 1);
  }
  const long long t1 = stamp_clock<STAMP>();
  __syncthreads();
  const long long t2 = stamp_clock<STAMP>();
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
    out[(size_t)y * n + x] =
        kC0 * t[ty][tx] + kC1 * (t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx]);
  const long long t3 = stamp_clock<STAMP>();
  if (STAMP && threadIdx.x == 0 && threadIdx.y == 0) {
    cyc[0 * cs + b] = t1 - t0;
    cyc[1 * cs + b] = t2 - t1;
    cyc[2 * cs + b] = t3 - t2;
    cyc[4 * cs + b] = t3 - t0;
  }
  if (STAMP && threadIdx.x == 0 && threadIdx.y == BY - 1) cyc[3 * cs + b] = t1 - t0;
}

// The private halo array of H_PV: per block its left, right, upper and lower halo values.
template <int BX, int BY>
__global__ void k_halo_fill(const float *__restrict__ in, float *__restrict__ halo, int n) {
  const int gx = n / BX, blocks = gx * (n / BY), per = 2 * BY + 2 * BX;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)blocks * per;
       i += (size_t)gridDim.x * blockDim.x) {
    int b = (int)(i / per), j = (int)(i % per);
    int x0 = (b % gx) * BX, y0 = (b / gx) * BY, xx, yy;
    if (j < BY) xx = x0 - 1, yy = y0 + j;
    else if (j < 2 * BY) xx = x0 + BX, yy = y0 + j - BY;
    else if (j < 2 * BY + BX) xx = x0 + j - 2 * BY, yy = y0 - 1;
    else xx = x0 + j - 2 * BY - BX, yy = y0 + BY;
    halo[i] = (xx >= 0 && xx < n && yy >= 0 && yy < n) ? in[(size_t)yy * n + xx] : 0.f;
  }
}

// ---------------------------------------------------------------- (c) tnl
template <int BM, int TM, int STAMP>
__global__ void __launch_bounds__(256, 2)
    k_tnl(float *__restrict__ C, int trips, long long *cyc, int cs) {
  constexpr int BK = 8, T = 256, TX = BM / TM;
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BM];
  const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX, b = blockIdx.x;
  for (int i = tid; i < BK * BM; i += T) {
    As[i / BM][i % BM] = va(i % BM, i / BM);
    Bs[i / BM][i % BM] = vb(i / BM, i % BM);
  }
  __syncthreads();
  float acc[TM][TM];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TM; ++j) acc[i][j] = 0.f;
  long long d2 = 0, d3 = 0;
  const long long ts = stamp_clock<STAMP>();
  for (int t = 0; t < trips; ++t) {
    const long long t2 = stamp_clock<STAMP>();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], bb[TM];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TM; ++j) bb[j] = Bs[kk][tx * TM + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TM; ++j) acc[i][j] += a[i] * bb[j];
    }
    const long long t3 = stamp_clock<STAMP>();
    __syncthreads();
    const long long t4 = stamp_clock<STAMP>();
    d2 += t3 - t2;
    d3 += t4 - t3;
  }
  const long long te = stamp_clock<STAMP>();
  float *Cb = C + (size_t)b * BM * BM;
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TM; ++j) Cb[(ty * TM + i) * BM + tx * TM + j] = acc[i][j];
  if (STAMP && tid == 0) {
    cyc[0 * cs + b] = 0;
    cyc[1 * cs + b] = 0;
    cyc[2 * cs + b] = d2;
    cyc[3 * cs + b] = d3;
    cyc[4 * cs + b] = te - ts;
  }
}

// ---------------------------------------------------------------- driver
static FILE *g_cyc = nullptr;
static const int kReps = 7;

// Medians over blocks of each phase's cycles, per trip (common.cuh).
static void emit_cycles(const Row &r, const long long *cyc, int cs, long long blocks,
                        long long trips) {
  emit_phase_cycles(g_cyc, r, cyc, cs, blocks, trips);
}

typedef void (*wt_t)(const __half *, const __half *, float *, int, long long *, int);

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,load,bar1,comp,bar2,loop_median,loop_min,"
      "loop_max,loop_per_trip\n");
  const int sms = b.sm_count;
  const int kCs = 1 << 18;  // blocks per phase slot of cyc
  long long *cyc;
  CK(cudaMalloc(&cyc, (size_t)kPhases * kCs * sizeof(long long)));
  CK(cudaMemset(cyc, 0, (size_t)kPhases * kCs * sizeof(long long)));
  const size_t kL2Bytes = size_t(24) << 20;  // data=l2: input footprint at most this

  // (a) WMMA tile loop
  {
    const int Kd = 512;
    const size_t maxEl = (size_t)8 * sms * 64 * Kd;
    __half *A, *B;
    float *C;
    CK(cudaMalloc(&A, maxEl * sizeof(__half)));
    CK(cudaMalloc(&B, maxEl * sizeof(__half)));
    CK(cudaMalloc(&C, (size_t)8 * sms * 64 * 64 * sizeof(float)));
    struct V {
      const char *name;
      int bk, full;
      wt_t k, ks;  // timed (no stamps) and stamped (the side table's launch)
    };
#define WTV(name, bk, ld, full) {name, bk, full, k_wt<bk, ld, full, 0>, k_wt<bk, ld, full, 1>}
    const V vs[8] = {WTV("wt16_sc_full", 16, LD_SC, 1), WTV("wt16_sc_none", 16, LD_SC, 0),
                     WTV("wt16_v8_full", 16, LD_V8, 1), WTV("wt16_v8_none", 16, LD_V8, 0),
                     WTV("wt32_sc_full", 32, LD_SC, 1), WTV("wt32_sc_none", 32, LD_SC, 0),
                     WTV("wt32_v8_full", 32, LD_V8, 1), WTV("wt32_v8_none", 32, LD_V8, 0)};
#undef WTV
    for (int v = 0; v < 8; ++v)
      for (int dram = 1; dram >= 0; --dram)
        for (int G : {16, sms, 4 * sms, 8 * sms}) {
          const int BK = vs[v].bk;
          int K = Kd;
          if (!dram) {
            size_t per_k = (size_t)G * 2 * 64 * sizeof(__half);
            K = (int)std::min<size_t>(Kd, kL2Bytes / per_k / BK * BK);
            if (K < 4 * BK) continue;
          }
          Row r;
          r.family = "tiles3";
          r.name = vs[v].name;
          r.params = "blocks=" + std::to_string(G) + " data=" + (dram ? "dram" : "l2") +
                     " k=" + std::to_string(K);
          row_shape(r, vs[v].k, dim3(G), dim3(128), 0);
          if (r.blocks_per_sm * sms < G) {
            fprintf(stderr, "  skip %s %s: %lld blocks per SM\n", r.name.c_str(),
                    r.params.c_str(), r.blocks_per_sm);
            continue;
          }
          const int rows = G * 64;
          k_wt_fill<<<2048, 256>>>(A, B, rows, K);
          CK_LAUNCH();
          CK(cudaDeviceSynchronize());
          wt_t kf = vs[v].k, ks = vs[v].ks;
          r.t = time_case(b, kReps, dram,
                          [&] { kf<<<G, 128, 0, b.stream>>>(A, B, C, K, cyc, kCs); });
          side_case(b, dram, [&] { ks<<<G, 128, 0, b.stream>>>(A, B, C, K, cyc, kCs); });
          r.bytes = (size_t)G * 2 * 64 * K * sizeof(__half);
          r.flops = vs[v].full ? 2ull * G * 64 * 64 * K : 2ull * G * 128 * (K / BK);
          emit(b, r);
          emit_cycles(r, cyc, kCs, G, K / BK);
          if (vs[v].full) {
            std::vector<float> h = to_host(C, (size_t)G * 64 * 64);
            for (int q = 0; q < 512; ++q) {
              size_t e = ((size_t)q * 7919 * 104729) % ((size_t)G * 64 * 64);
              size_t blk = e / 4096, rr = (e % 4096) / 64, cc = e % 64;
              double want = 0;
              for (int k = 0; k < K; ++k)
                want += (double)va(blk * 64 + rr, k) * vb(k, blk * 64 + cc);
              REQUIRE(h[e] == (float)want, "%s %s: C[%zu] = %g, expected %g", r.name.c_str(),
                      r.params.c_str(), e, h[e], want);
            }
          } else {
            std::vector<float> h = to_host(C, (size_t)G * 128);
            for (size_t e = 0; e < h.size(); e += 37) {
              size_t blk = e / 128, m = e % 128 % 64;
              double want = 0;
              for (int k = 0; k < K; k += BK)
                want += (double)va(blk * 64 + m, k) + vb(k, blk * 64 + m);
              REQUIRE(h[e] == (float)want, "%s %s: out[%zu] = %g, expected %g",
                      r.name.c_str(), r.params.c_str(), e, h[e], want);
            }
          }
        }
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
  }

  // (b) staged stencil, the halo's ways
  {
    typedef void (*st_t)(const float *, const float *, float *, int, long long *, int);
    typedef void (*hf_t)(const float *, float *, int);
    struct V {
      const char *name;
      int bx, by, h;
      st_t k, ks;  // timed (no stamps) and stamped (the side table's launch)
      hf_t fill;
    };
#define STV(name, bx, by, h) \
  {name, bx, by, h, k_st<bx, by, h, 0>, k_st<bx, by, h, 1>, k_halo_fill<bx, by>}
    const V vs[10] = {STV("st32x8_br", 32, 8, H_BR),   STV("st32x8_ho", 32, 8, H_HO),
                      STV("st32x8_xb", 32, 8, H_XB),   STV("st32x8_yb", 32, 8, H_YB),
                      STV("st32x8_pv", 32, 8, H_PV),   STV("st32x8_nh", 32, 8, H_NH),
                      STV("st16x16_br", 16, 16, H_BR), STV("st16x16_ho", 16, 16, H_HO),
                      STV("st16x16_pv", 16, 16, H_PV), STV("st16x16_nh", 16, 16, H_NH)};
#undef STV
    const size_t nmax = 8192;
    float *in, *out, *halo;
    CK(cudaMalloc(&in, nmax * nmax * sizeof(float)));
    CK(cudaMalloc(&out, nmax * nmax * sizeof(float)));
    CK(cudaMalloc(&halo, (nmax * nmax / 128) * 48 * sizeof(float)));
    fill_pattern(in, nmax * nmax, 17, 1.f);
    for (int v = 0; v < 10; ++v)
      for (int dram = 1; dram >= 0; --dram)
        for (int n : {512, 1024, 2048, 8192}) {
          if (dram && n == 1024) continue;
          if (!dram && n > 1024) continue;
          const V &s = vs[v];
          fill_pattern(out, (size_t)n * n, 1, 0.f);
          dim3 grid(n / s.bx, n / s.by), block(s.bx, s.by);
          long long blocks = (long long)grid.x * grid.y;
          REQUIRE(blocks <= kCs, "too many blocks");
          if (s.h == H_PV) {
            s.fill<<<2048, 256>>>(in, halo, n);
            CK_LAUNCH();
            CK(cudaDeviceSynchronize());
          }
          Row r;
          r.family = "tiles3";
          r.name = s.name;
          r.params = "n=" + std::to_string(n) + " data=" + (dram ? "dram" : "l2");
          row_shape(r, s.k, grid, block, 0);
          r.t = time_case(b, kReps, dram,
                          [&] { s.k<<<grid, block, 0, b.stream>>>(in, halo, out, n, cyc, kCs); });
          side_case(b, dram,
                    [&] { s.ks<<<grid, block, 0, b.stream>>>(in, halo, out, n, cyc, kCs); });
          r.bytes = 2ull * n * n * sizeof(float);
          r.flops = 6ull * (n - 2) * (n - 2);
          emit(b, r);
          emit_cycles(r, cyc, kCs, blocks, 1);
          const bool nh = s.h == H_NH;
          check_spread(r.name.c_str(), out, (size_t)n * n, [&](size_t i) {
            size_t y = i / n, x = i % n;
            if (x < 1 || x >= (size_t)n - 1 || y < 1 || y >= (size_t)n - 1) return 0.f;
            auto at = [&](size_t j) { return pattern_at(j, 17, 1.f); };
            float l = at(i - 1), rr = at(i + 1), u = at(i - n), d = at(i + n);
            if (nh) {
              if (x % s.bx == 0) l = 0.f;
              if (x % s.bx == (size_t)s.bx - 1) rr = 0.f;
              if (y % s.by == 0) u = 0.f;
              if (y % s.by == (size_t)s.by - 1) d = 0.f;
            }
            return kC0 * at(i) + kC1 * (l + rr + u + d);
          });
        }
    CK(cudaFree(in));
    CK(cudaFree(out));
    CK(cudaFree(halo));
  }

  // (c) the SGEMM compute alone
  {
    typedef void (*tnl_t)(float *, int, long long *, int);
    float *C;
    CK(cudaMalloc(&C, (size_t)4 * sms * 128 * 128 * sizeof(float)));
    const int trips = 256;
    for (int s = 0; s < 2; ++s) {
      const int BM = s ? 128 : 64;
      tnl_t k = s ? k_tnl<128, 8, 0> : k_tnl<64, 4, 0>;   // timed (no stamps)
      tnl_t ks = s ? k_tnl<128, 8, 1> : k_tnl<64, 4, 1>;  // stamped (the side table's launch)
      for (int q = 1; q <= (s ? 2 : 4); q *= 2) {
        const int G = q * sms;
        Row r;
        r.family = "tiles3";
        r.name = s ? "tnl_g128" : "tnl_g64";
        r.params = "blocks=" + std::to_string(G) + " trips=" + std::to_string(trips);
        row_shape(r, k, dim3(G), dim3(256), 0);
        if (r.blocks_per_sm * sms < G) {
          fprintf(stderr, "  skip %s %s\n", r.name.c_str(), r.params.c_str());
          continue;
        }
        r.t = time_case(b, kReps, false, [&] { k<<<G, 256, 0, b.stream>>>(C, trips, cyc, kCs); });
        side_case(b, false, [&] { ks<<<G, 256, 0, b.stream>>>(C, trips, cyc, kCs); });
        r.bytes = (size_t)G * BM * BM * 4;
        r.flops = 2ull * G * BM * BM * 8 * trips;
        emit(b, r);
        emit_cycles(r, cyc, kCs, G, trips);
        std::vector<float> h = to_host(C, (size_t)G * BM * BM);
        for (size_t e = 0; e < h.size(); e += 101) {
          size_t rr = (e % (BM * BM)) / BM, cc = e % BM;
          double want = 0;
          for (int kk = 0; kk < 8; ++kk) want += (double)va(rr, kk) * vb(kk, cc);
          want *= trips;
          REQUIRE(h[e] == (float)want, "%s %s: C[%zu] = %g, expected %g", r.name.c_str(),
                  r.params.c_str(), e, h[e], want);
        }
      }
    }
    CK(cudaFree(C));
  }

  CK(cudaFree(cyc));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
