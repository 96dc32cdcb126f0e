// bench_tiles.cu - shared-memory tiled loops and warp-uniform global loads (family
// `tiles`): where the global load latency of each trip of a tiled loop is or is not
// hidden, and what a load that every lane of a warp issues to the same address costs
// on the dependency chain.
//   gemm     C = A B (M x M output, K = 1024) through shared tiles: per trip every
//            thread copies 1 word (tm=1) or one float4 (tm=4, 8) of A and of B into
//            shared memory, __syncthreads, an inner loop over the BK k steps of the
//            tile (register-blocked TM x TM outer product with float4 LDS for tm>1),
//            __syncthreads. Shapes: t16 (16x16 tile, BK 16, 256 threads, 1 output
//            per thread), t32 (32x32, BK 32, 1024 threads), r4 (64x64, BK 16, 256
//            threads, 4x4 per thread), r8 (128x128, BK 8, 256 threads, 8x8). The A
//            tile lands in shared memory as As[k][m]: a = `at` (A given transposed:
//            a float4 copy, conflict-free), `row` (A row-major: four scalar stores
//            per thread into the transposed layout, stride BM: 4-way bank conflicts
//            for r4, 2-way for r8), `pad` (the same with stride BM + 4: 2-way for r4,
//            none for r8). M from 128 (fewer blocks than SMs) to 2048 (several blocks
//            per SM).
//   bcast    every thread loops over j = 0..n-1 (n = 512, 32 passes) reading pos[j]
//            (float4 or float) from global memory: all lanes one address, an L1 hit
//            after the first pass; the value feeds a dependent chain (float4: 3 FADD,
//            FMUL, 2 FFMA, then F FFMA; float: FADD then F FFMA) and one FADD into the
//            accumulator. 1..32 warps per SM (one block per SM), inner loop unrolled 1
//            or 4 times.
//   stencil  5-point stencil over n x n floats: each block stages its tile plus a
//            one-point halo in shared memory (the halo threads load one extra word),
//            __syncthreads, then reads the 5 neighbours from shared memory; blocks
//            32x8 and 16x16; L2 flushed before every repetition.
// gemm and bcast rows also get the clock64 cycles of the loop (thread 0 of every block;
// median, min and max over blocks) in the side table tiles_cycles.csv.
//
// usage: bench_tiles OUT.csv CYCLES.csv [device]
#include "common.cuh"

// ---------------------------------------------------------------- (a) gemm
__host__ __device__ inline float gemm_a(size_t m, size_t k) { return float((m + 2 * k) % 4); }
__host__ __device__ inline float gemm_b(size_t k, size_t n) { return float((3 * k + n) % 5); }

// A is M x K row-major (AM 1, 2) or given transposed, K x M row-major (AM 0); B is
// K x M row-major; C is M x M. Block (bx, by) computes C[by*BM.., bx*BM..].
template <int BM, int BK, int TM, int AM>
__global__ void __launch_bounds__((BM / TM) * (BM / TM))
    k_gemm(const float *A, const float *B, float *C, int M, int K, long long *cyc) {
  constexpr int T = (BM / TM) * (BM / TM);
  constexpr int S = AM == 2 ? BM + 4 : BM;  // row stride of As[k][m]
  __shared__ __align__(16) float As[BK * S];
  __shared__ __align__(16) float Bs[BK * BM];
  const int tid = threadIdx.x;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BM;
  long long t0 = clock64();
  if constexpr (TM == 1) {
    static_assert(BM == BK, "tm=1 tiles are square");
    const int tx = tid % BM, ty = tid / BM;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
      As[ty * BM + tx] = A[(size_t)(m0 + ty) * K + k0 + tx];
      Bs[ty * BM + tx] = B[(size_t)(k0 + ty) * M + n0 + tx];
      __syncthreads();
#pragma unroll
      for (int k = 0; k < BK; ++k) acc = fmaf(As[ty * BM + k], Bs[k * BM + tx], acc);
      __syncthreads();
    }
    C[(size_t)(m0 + ty) * M + n0 + tx] = acc;
  } else {
    static_assert(BK * BM == 4 * T, "one float4 of A and of B per thread and trip");
    constexpr int Q = BM / 4, P = BK / 4, TX = BM / TM;
    const int kb = tid / Q, nb = 4 * (tid % Q);  // B (and At) float4 of this thread
    const int ra = tid / P, ca = 4 * (tid % P);  // A float4 (row-major A)
    const int tx = tid % TX, ty = tid / TX;
    float c[TM][TM];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TM; ++j) c[i][j] = 0.f;
    for (int k0 = 0; k0 < K; k0 += BK) {
      if (AM == 0) {
        *(float4 *)&As[kb * S + nb] = *(const float4 *)&A[(size_t)(k0 + kb) * M + m0 + nb];
      } else {
        float4 v = *(const float4 *)&A[(size_t)(m0 + ra) * K + k0 + ca];
        As[(ca + 0) * S + ra] = v.x;
        As[(ca + 1) * S + ra] = v.y;
        As[(ca + 2) * S + ra] = v.z;
        As[(ca + 3) * S + ra] = v.w;
      }
      *(float4 *)&Bs[kb * BM + nb] = *(const float4 *)&B[(size_t)(k0 + kb) * M + n0 + nb];
      __syncthreads();
#pragma unroll
      for (int k = 0; k < BK; ++k) {
        float a[TM], b[TM];
#pragma unroll
        for (int i = 0; i < TM / 4; ++i) {
          *(float4 *)&a[4 * i] = *(const float4 *)&As[k * S + ty * TM + 4 * i];
          *(float4 *)&b[4 * i] = *(const float4 *)&Bs[k * BM + tx * TM + 4 * i];
        }
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TM; ++j) c[i][j] = fmaf(a[i], b[j], c[i][j]);
      }
      __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
      for (int j = 0; j < TM; j += 4)
        *(float4 *)&C[(size_t)(m0 + ty * TM + i) * M + n0 + tx * TM + j] =
            make_float4(c[i][j], c[i][j + 1], c[i][j + 2], c[i][j + 3]);
  }
  if (tid == 0) cyc[blockIdx.y * gridDim.x + blockIdx.x] = clock64() - t0;
}

// Fill A (AM 0: transposed layout), B.
__global__ void k_gemm_fill(float *A, float *B, int M, int K, int at) {
  size_t n = (size_t)M * K;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    size_t r = i / K, q = i % K;             // row-major M x K position (m, k)
    if (at) A[q * M + r] = gemm_a(r, q);     // At[k][m]
    else A[i] = gemm_a(r, q);
    size_t kk = i / M, nn = i % M;           // B is K x M
    B[i] = gemm_b(kk, nn);
  }
}

// ---------------------------------------------------------------- (b) bcast
static const int kBcastN = 512, kBcastPasses = 32;

__host__ __device__ inline float bcast_pos(int j, int c) { return float((j * 5 + c * 3) % 7); }
__host__ __device__ inline float bcast_x(int tid, int c) { return 0.25f * float((tid + c) % 5); }

// acc += chain(pos[j]) for j = 0..n-1, passes times. VEC 4: float4 pos; VEC 1: float.
template <int VEC, int F, int UNR>
__global__ void __launch_bounds__(1024, 1)
    k_bcast(const float *pos, int n, int passes, float *out, long long *cyc) {
  const int tid = threadIdx.x;
  const float x = bcast_x(tid, 0), y = bcast_x(tid, 1), z = bcast_x(tid, 2);
  float acc = 0.f;
  long long t0 = clock64();
  for (int r = 0; r < passes; ++r) {
#pragma unroll UNR
    for (int j = 0; j < n; ++j) {
      float u;
      if (VEC == 4) {
        float4 p = ((const float4 *)pos)[j];
        float dx = __fsub_rn(p.x, x), dy = __fsub_rn(p.y, y), dz = __fsub_rn(p.z, z);
        u = __fmaf_rn(dx, dx, __fmaf_rn(dy, dy, __fmul_rn(dz, dz)));
#pragma unroll
        for (int f = 0; f < F; ++f) u = __fmaf_rn(u, 0.5f, p.w);
      } else {
        float p = pos[j];
        u = __fsub_rn(p, x);
#pragma unroll
        for (int f = 0; f < F; ++f) u = __fmaf_rn(u, 0.5f, p);
      }
      acc = __fadd_rn(acc, u);
    }
  }
  if (tid == 0) cyc[blockIdx.x] = clock64() - t0;
  out[blockIdx.x * blockDim.x + tid] = acc;
}

static float bcast_want(int vec, int F, int n, int passes, int tid) {
  const float x = bcast_x(tid, 0), y = bcast_x(tid, 1), z = bcast_x(tid, 2);
  float acc = 0.f;
  for (int r = 0; r < passes; ++r)
    for (int j = 0; j < n; ++j) {
      float u;
      if (vec == 4) {
        float px = bcast_pos(j, 0), py = bcast_pos(j, 1), pz = bcast_pos(j, 2),
              pw = bcast_pos(j, 3);
        float dx = px - x, dy = py - y, dz = pz - z;
        float dz2 = dz * dz;
        u = fmaf(dx, dx, fmaf(dy, dy, dz2));
        for (int f = 0; f < F; ++f) u = fmaf(u, 0.5f, pw);
      } else {
        float p = bcast_pos(j, 0);
        u = p - x;
        for (int f = 0; f < F; ++f) u = fmaf(u, 0.5f, p);
      }
      acc = acc + u;
    }
  return acc;
}

// ---------------------------------------------------------------- (c) stencil
static const float kC0 = 0.5f, kC1 = 0.125f;

template <int BX, int BY>
__global__ void __launch_bounds__(BX *BY) k_stencil(const float *in, float *out, int n) {
  __shared__ float s[BY + 2][BX + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
  const size_t i = (size_t)gy * n + gx;
  s[ty + 1][tx + 1] = in[i];
  if (tx == 0) s[ty + 1][0] = gx > 0 ? in[i - 1] : 0.f;
  if (tx == BX - 1) s[ty + 1][BX + 1] = gx < n - 1 ? in[i + 1] : 0.f;
  if (ty == 0) s[0][tx + 1] = gy > 0 ? in[i - n] : 0.f;
  if (ty == BY - 1) s[BY + 1][tx + 1] = gy < n - 1 ? in[i + n] : 0.f;
  __syncthreads();
  if (gx >= 1 && gx < n - 1 && gy >= 1 && gy < n - 1)
    out[i] = kC0 * s[ty + 1][tx + 1] +
             kC1 * (s[ty + 1][tx] + s[ty + 1][tx + 2] + s[ty][tx + 1] + s[ty + 2][tx + 1]);
}

// ---------------------------------------------------------------- driver
static FILE *g_cyc = nullptr;

static void emit_cycles(const Row &r, long long blocks, long long trips, const Cycles &c) {
  double per = c.median / trips;
  fprintf(g_cyc, "%s,%s,%s,%lld,%lld,%.0f,%.0f,%.0f,%.3f\n", r.family.c_str(), r.name.c_str(),
          r.params.c_str(), blocks, trips, c.median, c.min, c.max, per);
  fflush(g_cyc);
  fprintf(stderr, "      %-24s blocks=%5lld  %10.3f cyc/trip (block median %.0f, min %.0f, max %.0f)\n",
          r.name.c_str(), blocks, per, c.median, c.min, c.max);
}

static const int kReps = 7;

typedef void (*gemm_t)(const float *, const float *, float *, int, int, long long *);

struct GemmShape {
  const char *name;
  int bm, bk, tm, threads;
  gemm_t k[3];  // AM 0, 1, 2 (tm = 1: only [1])
};

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
      "cycles_per_trip\n");
  const int sms = b.sm_count;
  const int kMaxBlocks = 1 << 16;
  long long *cyc;
  CK(cudaMalloc(&cyc, kMaxBlocks * sizeof(long long)));

  // (a) gemm
  {
    const int K = 1024, Mmax = 2048;
    float *A, *B, *C;
    CK(cudaMalloc(&A, (size_t)Mmax * K * sizeof(float)));
    CK(cudaMalloc(&B, (size_t)Mmax * K * sizeof(float)));
    CK(cudaMalloc(&C, (size_t)Mmax * Mmax * sizeof(float)));
    const GemmShape shapes[4] = {
        {"t16", 16, 16, 1, 256, {nullptr, k_gemm<16, 16, 1, 1>, nullptr}},
        {"t32", 32, 32, 1, 1024, {nullptr, k_gemm<32, 32, 1, 1>, nullptr}},
        {"r4", 64, 16, 4, 256, {k_gemm<64, 16, 4, 0>, k_gemm<64, 16, 4, 1>, k_gemm<64, 16, 4, 2>}},
        {"r8", 128, 8, 8, 256,
         {k_gemm<128, 8, 8, 0>, k_gemm<128, 8, 8, 1>, k_gemm<128, 8, 8, 2>}}};
    const int ms[4][5] = {{128, 256, 512, 1024, 0},
                          {256, 512, 1024, 0, 0},
                          {256, 512, 1024, 2048, 0},
                          {512, 1024, 2048, 0, 0}};
    const char *anames[3] = {"at", "row", "pad"};
    for (int s = 0; s < 4; ++s)
      for (int am = 0; am < 3; ++am) {
        const GemmShape &g = shapes[s];
        if (!g.k[am]) continue;
        fill_pattern(C, (size_t)Mmax * Mmax, 1, 0.f);
        for (int mi = 0; mi < 5 && ms[s][mi]; ++mi) {
          const int M = ms[s][mi];
          // A and B for this M (the layouts depend on M)
          k_gemm_fill<<<2048, 256>>>(A, B, M, K, am == 0);
          CK_LAUNCH();
          CK(cudaDeviceSynchronize());
          dim3 grid(M / g.bm, M / g.bm);
          long long blocks = (long long)grid.x * grid.y;
          REQUIRE(blocks <= kMaxBlocks, "too many blocks");
          Row r;
          r.family = "tiles";
          r.name = std::string("gemm_") + g.name + (g.tm > 1 ? std::string("_") + anames[am] : "");
          r.params = "m=" + std::to_string(M) + " k=" + std::to_string(K);
          row_shape(r, g.k[am], grid, dim3(g.threads), 0);
          r.t = time_case(b, kReps, true, [&] {
            g.k[am]<<<grid, g.threads, 0, b.stream>>>(A, B, C, M, K, cyc);
          });
          r.bytes = 0;
          r.flops = 2ull * M * M * K;
          emit(b, r);
          emit_cycles(r, blocks, K / g.bk, block_cycles(cyc, (int)blocks));
          // check 1024 outputs spread over C
          std::vector<float> h = to_host(C, (size_t)M * M);
          for (int q = 0; q < 1024; ++q) {
            size_t e = ((size_t)q * 7919 * 104729) % ((size_t)M * M);
            size_t mm = e / M, nn = e % M;
            double want = 0;
            for (int k = 0; k < K; ++k) want += (double)gemm_a(mm, k) * gemm_b(k, nn);
            REQUIRE(h[e] == (float)want, "%s m=%d: C[%zu][%zu] = %g, expected %g",
                    r.name.c_str(), M, mm, nn, h[e], want);
          }
        }
      }
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
  }

  // (b) warp-uniform loads
  {
    typedef void (*kern_t)(const float *, int, int, float *, long long *);
    struct V {
      const char *name;
      int vec, f, unr;
      kern_t k;
    };
    const V vs[6] = {{"bcast_f4_c8_u1", 4, 8, 1, k_bcast<4, 8, 1>},
                     {"bcast_f4_c8_u4", 4, 8, 4, k_bcast<4, 8, 4>},
                     {"bcast_f1_c4_u1", 1, 4, 1, k_bcast<1, 4, 1>},
                     {"bcast_f1_c4_u4", 1, 4, 4, k_bcast<1, 4, 4>},
                     {"bcast_f1_c16_u1", 1, 16, 1, k_bcast<1, 16, 1>},
                     {"bcast_f1_c16_u4", 1, 16, 4, k_bcast<1, 16, 4>}};
    const int warps_l[6] = {1, 2, 4, 8, 16, 32};
    float *pos, *out;
    CK(cudaMalloc(&pos, 4 * kBcastN * sizeof(float)));
    CK(cudaMalloc(&out, (size_t)sms * 1024 * sizeof(float)));
    std::vector<float> hp(4 * kBcastN);
    size_t pin1 = dyn_smem_for_bpsm(b.prop, 1);
    for (int v = 0; v < 6; ++v) allow_dyn_smem(vs[v].k, pin1);
    for (int v = 0; v < 6; ++v) {
      for (int j = 0; j < kBcastN; ++j)  // float4: pos[j].c; float: pos[j] = component 0
        for (int c = 0; c < vs[v].vec; ++c) hp[vs[v].vec * j + c] = bcast_pos(j, c);
      CK(cudaMemcpy(pos, hp.data(), hp.size() * sizeof(float), cudaMemcpyHostToDevice));
      for (int wi = 0; wi < 6; ++wi) {
        const int W = warps_l[wi], bt = 32 * W;
        Row r;
        r.family = "tiles";
        r.name = vs[v].name;
        r.params = "warps=" + std::to_string(W) + " n=" + std::to_string(kBcastN) +
                   " passes=" + std::to_string(kBcastPasses);
        row_shape(r, vs[v].k, dim3(sms), dim3(bt), pin1);
        REQUIRE(r.blocks_per_sm == 1, "%s: %lld blocks per SM", r.name.c_str(), r.blocks_per_sm);
        r.t = time_case(b, kReps, false, [&] {
          vs[v].k<<<sms, bt, pin1, b.stream>>>(pos, kBcastN, kBcastPasses, out, cyc);
        });
        r.bytes = 0;
        r.flops = (unsigned long long)sms * bt * kBcastN * kBcastPasses *
                  (vs[v].vec == 4 ? 2ull * vs[v].f + 10 : 2ull * vs[v].f + 2);
        emit(b, r);
        emit_cycles(r, sms, (long long)kBcastN * kBcastPasses, block_cycles(cyc, sms));
        std::vector<float> h = to_host(out, (size_t)sms * bt);
        float want[5];
        for (int q = 0; q < 5; ++q)
          want[q] = bcast_want(vs[v].vec, vs[v].f, kBcastN, kBcastPasses, q);
        for (size_t t = 0; t < h.size(); ++t) {
          float w = want[(t % bt) % 5];
          REQUIRE(std::fabs(h[t] - w) <= 1e-5f * std::fabs(w) + 1e-3f,
                  "%s warps=%d: out[%zu] = %.9g, expected %.9g", r.name.c_str(), W, t, h[t], w);
        }
      }
    }
    CK(cudaFree(pos));
    CK(cudaFree(out));
  }

  // (c) shared-memory stencil
  {
    typedef void (*kern_t)(const float *, float *, int);
    struct V {
      const char *name;
      int bx, by;
      kern_t k;
    };
    const V vs[2] = {{"stencil_smem_32x8", 32, 8, k_stencil<32, 8>},
                     {"stencil_smem_16x16", 16, 16, k_stencil<16, 16>}};
    const int ns[4] = {1024, 2048, 4096, 8192};
    const size_t nmax = 8192;
    float *in, *out;
    CK(cudaMalloc(&in, nmax * nmax * sizeof(float)));
    CK(cudaMalloc(&out, nmax * nmax * sizeof(float)));
    fill_pattern(in, nmax * nmax, 17, 1.f);
    for (int v = 0; v < 2; ++v)
      for (int ni = 0; ni < 4; ++ni) {
        const int n = ns[ni];
        fill_pattern(out, (size_t)n * n, 1, 0.f);
        dim3 grid(n / vs[v].bx, n / vs[v].by), block(vs[v].bx, vs[v].by);
        Row r;
        r.family = "tiles";
        r.name = vs[v].name;
        r.params = "n=" + std::to_string(n);
        row_shape(r, vs[v].k, grid, block, 0);
        r.t = time_case(b, kReps, true, [&] { vs[v].k<<<grid, block, 0, b.stream>>>(in, out, n); });
        r.bytes = 2ull * n * n * sizeof(float);
        r.flops = 6ull * (n - 2) * (n - 2);
        emit(b, r);
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
