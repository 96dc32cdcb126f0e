// bench_mmasmem.cu - the phases of shared-memory-staged WMMA GEMMs (family `mmasmem`),
// with clock64 stamps around each phase of every trip (thread 0 of each block), as
// bench_tiles3 does:
//   cp   a WMMA tile loop, C_b = A_b B_b (fp16 in, fp32 accumulate) for block b, 128
//        threads (4 warps in 2x2), a 64x64 block tile, each warp a 32x32 sub-tile (2x2
//        m16n16k16 fragments), BK = 16 or 32; A_b (64 x K of a row-major G*64 x K) and
//        B_b (K x 64 of a row-major K x G*64) are block b's own panels (no block reads
//        another's lines); shared rows padded by 8 halves (As[64][BK+8], Bs[BK][72]).
//        w = bytes per copy per thread (2: one half, 4: a half2, 8: uint2, 16: uint4),
//        so 64*BK*2 / (w*128) copies per thread and matrix (1 .. 16);
//        form lp: the copy loops `for (i = tid; i < 64*BK/e; i += 128)` (e = w/2 halves;
//             a trip count nvcc does not know: unrolled 4 times, the rest one at a time)
//        form ur: the same copies with the count known (#pragma unroll over tid + 128 j);
//        comp = mma (per 16 k: 2 + 2 load_matrix_sync from shared memory and 4 mma_sync)
//        or none (one shared half of each tile read per trip: the copy and barriers);
//        grids of 132, 528 and 792 blocks (1, 4 and 6 per SM), L2 flushed before every
//        repetition (every tile from DRAM).
//   sq   a whole C = A B, n x n (n = 512, 1024, 2048), grid (n/64, n/64) of the cp
//        kernel (BK = 32, comp mma): block (bx, by) reads rows by*64.. of A and columns
//        bx*64.. of B, so the n/64 blocks of a row (column) share A's (B's) lines;
//        w and form as cp; L2 flushed before every repetition.
//   mc   the WMMA compute alone: A and B tiles (As[64][40], Bs[32][72]) filled once, then
//        per trip the two 16-k steps of cp (2 + 2 load_matrix_sync and 4 mma_sync each
//        warp), with (bar=1) or without (bar=0) a __syncthreads per trip; warp w works on
//        sub-tile (w/2 % 2, w % 2); 1, 2 or 4 warps a block, 1, 2, 4, 8 blocks per SM.
// Side table mmasmem_cycles.csv as bench_tiles3's: per row the medians over blocks of
// the cycles per trip of each phase (load, bar1, comp, bar2) and of the whole loop. On
// sm_90 a barrier's wait shows in the phase after it (BAR.SYNC.DEFER_BLOCKING).
// The cp and sq rows time k_cp without its stamps (STAMP 0) and take the side table
// from one more launch with them (STAMP 1, behind its own flush): the stamps' live
// registers change the copy's SASS, ptxas keeping about 2 copies' loads ahead of their
// stores with them (k_cp<4, 32, ur, none>: LDG LDG STS LDG STS ...) and 10 without.
// Runs before 2026-12-07 (run10) timed the stamped kernel.
//
// usage: bench_mmasmem OUT.csv CYCLES.csv [device]
#include <cuda_fp16.h>
#include <mma.h>

#include "common.cuh"

using namespace nvcuda;

__host__ __device__ inline float va(size_t m, size_t k) { return float((m + 2 * k) % 4); }
__host__ __device__ inline float vb(size_t k, size_t n) { return float((3 * k + n) % 5); }

static const int kPhases = kTilePhases;  // load, barrier, compute, barrier, whole loop

// The type that moves w bytes.
template <int W> struct Cp;
template <> struct Cp<2> { typedef unsigned short T; };
template <> struct Cp<4> { typedef unsigned int T; };
template <> struct Cp<8> { typedef uint2 T; };
template <> struct Cp<16> { typedef uint4 T; };

enum { F_LP = 0, F_UR = 1 };

// Block tile 64x64 at rows row0.. of A (lda) and columns col0.. of B (ldb); the
// result tile goes to Cb (ldc). sq: row0 = blockIdx.y*64, else blockIdx.x*64.
template <int W, int BK, int FORM, int FULL, int STAMP>
__global__ void __launch_bounds__(128)
    k_cp(const __half *__restrict__ A, const __half *__restrict__ B, float *__restrict__ C,
         int K, int lda, int ldb, int sq, long long *cyc, int cs) {
  typedef typename Cp<W>::T T;
  constexpr int E = W / 2;                      // halves per copy
  constexpr int AP = BK + 8, BP = 72;
  constexpr int NA = 64 * BK / E;               // copies of a tile (A and B alike)
  __shared__ __align__(32) __half As[64][AP];
  __shared__ __align__(32) __half Bs[BK][BP];
  const int tid = threadIdx.x, warp = tid / 32, wy = warp / 2, wx = warp % 2;
  const int b = blockIdx.y * gridDim.x + blockIdx.x;
  const int row0 = (sq ? blockIdx.y : blockIdx.x) * 64, col0 = blockIdx.x * 64;
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
    if (FORM == F_LP) {
      for (int i = tid; i < NA; i += 128) {
        int r = i / (BK / E), cc = i % (BK / E);
        *(T *)&As[r][cc * E] = *(const T *)&A[(size_t)(row0 + r) * lda + k0 + cc * E];
      }
      for (int i = tid; i < NA; i += 128) {
        int r = i / (64 / E), cc = i % (64 / E);
        *(T *)&Bs[r][cc * E] = *(const T *)&B[(size_t)(k0 + r) * ldb + col0 + cc * E];
      }
    } else {
#pragma unroll
      for (int j = 0; j < NA / 128; ++j) {
        int i = tid + 128 * j, r = i / (BK / E), cc = i % (BK / E);
        *(T *)&As[r][cc * E] = *(const T *)&A[(size_t)(row0 + r) * lda + k0 + cc * E];
      }
#pragma unroll
      for (int j = 0; j < NA / 128; ++j) {
        int i = tid + 128 * j, r = i / (64 / E), cc = i % (64 / E);
        *(T *)&Bs[r][cc * E] = *(const T *)&B[(size_t)(k0 + r) * ldb + col0 + cc * E];
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
    const int ldc = sq ? lda : 64;
    float *Cb = sq ? C + (size_t)row0 * ldc + col0 : C + (size_t)b * 64 * 64;
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::store_matrix_sync(Cb + (size_t)(wy * 32 + i * 16) * ldc + wx * 32 + j * 16,
                                c[i][j], ldc, wmma::mem_row_major);
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

// A: rows x K row-major, A(m, k) = va; B: K x cols row-major, B(k, n) = vb.
__global__ void k_fill(__half *A, __half *B, int rows, int K, int cols) {
  size_t na = (size_t)rows * K, nb = (size_t)K * cols;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < na || i < nb;
       i += (size_t)gridDim.x * blockDim.x) {
    if (i < na) A[i] = __float2half(va(i / K, i % K));
    if (i < nb) B[i] = __float2half(vb(i / cols, i % cols));
  }
}

// ---------------------------------------------------------------- (mc) compute alone
template <int NW, int BAR>
__global__ void __launch_bounds__(NW * 32)
    k_mc(float *__restrict__ C, int trips, long long *cyc, int cs) {
  constexpr int AP = 40, BP = 72, BK = 32;
  __shared__ __align__(32) __half As[64][AP];
  __shared__ __align__(32) __half Bs[BK][BP];
  const int tid = threadIdx.x, warp = tid / 32, wy = (warp / 2) % 2, wx = warp % 2;
  const int b = blockIdx.x;
  for (int i = tid; i < 64 * BK; i += NW * 32) {
    As[i / BK][i % BK] = __float2half(va(i / BK, i % BK));
    Bs[i / 64][i % 64] = __float2half(vb(i / 64, i % 64));
  }
  __syncthreads();
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2][2];
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(c[i][j], 0.0f);
  long long d2 = 0, d3 = 0;
  const long long ts = clock64();
  for (int t = 0; t < trips; ++t) {
    const long long t2 = clock64();
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
    const long long t3 = clock64();
    if (BAR) __syncthreads();
    const long long t4 = clock64();
    d2 += t3 - t2;
    d3 += t4 - t3;
  }
  const long long te = clock64();
  float *Cb = C + ((size_t)b * NW + warp) * 32 * 32;
#pragma unroll
  for (int i = 0; i < 2; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(Cb + (i * 16) * 32 + j * 16, c[i][j], 32, wmma::mem_row_major);
  if (tid == 0) {
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

typedef void (*cp_t)(const __half *, const __half *, float *, int, int, int, int, long long *,
                     int);
struct CV {
  const char *name;
  int w, bk, form, full;
  cp_t k, ks;  // timed (no stamps) and stamped (the side table's launch)
};
#define CVF(w, bk, f, fn, full, fullname)                                                   \
  {"cp" #bk "_w" #w "_" #fn "_" fullname, w, bk, f, full, k_cp<w, bk, f, full, 0>,        \
   k_cp<w, bk, f, full, 1>}
#define CV4(w, bk)                                                                          \
  CVF(w, bk, F_LP, lp, 1, "mma"), CVF(w, bk, F_LP, lp, 0, "none"),                          \
      CVF(w, bk, F_UR, ur, 1, "mma"), CVF(w, bk, F_UR, ur, 0, "none")

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,load,bar1,comp,bar2,loop_median,loop_min,"
      "loop_max,loop_per_trip\n");
  const int sms = b.sm_count;
  const int kCs = 1 << 16;  // blocks per phase slot of cyc
  long long *cyc;
  CK(cudaMalloc(&cyc, (size_t)kPhases * kCs * sizeof(long long)));
  CK(cudaMemset(cyc, 0, (size_t)kPhases * kCs * sizeof(long long)));

  const int Kd = 512;
  const size_t maxEl = std::max<size_t>((size_t)6 * sms * 64 * Kd, (size_t)2048 * 2048);
  __half *A, *B;
  float *C;
  CK(cudaMalloc(&A, maxEl * sizeof(__half)));
  CK(cudaMalloc(&B, maxEl * sizeof(__half)));
  CK(cudaMalloc(&C, std::max<size_t>((size_t)8 * sms * 4 * 1024, (size_t)2048 * 2048) *
                        sizeof(float)));

  // (cp) the copy widths on own panels
  {
    const CV vs[] = {CV4(2, 16), CV4(4, 16), CV4(8, 16), CV4(16, 16),
                     CV4(2, 32), CV4(4, 32), CV4(8, 32), CV4(16, 32)};
    for (const CV &v : vs)
      for (int G : {sms, 4 * sms, 6 * sms}) {
        const int K = Kd, BK = v.bk;
        Row r;
        r.family = "mmasmem";
        r.name = v.name;
        r.params = "blocks=" + std::to_string(G) + " k=" + std::to_string(K);
        row_shape(r, v.k, dim3(G), dim3(128), 0);
        if (r.blocks_per_sm * sms < G) {
          fprintf(stderr, "  skip %s %s: %lld blocks per SM\n", r.name.c_str(),
                  r.params.c_str(), r.blocks_per_sm);
          continue;
        }
        const int rows = G * 64;
        k_fill<<<2048, 256>>>(A, B, rows, K, rows);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        cp_t kf = v.k, ks = v.ks;
        r.t = time_case(b, kReps, true, [&] {
          kf<<<G, 128, 0, b.stream>>>(A, B, C, K, K, rows, 0, cyc, kCs);
        });
        // the side table's launch, stamped, behind its own flush
        profile_case(b, [&] { ks<<<G, 128, 0, b.stream>>>(A, B, C, K, K, rows, 0, cyc, kCs); });
        r.bytes = (size_t)G * 2 * 64 * K * sizeof(__half);
        r.flops = v.full ? 2ull * G * 64 * 64 * K : 2ull * G * 128 * (K / BK);
        emit(b, r);
        emit_phase_cycles(g_cyc, r, cyc, kCs, G, K / BK);
        if (v.full) {
          std::vector<float> h = to_host(C, (size_t)G * 64 * 64);
          for (int q = 0; q < 256; ++q) {
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
            REQUIRE(h[e] == (float)want, "%s %s: out[%zu] = %g, expected %g", r.name.c_str(),
                    r.params.c_str(), e, h[e], want);
          }
        }
      }
  }

  // (sq) whole square GEMMs, BK = 32
  {
    const CV vs[] = {CVF(2, 32, F_LP, lp, 1, "mma"),  CVF(4, 32, F_LP, lp, 1, "mma"),
                     CVF(8, 32, F_LP, lp, 1, "mma"),  CVF(16, 32, F_LP, lp, 1, "mma"),
                     CVF(2, 32, F_UR, ur, 1, "mma"),  CVF(4, 32, F_UR, ur, 1, "mma"),
                     CVF(8, 32, F_UR, ur, 1, "mma"),  CVF(16, 32, F_UR, ur, 1, "mma")};
    for (const CV &v : vs)
      for (int n : {512, 1024, 2048}) {
        Row r;
        r.family = "mmasmem";
        r.name = std::string("sq") + (v.name + 4);  // "sq_w2_lp_mma"
        r.params = "n=" + std::to_string(n);
        dim3 g(n / 64, n / 64);
        row_shape(r, v.k, g, dim3(128), 0);
        k_fill<<<2048, 256>>>(A, B, n, n, n);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        cp_t kf = v.k, ks = v.ks;
        r.t = time_case(b, kReps, true, [&] {
          kf<<<g, 128, 0, b.stream>>>(A, B, C, n, n, n, 1, cyc, kCs);
        });
        profile_case(b, [&] { ks<<<g, 128, 0, b.stream>>>(A, B, C, n, n, n, 1, cyc, kCs); });
        r.bytes = (size_t)n * n * (2 + 2 + 4);
        r.flops = 2ull * n * n * n;
        emit(b, r);
        emit_phase_cycles(g_cyc, r, cyc, kCs, (long long)g.x * g.y, n / 32);
        std::vector<float> h = to_host(C, (size_t)n * n);
        for (int q = 0; q < 256; ++q) {
          size_t e = ((size_t)q * 7919 * 104729) % ((size_t)n * n);
          size_t rr = e / n, cc = e % n;
          double want = 0;
          for (int k = 0; k < n; ++k) want += (double)va(rr, k) * vb(k, cc);
          REQUIRE(h[e] == (float)want, "%s %s: C[%zu] = %g, expected %g", r.name.c_str(),
                  r.params.c_str(), e, h[e], want);
        }
      }
  }

  // (mc) the WMMA compute alone
  {
    typedef void (*mc_t)(float *, int, long long *, int);
    struct MV {
      const char *name;
      int nw;
      mc_t k;
    };
    const MV vs[] = {{"mc_w1_bar0", 1, k_mc<1, 0>}, {"mc_w2_bar0", 2, k_mc<2, 0>},
                     {"mc_w4_bar0", 4, k_mc<4, 0>}, {"mc_w1_bar1", 1, k_mc<1, 1>},
                     {"mc_w2_bar1", 2, k_mc<2, 1>}, {"mc_w4_bar1", 4, k_mc<4, 1>}};
    const int trips = 256;
    for (const MV &v : vs)
      for (int q : {1, 2, 4, 8}) {
        const int G = q * sms;
        Row r;
        r.family = "mmasmem";
        r.name = v.name;
        r.params = "blocks=" + std::to_string(G) + " trips=" + std::to_string(trips);
        row_shape(r, v.k, dim3(G), dim3(v.nw * 32), 0);
        if (r.blocks_per_sm * sms < G) {
          fprintf(stderr, "  skip %s %s\n", r.name.c_str(), r.params.c_str());
          continue;
        }
        mc_t kf = v.k;
        const int T = v.nw * 32;
        r.t = time_case(b, kReps, false,
                        [&] { kf<<<G, T, 0, b.stream>>>(C, trips, cyc, kCs); });
        r.bytes = (size_t)G * v.nw * 32 * 32 * 4;
        r.flops = 2ull * G * v.nw * 32 * 32 * 32 * trips;
        emit(b, r);
        emit_phase_cycles(g_cyc, r, cyc, kCs, G, trips);
        std::vector<float> h = to_host(C, (size_t)G * v.nw * 1024);
        for (size_t e = 0; e < h.size(); e += 101) {
          size_t w = (e / 1024) % v.nw, rr = (e % 1024) / 32, cc = e % 32;
          size_t row = ((w / 2) % 2) * 32 + rr, col = (w % 2) * 32 + cc;
          double want = 0;
          for (int kk = 0; kk < 32; ++kk) want += (double)va(row, kk) * vb(kk, col);
          want *= trips;
          REQUIRE(h[e] == (float)want, "%s %s: C[%zu] = %g, expected %g", r.name.c_str(),
                  r.params.c_str(), e, h[e], want);
        }
      }
  }

  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  CK(cudaFree(cyc));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
