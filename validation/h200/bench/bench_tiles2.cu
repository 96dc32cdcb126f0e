// bench_tiles2.cu - where the cycles of a shared-memory tiled loop go (family `tiles2`):
// clock64 stamps around each phase of every trip (thread 0 of each block): (a) the
// global -> shared tile load (the loads and their shared stores), (b) the barrier after
// it, (c) the compute from shared memory, (d) the barrier after that. Grids under one
// wave (16, 64, 132 blocks: one block per SM; 264, 528: 2 and 4 per SM; the tile kernels
// are compiled for 2 blocks of 256 threads per SM, __launch_bounds__(256, 2)), every block on
// its own panels of A and B (no block re-reads another's data), so `data=dram` (L2
// flushed before every repetition) fetches every tile from DRAM and `data=l2` (a
// footprint of at most 24 MiB, read again by every warm repetition) from L2.
//   tile     C_b = A_b B_b for block b: A_b BM x K, B_b K x BM, BK = 8, 256 threads.
//            shape g64: 64x64 tile, 4x4 outputs per thread; g128: 128x128, 8x8.
//            ld = how the A and B tiles reach As[k][m] and Bs[k][n]:
//              rt  A row-major, the copy loops `for (i = tid; i < BM*BK; i += 256)`
//                  with As[c][r] = A[(row0 + r) K + k0 + c] (r = i / BK, c = i % BK:
//                  a warp reads 4 rows x 32 bytes, its stores 8-way bank conflicts) and
//                  Bs[r][c] = B[..] (coalesced): a loop whose trip count nvcc does
//                  not know, BM*BK/256 loads per thread and matrix;
//              un  the same copy with the count known (#pragma unroll over tid + 256 j);
//              co  A given transposed (At[k][m]): coalesced loads and conflict-free
//                  stores, unrolled;
//              f4  A given transposed, one float4 load and store per thread and matrix
//                  (g128; g64: the first 128 threads).
//            comp = full (the register-blocked outer product over the BK k steps: As
//            and Bs words as in a hand-written SGEMM) or none (one shared word read
//            and added per trip: the load phase and the barriers alone).
//   ldloop   per trip a block copies L x 256 consecutive floats into shared memory
//            (L = 1..16 per thread), __syncthreads, reads one word, __syncthreads:
//            u=0 the loop `for (i = tid; i < L*256; i += 256)`, u=1 unrolled.
//   stencil  the 5-point stencil staged in shared memory with a one-point halo, each
//            load bounds-checked, the halo loads in their own `if (threadIdx.x == 0)`
//            branches (hoist=0), or all five values loaded (predicated) before any
//            store (hoist=1); stamps: centre+halo load, barrier, compute+store.
// Side table tiles2_cycles.csv: per row the medians over blocks of the cycles per trip
// of each phase, and of the whole loop (median, min, max). On sm_90 the barrier is
// BAR.SYNC.DEFER_BLOCKING: the warp blocks at its next memory instruction, not at the
// clock read after it, so each barrier's wait shows in the phase after it (bar1 in
// comp, bar2 in the next trip's load); the whole loop per trip is exact.
// The rows time the kernels without their stamps (STAMP 0) and take the side table from
// one more launch with them (STAMP 1): behind its own flush where the timing is cold
// (data=dram, stencil), on the L2 the timed repetitions left where it is warm (data=l2).
// The stamps' live registers and clock reads change the SASS: without them more of a
// copy's loads go ahead of their shared stores, in the unrolled copies those of later
// trips across the barriers too (ldloop_l1_un: 10 loads before the first store, 1 with
// the stamps; g128_f4_none: 18, 2 with them, and 128 registers, 42 with them), and
// g64_rt_none (64 registers, 66 with them) fits 4 blocks per SM, 3 with them.
// Runs before 2026-12-07 timed the stamped kernels.
//
// usage: bench_tiles2 OUT.csv CYCLES.csv [device]
#include "common.cuh"

__host__ __device__ inline float va(size_t m, size_t k) { return float((m + 2 * k) % 4); }
__host__ __device__ inline float vb(size_t k, size_t n) { return float((3 * k + n) % 5); }

enum { LD_RT = 0, LD_UN = 1, LD_CO = 2, LD_F4 = 3 };
static const int kPhases = kTilePhases;  // load, barrier, compute, barrier, whole loop

// ---------------------------------------------------------------- (a) tile
// Block b owns rows b*BM.. of A (row-major P*BM x K; ld rt/un) or of At (K x P*BM;
// co/f4) and columns b*BM.. of B (K x P*BM); P = gridDim.x.
template <int BM, int TM, int LD, int FULL, int STAMP>
__global__ void __launch_bounds__(256, 2)
    k_tile(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
           int K, long long *cyc, int cs) {
  constexpr int BK = 8, T = 256, TX = BM / TM;
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BM];
  const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
  const int b = blockIdx.x;
  const size_t ld = (size_t)gridDim.x * BM;  // row length of At and B
  const int row0 = b * BM, col0 = b * BM;
  float acc[TM][TM];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TM; ++j) acc[i][j] = 0.f;
  long long d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  const long long ts = stamp_clock<STAMP>();
  for (int k0 = 0; k0 < K; k0 += BK) {
    const long long t0 = stamp_clock<STAMP>();
    if (LD == LD_RT) {
      for (int i = tid; i < BM * BK; i += 256) {
        int r = i / BK, c = i % BK;
        As[c][r] = A[(size_t)(row0 + r) * K + k0 + c];
      }
      for (int i = tid; i < BK * BM; i += 256) {
        int r = i / BM, c = i % BM;
        Bs[r][c] = B[(size_t)(k0 + r) * ld + col0 + c];
      }
    } else if (LD == LD_UN) {
#pragma unroll
      for (int j = 0; j < BM * BK / T; ++j) {
        int i = tid + T * j, r = i / BK, c = i % BK;
        As[c][r] = A[(size_t)(row0 + r) * K + k0 + c];
      }
#pragma unroll
      for (int j = 0; j < BM * BK / T; ++j) {
        int i = tid + T * j, r = i / BM, c = i % BM;
        Bs[r][c] = B[(size_t)(k0 + r) * ld + col0 + c];
      }
    } else if (LD == LD_CO) {
#pragma unroll
      for (int j = 0; j < BM * BK / T; ++j) {
        int i = tid + T * j, c = i / BM, r = i % BM;
        As[c][r] = A[(size_t)(k0 + c) * ld + row0 + r];
      }
#pragma unroll
      for (int j = 0; j < BM * BK / T; ++j) {
        int i = tid + T * j, r = i / BM, c = i % BM;
        Bs[r][c] = B[(size_t)(k0 + r) * ld + col0 + c];
      }
    } else {
      constexpr int Q = BM * BK / 4;  // float4 of a tile
#pragma unroll
      for (int j = 0; j < (Q + T - 1) / T; ++j) {
        int i = tid + T * j;
        if (Q >= T || i < Q) {
          int c = 4 * i / BM, r = 4 * i % BM;
          *(float4 *)&As[c][r] = *(const float4 *)&A[(size_t)(k0 + c) * ld + row0 + r];
          *(float4 *)&Bs[c][r] = *(const float4 *)&B[(size_t)(k0 + c) * ld + col0 + r];
        }
      }
    }
    const long long t1 = stamp_clock<STAMP>();
    __syncthreads();
    const long long t2 = stamp_clock<STAMP>();
    if (FULL) {
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
    } else {
      acc[0][0] += As[0][tid % BM] + Bs[0][tid % BM];
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
    float *Cb = C + (size_t)b * BM * BM;
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TM; ++j) Cb[(ty * TM + i) * BM + tx * TM + j] = acc[i][j];
  } else {
    C[(size_t)b * T + tid] = acc[0][0];
  }
  if (STAMP && tid == 0) {
    cyc[0 * cs + b] = d0;
    cyc[1 * cs + b] = d1;
    cyc[2 * cs + b] = d2;
    cyc[3 * cs + b] = d3;
    cyc[4 * cs + b] = te - ts;
  }
}

// Fill A (row-major P*BM x K, or At: K x P*BM) and B (K x P*BM).
__global__ void k_tile_fill(float *A, float *B, int rows, int K, int at) {
  size_t n = (size_t)rows * K;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    size_t m = i / K, k = i % K;  // A(m, k)
    if (at) A[k * rows + m] = va(m, k);
    else A[i] = va(m, k);
    size_t kk = i / rows, nn = i % rows;  // B(kk, nn)
    B[i] = vb(kk, nn);
  }
}

// ---------------------------------------------------------------- (b) ldloop
template <int L, int UN, int STAMP>
__global__ void __launch_bounds__(256)
    k_ldloop(const float *__restrict__ X, float *__restrict__ out, int trips, long long *cyc,
             int cs) {
  __shared__ float s[L * 256];
  const int tid = threadIdx.x, b = blockIdx.x;
  const float *base = X + (size_t)b * trips * L * 256;
  float acc = 0.f;
  long long d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  const long long ts = stamp_clock<STAMP>();
  for (int t = 0; t < trips; ++t) {
    const float *p = base + (size_t)t * L * 256;
    const long long t0 = stamp_clock<STAMP>();
    if (UN) {
#pragma unroll
      for (int j = 0; j < L; ++j) s[tid + 256 * j] = p[tid + 256 * j];
    } else {
      for (int i = tid; i < L * 256; i += 256) s[i] = p[i];
    }
    const long long t1 = stamp_clock<STAMP>();
    __syncthreads();
    const long long t2 = stamp_clock<STAMP>();
    acc += s[(tid * 33) % (L * 256)];
    const long long t3 = stamp_clock<STAMP>();
    __syncthreads();
    const long long t4 = stamp_clock<STAMP>();
    d0 += t1 - t0;
    d1 += t2 - t1;
    d2 += t3 - t2;
    d3 += t4 - t3;
  }
  const long long te = stamp_clock<STAMP>();
  out[(size_t)b * 256 + tid] = acc;
  if (STAMP && tid == 0) {
    cyc[0 * cs + b] = d0;
    cyc[1 * cs + b] = d1;
    cyc[2 * cs + b] = d2;
    cyc[3 * cs + b] = d3;
    cyc[4 * cs + b] = te - ts;
  }
}

// ---------------------------------------------------------------- (c) stencil
static const float kC0 = 0.5f, kC1 = 0.125f;

template <int BX, int BY, int HOIST, int STAMP>
__global__ void __launch_bounds__(BX *BY)
    k_st(const float *__restrict__ in, float *__restrict__ out, int n, long long *cyc, int cs) {
  __shared__ float t[BY + 2][BX + 2];
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  auto ld = [&](int xx, int yy) {
    return (xx >= 0 && xx < n && yy >= 0 && yy < n) ? in[(size_t)yy * n + xx] : 0.0f;
  };
  const long long t0 = stamp_clock<STAMP>();
  if (HOIST) {
    const bool l = threadIdx.x == 0, r = threadIdx.x == BX - 1, u = threadIdx.y == 0,
               d = threadIdx.y == BY - 1;
    float vc = ld(x, y), vl = l ? ld(x - 1, y) : 0.f, vr = r ? ld(x + 1, y) : 0.f,
          vu = u ? ld(x, y - 1) : 0.f, vd = d ? ld(x, y + 1) : 0.f;
    t[ty][tx] = vc;
    if (l) t[ty][0] = vl;
    if (r) t[ty][BX + 1] = vr;
    if (u) t[0][tx] = vu;
    if (d) t[BY + 1][tx] = vd;
  } else {
    t[ty][tx] = ld(x, y);
    if (threadIdx.x == 0) t[ty][0] = ld(x - 1, y);
    if (threadIdx.x == BX - 1) t[ty][BX + 1] = ld(x + 1, y);
    if (threadIdx.y == 0) t[0][tx] = ld(x, y - 1);
    if (threadIdx.y == BY - 1) t[BY + 1][tx] = ld(x, y + 1);
  }
  const long long t1 = stamp_clock<STAMP>();
  __syncthreads();
  const long long t2 = stamp_clock<STAMP>();
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
    out[(size_t)y * n + x] =
        kC0 * t[ty][tx] + kC1 * (t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx]);
  const long long t3 = stamp_clock<STAMP>();
  if (STAMP && threadIdx.x == 0 && threadIdx.y == 0) {
    const int b = blockIdx.y * gridDim.x + blockIdx.x;
    cyc[0 * cs + b] = t1 - t0;
    cyc[1 * cs + b] = t2 - t1;
    cyc[2 * cs + b] = t3 - t2;
    cyc[3 * cs + b] = 0;
    cyc[4 * cs + b] = t3 - t0;
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

// Say so where the stamped kernel fits fewer blocks per SM than the grid needs in one wave
// and the timed one does (the side table's launch then runs in more waves than the timed).
template <typename K>
static void check_side_shape(const Row &r, K ks, int block_threads, long long blocks, int sms) {
  const long long n = occupancy(ks, block_threads, 0);
  if (n < r.blocks_per_sm && n * sms < blocks)
    fprintf(stderr, "  note %s %s: the stamped kernel fits %lld blocks per SM, not %lld\n",
            r.name.c_str(), r.params.c_str(), n, r.blocks_per_sm);
}

typedef void (*tile_t)(const float *, const float *, float *, int, long long *, int);

struct TileK {
  const char *ld;
  int mode;
  tile_t full, none, fulls, nones;  // timed (no stamps), then stamped (the side table's)
};
#define TK(bm, tm, ld, name)                                                                \
  {name, ld, k_tile<bm, tm, ld, 1, 0>, k_tile<bm, tm, ld, 0, 0>, k_tile<bm, tm, ld, 1, 1>, \
   k_tile<bm, tm, ld, 0, 1>}

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
  const size_t kL2Bytes = size_t(24) << 20;  // data=l2: input footprint at most this

  // (a) tiles
  {
    const int Kd = 512;                          // K of the data=dram rows
    const size_t maxEl = (size_t)4 * sms * 128 * Kd;  // 4 blocks per SM of 128 rows
    float *A, *B, *C;
    CK(cudaMalloc(&A, maxEl * sizeof(float)));
    CK(cudaMalloc(&B, maxEl * sizeof(float)));
    CK(cudaMalloc(&C, (size_t)4 * sms * 128 * 128 * sizeof(float)));
    const TileK k64[3] = {TK(64, 4, LD_RT, "rt"), TK(64, 4, LD_UN, "un"), TK(64, 4, LD_CO, "co")};
    const TileK k128[4] = {TK(128, 8, LD_RT, "rt"), TK(128, 8, LD_UN, "un"),
                           TK(128, 8, LD_CO, "co"), TK(128, 8, LD_F4, "f4")};
    for (int s = 0; s < 2; ++s) {
      const int BM = s ? 128 : 64, TM = s ? 8 : 4;
      const TileK *ks = s ? k128 : k64;
      const int nk = s ? 4 : 3;
      const int bpsm_max = s ? 2 : 4;
      std::vector<int> grids = {16, 64, sms};
      for (int q = 2; q <= bpsm_max; q *= 2) grids.push_back(q * sms);
      for (int v = 0; v < nk; ++v)
        for (int dram = 1; dram >= 0; --dram)
          for (int full = 1; full >= 0; --full)
            for (int G : grids) {
              const TileK &tk = ks[v];
              int K = Kd;
              if (!dram) {
                size_t per_k = (size_t)G * 2 * BM * sizeof(float);
                K = (int)std::min<size_t>(Kd, kL2Bytes / per_k / 8 * 8);
                REQUIRE(K >= 16, "l2 K too small");
              }
              const int rows = G * BM;
              const bool at = tk.mode == LD_CO || tk.mode == LD_F4;
              k_tile_fill<<<2048, 256>>>(A, B, rows, K, at);
              CK_LAUNCH();
              CK(cudaDeviceSynchronize());
              tile_t kf = full ? tk.full : tk.none, kst = full ? tk.fulls : tk.nones;
              Row r;
              r.family = "tiles2";
              r.name = std::string(s ? "g128_" : "g64_") + tk.ld + (full ? "_full" : "_none");
              r.params = "blocks=" + std::to_string(G) + " data=" + (dram ? "dram" : "l2") +
                         " k=" + std::to_string(K);
              row_shape(r, kf, dim3(G), dim3(256), 0);  // the timed kernel's
              if (r.blocks_per_sm * sms < G) {  // more than one wave: not this table's
                fprintf(stderr, "  skip %s %s: %lld blocks per SM\n", r.name.c_str(),
                        r.params.c_str(), r.blocks_per_sm);
                continue;
              }
              check_side_shape(r, kst, 256, G, sms);
              r.t = time_case(b, kReps, dram, [&] {
                kf<<<G, 256, 0, b.stream>>>(A, B, C, K, cyc, kCs);
              });
              side_case(b, dram, [&] { kst<<<G, 256, 0, b.stream>>>(A, B, C, K, cyc, kCs); });
              r.bytes = (size_t)G * 2 * BM * K * sizeof(float);
              r.flops = full ? 2ull * G * BM * BM * K : 2ull * G * 256 * (K / 8);
              emit(b, r);
              emit_cycles(r, cyc, kCs, G, K / 8);
              if (full) {
                std::vector<float> h = to_host(C, (size_t)G * BM * BM);
                for (int q = 0; q < 512; ++q) {
                  size_t e = ((size_t)q * 7919 * 104729) % ((size_t)G * BM * BM);
                  size_t blk = e / (BM * BM), rr = (e % (BM * BM)) / BM, cc = e % BM;
                  double want = 0;
                  for (int k = 0; k < K; ++k)
                    want += (double)va(blk * BM + rr, k) * vb(k, blk * BM + cc);
                  REQUIRE(h[e] == (float)want, "%s %s: C[%zu] = %g, expected %g",
                          r.name.c_str(), r.params.c_str(), e, h[e], want);
                }
              } else {
                std::vector<float> h = to_host(C, (size_t)G * 256);
                for (size_t e = 0; e < h.size(); e += 37) {
                  size_t blk = e / 256, m = e % 256 % BM;
                  double want = 0;
                  for (int k = 0; k < K; k += 8)
                    want += (double)va(blk * BM + m, k) + vb(k, blk * BM + m);
                  REQUIRE(h[e] == (float)want, "%s %s: out[%zu] = %g, expected %g",
                          r.name.c_str(), r.params.c_str(), e, h[e], want);
                }
              }
              (void)TM;
            }
    }
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
  }

  // (b) copy loops of L loads per thread
  {
    typedef void (*ldl_t)(const float *, float *, int, long long *, int);
    struct V {
      int l, u;
      ldl_t k, ks;  // timed (no stamps) and stamped (the side table's launch)
    };
#define LV(l, u) {l, u, k_ldloop<l, u, 0>, k_ldloop<l, u, 1>}
    const V vs[10] = {LV(1, 0), LV(2, 0), LV(4, 0), LV(8, 0), LV(16, 0),
                      LV(1, 1), LV(2, 1), LV(4, 1), LV(8, 1), LV(16, 1)};
#undef LV
    const int kTrips = 64;
    const size_t maxEl = (size_t)4 * sms * kTrips * 16 * 256;
    float *X, *out;
    CK(cudaMalloc(&X, maxEl * sizeof(float)));
    CK(cudaMalloc(&out, (size_t)4 * sms * 256 * sizeof(float)));
    fill_pattern(X, maxEl, 17, 1.f);
    for (int v = 0; v < 10; ++v)
      for (int dram = 1; dram >= 0; --dram)
        for (int G : {sms, 4 * sms}) {
          if (!dram && G > sms) continue;
          const int L = vs[v].l;
          int trips = kTrips;
          if (!dram)
            trips = (int)std::min<size_t>(kTrips, kL2Bytes / ((size_t)G * L * 256 * 4));
          Row r;
          r.family = "tiles2";
          r.name = std::string("ldloop_l") + std::to_string(L) + (vs[v].u ? "_un" : "_rt");
          r.params = "blocks=" + std::to_string(G) + " data=" + (dram ? "dram" : "l2") +
                     " trips=" + std::to_string(trips);
          row_shape(r, vs[v].k, dim3(G), dim3(256), 0);  // the timed kernel's
          REQUIRE(r.blocks_per_sm * sms >= G, "%s: grid %d", r.name.c_str(), G);
          check_side_shape(r, vs[v].ks, 256, G, sms);
          r.t = time_case(b, kReps, dram, [&] {
            vs[v].k<<<G, 256, 0, b.stream>>>(X, out, trips, cyc, kCs);
          });
          side_case(b, dram, [&] { vs[v].ks<<<G, 256, 0, b.stream>>>(X, out, trips, cyc, kCs); });
          r.bytes = (size_t)G * trips * L * 256 * 4;
          r.flops = (size_t)G * 256 * trips;
          emit(b, r);
          emit_cycles(r, cyc, kCs, G, trips);
          std::vector<float> h = to_host(out, (size_t)G * 256);
          for (size_t e = 0; e < h.size(); e += 29) {
            size_t blk = e / 256, tid = e % 256;
            double want = 0;
            for (int t = 0; t < trips; ++t)
              want += pattern_at(blk * trips * L * 256 + (size_t)t * L * 256 +
                                     (tid * 33) % (L * 256), 17, 1.f);
            REQUIRE(h[e] == (float)want, "%s %s: out[%zu] = %g, expected %g",
                    r.name.c_str(), r.params.c_str(), e, h[e], want);
          }
        }
    CK(cudaFree(X));
    CK(cudaFree(out));
  }

  // (c) staged stencil
  {
    typedef void (*st_t)(const float *, float *, int, long long *, int);
    struct V {
      const char *name;
      int bx, by;
      st_t k, ks;  // timed (no stamps) and stamped (the side table's launch)
    };
#define SV(bx, by, h)                                                                     \
  {"stencil_" #bx "x" #by "_h" #h, bx, by, k_st<bx, by, h, 0>, k_st<bx, by, h, 1>}
    const V vs[4] = {SV(32, 8, 0), SV(32, 8, 1), SV(16, 16, 0), SV(16, 16, 1)};
#undef SV
    const size_t nmax = 8192;
    float *in, *out;
    CK(cudaMalloc(&in, nmax * nmax * sizeof(float)));
    CK(cudaMalloc(&out, nmax * nmax * sizeof(float)));
    fill_pattern(in, nmax * nmax, 17, 1.f);
    for (int v = 0; v < 4; ++v)
      for (int n : {2048, 8192}) {
        fill_pattern(out, (size_t)n * n, 1, 0.f);
        dim3 grid(n / vs[v].bx, n / vs[v].by), block(vs[v].bx, vs[v].by);
        long long blocks = (long long)grid.x * grid.y;
        REQUIRE(blocks <= kCs, "too many blocks");
        Row r;
        r.family = "tiles2";
        r.name = vs[v].name;
        r.params = "n=" + std::to_string(n);
        row_shape(r, vs[v].k, grid, block, 0);  // the timed kernel's
        r.t = time_case(b, kReps, true,
                        [&] { vs[v].k<<<grid, block, 0, b.stream>>>(in, out, n, cyc, kCs); });
        side_case(b, true, [&] { vs[v].ks<<<grid, block, 0, b.stream>>>(in, out, n, cyc, kCs); });
        r.bytes = 2ull * n * n * sizeof(float);
        r.flops = 6ull * (n - 2) * (n - 2);
        emit(b, r);
        emit_cycles(r, cyc, kCs, blocks, 1);
        check_spread(r.name.c_str(), out, (size_t)n * n, [&](size_t i) {
          size_t y = i / n, x = i % n;
          if (x < 1 || x >= (size_t)n - 1 || y < 1 || y >= (size_t)n - 1) return 0.f;
          auto at = [&](size_t j) { return pattern_at(j, 17, 1.f); };
          return kC0 * at(i) + kC1 * (at(i - 1) + at(i + 1) + at(i - n) + at(i + n));
        });
      }
    CK(cudaFree(in));
    CK(cudaFree(out));
  }

  CK(cudaFree(cyc));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
