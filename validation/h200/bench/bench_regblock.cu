// bench_regblock.cu - register-blocked SGEMM by phase (family `regblock`): C = A B, n x n
// fp32 row-major, 16x16 threads, block tile BM x BN = 16 TM x 16 TN, micro-tile TM x TN
// = 4x4 (64x64 tile) or 8x8 (128x128), K step BK = 8 or 16 (Volkov & Demmel 2008; the
// outer product of the CUTLASS SGEMM): per step the block copies A's BM x BK slice into
// As[k][m] and B's BK x BN slice into Bs[k][n], barrier, then for kk < BK each thread
// reads As[kk][ty TM ..] and Bs[kk][tx TN ..] into registers and does TM TN FMAs,
// barrier. n = 512..4096 (the grid is (n/BN) x (n/BM): blocks share their panels of A
// and B through L2); the L2 is flushed before every repetition.
//   ld  how the tiles reach shared memory:
//       rt  A row-major, `for (i = tid; i < BM*BK; i += 256)` loops, As[c][r] =
//           A[(row0 + r) n + k0 + c] (r = i / BK, c = i % BK: transposed into shared
//           memory) and Bs[r][c] = B[(k0 + r) n + col0 + c] (coalesced), one float each;
//       f4  A row-major read as float4 along k (4 consecutive k of one row) and stored
//           as 4 floats into As[c..c+3][r]; B read and stored as float4;
//       at  A given transposed (At[k][m], as B): float4 loads and float4 stores of both.
//   mode
//       full   the whole kernel;
//       load   the tile copies and the barriers; the compute replaced by one shared
//              word of each tile read and added per step;
//       comp   the tiles copied once before the loop, then per step: barrier, the
//              outer products, barrier (no global loads in the loop);
//       compnb the same without the two barriers (a compiler memory fence per step
//              keeps the shared loads in the loop).
// Side table regblock_cycles.csv: per row the medians over blocks of the clock64 cycles
// per step of each phase (load, barrier, compute, barrier; thread 0 of each block) and
// of the whole loop. On sm_90 BAR.SYNC.DEFER_BLOCKING blocks at the warp's next memory
// instruction, so each barrier's wait shows in the phase after it (bar1 in comp, bar2
// in the next step's load); the whole loop per step is exact.
// The rows time k_rb without its stamps (STAMP 0) and take the side table from one
// more launch with them (STAMP 1, behind its own flush, as the timed repetitions are
// cold): the stamps' live registers change the kernel's SASS (nvcc 13.0, sm_90,
// registers stamped -> without: rt/f4/at load 32/32/48 -> 40/44/40, f4 load spilling
// 8-12 bytes stamped; t4 comp 39 -> 32, t8 comp 127 -> 105; t4 at full 64 -> 48) and
// how many of a tile copy's loads ptxas keeps ahead of their shared stores (rt load:
// at most 2 LDGs before an STS stamped, 3 without; f4 load 1 and 2).
// Runs before 2026-12-07 timed the stamped kernels.
//
// usage: bench_regblock OUT.csv CYCLES.csv [device]
#include "common.cuh"

__host__ __device__ inline float va(size_t m, size_t k) { return float((m + 2 * k) % 4); }
__host__ __device__ inline float vb(size_t k, size_t n) { return float((3 * k + n) % 5); }

enum { LD_RT = 0, LD_F4 = 1, LD_AT = 2 };
enum { M_FULL = 0, M_LOAD = 1, M_COMP = 2, M_COMPNB = 3 };
static const char *kLdName[3] = {"rt", "f4", "at"};
static const char *kModeName[4] = {"full", "load", "comp", "compnb"};

template <int BM, int BN, int BK, int LD>
__device__ __forceinline__ void copy_tiles(float (*As)[BM], float (*Bs)[BN],
                                           const float *__restrict__ A,
                                           const float *__restrict__ B, int n, int row0,
                                           int col0, int k0, int tid) {
  if (LD == LD_RT) {
    for (int i = tid; i < BM * BK; i += 256) {
      int r = i / BK, c = i % BK;
      As[c][r] = A[(size_t)(row0 + r) * n + k0 + c];
    }
    for (int i = tid; i < BK * BN; i += 256) {
      int r = i / BN, c = i % BN;
      Bs[r][c] = B[(size_t)(k0 + r) * n + col0 + c];
    }
  } else if (LD == LD_F4) {
    for (int i = tid; i < BM * BK / 4; i += 256) {
      int r = i / (BK / 4), c = 4 * (i % (BK / 4));
      float4 v = *(const float4 *)&A[(size_t)(row0 + r) * n + k0 + c];
      As[c][r] = v.x;
      As[c + 1][r] = v.y;
      As[c + 2][r] = v.z;
      As[c + 3][r] = v.w;
    }
    for (int i = tid; i < BK * BN / 4; i += 256) {
      int r = i / (BN / 4), c = 4 * (i % (BN / 4));
      *(float4 *)&Bs[r][c] = *(const float4 *)&B[(size_t)(k0 + r) * n + col0 + c];
    }
  } else {
    for (int i = tid; i < BK * BM / 4; i += 256) {
      int c = i / (BM / 4), r = 4 * (i % (BM / 4));
      *(float4 *)&As[c][r] = *(const float4 *)&A[(size_t)(k0 + c) * n + row0 + r];
    }
    for (int i = tid; i < BK * BN / 4; i += 256) {
      int r = i / (BN / 4), c = 4 * (i % (BN / 4));
      *(float4 *)&Bs[r][c] = *(const float4 *)&B[(size_t)(k0 + r) * n + col0 + c];
    }
  }
}

template <int TM, int BK, int LD, int MODE, int STAMP>
__global__ void __launch_bounds__(256)
    k_rb(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int n,
         long long *cyc, int cs) {
  constexpr int TN = TM, BM = 16 * TM, BN = 16 * TN;
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BN];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0.f;
  if (MODE == M_COMP || MODE == M_COMPNB) {
    copy_tiles<BM, BN, BK, LD>(As, Bs, A, B, n, row0, col0, 0, tid);
    __syncthreads();
  }
  long long d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  const long long ts = stamp_clock<STAMP>();
  for (int k0 = 0; k0 < n; k0 += BK) {
    const long long t0 = stamp_clock<STAMP>();
    if (MODE == M_FULL || MODE == M_LOAD)
      copy_tiles<BM, BN, BK, LD>(As, Bs, A, B, n, row0, col0, k0, tid);
    const long long t1 = stamp_clock<STAMP>();
    if (MODE != M_COMPNB) __syncthreads();
    else asm volatile("" ::: "memory");
    const long long t2 = stamp_clock<STAMP>();
    if (MODE == M_LOAD) {
      acc[0][0] += As[0][tid % BM] + Bs[0][tid % BN];
    } else {
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        float a[TM], b[TN];
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
        for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx * TN + j];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
      }
    }
    const long long t3 = stamp_clock<STAMP>();
    if (MODE != M_COMPNB) __syncthreads();
    else asm volatile("" ::: "memory");
    const long long t4 = stamp_clock<STAMP>();
    d0 += t1 - t0;
    d1 += t2 - t1;
    d2 += t3 - t2;
    d3 += t4 - t3;
  }
  const long long te = stamp_clock<STAMP>();
  const int blk = blockIdx.y * gridDim.x + blockIdx.x;
  if (MODE == M_LOAD) {
    C[(size_t)blk * 256 + tid] = acc[0][0];
  } else {
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TN; ++j)
        C[(size_t)(row0 + ty * TM + i) * n + col0 + tx * TN + j] = acc[i][j];
  }
  if (STAMP && tid == 0) {
    cyc[0 * cs + blk] = d0;
    cyc[1 * cs + blk] = d1;
    cyc[2 * cs + blk] = d2;
    cyc[3 * cs + blk] = d3;
    cyc[4 * cs + blk] = te - ts;
  }
}

// A (row-major, or At when at: A[k][m] at k n + m) and B (row-major), n x n.
__global__ void k_rb_fill(float *A, float *B, int n, int at) {
  size_t nn = (size_t)n * n;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nn;
       i += (size_t)gridDim.x * blockDim.x) {
    size_t r = i / n, c = i % n;
    A[i] = at ? va(c, r) : va(r, c);
    B[i] = vb(r, c);
  }
}

typedef void (*rb_t)(const float *, const float *, float *, int, long long *, int);

struct K {
  int tm, bk, ld, mode;
  rb_t k, ks;  // timed (no stamps) and stamped (the side table's launch)
};

#define RBV(TM, BK, LD, MODE) \
  {TM, BK, LD, MODE, k_rb<TM, BK, LD, MODE, 0>, k_rb<TM, BK, LD, MODE, 1>}
#define RB4(TM, BK, LD) RBV(TM, BK, LD, M_FULL), RBV(TM, BK, LD, M_LOAD)
#define RBC(TM, BK) RBV(TM, BK, LD_RT, M_COMP), RBV(TM, BK, LD_RT, M_COMPNB)

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,load,bar1,comp,bar2,loop_median,loop_min,"
      "loop_max,loop_per_trip\n");
  const int kCs = 1 << 13;
  const int kReps = 5;
  long long *cyc;
  CK(cudaMalloc(&cyc, (size_t)kTilePhases * kCs * sizeof(long long)));
  const K vs[] = {RB4(4, 8, LD_RT),  RB4(4, 8, LD_F4),  RB4(4, 8, LD_AT),  RB4(4, 16, LD_RT),
                  RB4(4, 16, LD_F4), RB4(4, 16, LD_AT), RB4(8, 8, LD_RT),  RB4(8, 8, LD_F4),
                  RB4(8, 8, LD_AT),  RB4(8, 16, LD_RT), RB4(8, 16, LD_F4), RB4(8, 16, LD_AT),
                  RBC(4, 8),         RBC(4, 16),        RBC(8, 8),         RBC(8, 16)};
  const int nk = sizeof(vs) / sizeof(vs[0]);
  const int nmax = 4096;
  float *A, *B, *C;
  CK(cudaMalloc(&A, (size_t)nmax * nmax * sizeof(float)));
  CK(cudaMalloc(&B, (size_t)nmax * nmax * sizeof(float)));
  CK(cudaMalloc(&C, (size_t)nmax * nmax * sizeof(float)));
  for (int n : {512, 1024, 2048, 4096})
    for (int at = 0; at <= 1; ++at) {
      k_rb_fill<<<2048, 256>>>(A, B, n, at);
      CK_LAUNCH();
      CK(cudaDeviceSynchronize());
      for (int q = 0; q < nk; ++q) {
        const K &k = vs[q];
        if ((k.ld == LD_AT) != (at == 1)) continue;
        const int BM = 16 * k.tm;
        dim3 grid(n / BM, n / BM), block(16, 16);
        const long long blocks = (long long)grid.x * grid.y;
        REQUIRE(blocks <= kCs, "too many blocks");
        Row r;
        r.family = "regblock";
        r.name = std::string("t") + std::to_string(k.tm) + "_bk" + std::to_string(k.bk) + "_" +
                 (k.mode == M_COMP || k.mode == M_COMPNB ? "" : std::string(kLdName[k.ld]) + "_") +
                 kModeName[k.mode];
        r.params = "n=" + std::to_string(n) + " tile=" + std::to_string(BM) + "x" +
                   std::to_string(BM) + " thread=" + std::to_string(k.tm) + "x" +
                   std::to_string(k.tm) + " bk=" + std::to_string(k.bk) + " block=16x16";
        row_shape(r, k.k, grid, block, 0);
        CK(cudaMemset(C, 0, (size_t)n * n * sizeof(float)));
        r.t = time_case(b, kReps, true,
                        [&] { k.k<<<grid, block, 0, b.stream>>>(A, B, C, n, cyc, kCs); });
        // the side table's launch, stamped, behind its own flush
        profile_case(b, [&] { k.ks<<<grid, block, 0, b.stream>>>(A, B, C, n, cyc, kCs); });
        const bool loads = k.mode == M_FULL || k.mode == M_LOAD;
        r.bytes = loads ? 12ull * n * n : 4ull * n * n;
        r.flops = k.mode == M_LOAD ? 2ull * blocks * 256 * (n / k.bk) : 2ull * n * n * n;
        emit(b, r);
        emit_phase_cycles(side, r, cyc, kCs, blocks, n / k.bk);
        // checks
        if (k.mode == M_LOAD) {
          std::vector<float> h = to_host(C, (size_t)blocks * 256);
          for (size_t e = 0; e < h.size(); e += 97) {
            size_t blk = e / 256, tid = e % 256, by = blk / grid.x, bx = blk % grid.x;
            double want = 0;
            for (int k0 = 0; k0 < n; k0 += k.bk)
              want += (double)va(by * BM + tid % BM, k0) + vb(k0, bx * BM + tid % BM);
            REQUIRE(h[e] == (float)want, "%s %s: out[%zu] = %g, expected %g", r.name.c_str(),
                    r.params.c_str(), e, h[e], want);
          }
        } else {
          std::vector<float> h = to_host(C, (size_t)n * n);
          for (int s = 0; s < 256; ++s) {
            size_t e = ((size_t)s * 7919 * 104729 + 13) % ((size_t)n * n);
            size_t rr = e / n, cc = e % n;
            double want = 0;
            if (k.mode == M_FULL) {
              for (int kk = 0; kk < n; ++kk) want += (double)va(rr, kk) * vb(kk, cc);
            } else {
              for (int kk = 0; kk < k.bk; ++kk) want += (double)va(rr, kk) * vb(kk, cc);
              want *= n / k.bk;
            }
            REQUIRE(h[e] == (float)want, "%s %s: C[%zu] = %g, expected %g", r.name.c_str(),
                    r.params.c_str(), e, h[e], want);
          }
        }
      }
    }
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  CK(cudaFree(cyc));
  fclose(side);
  bench_close(b);
  return 0;
}
