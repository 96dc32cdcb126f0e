// bench_uniform.cu - warp-uniform and few-address global loads with 1 to 64 warps per
// SM (family `uniform`): what the L1 takes for a request whose 32 lanes name one word
// (or 2, 4, 8 words), how that grows with the warps that issue them, and the latency
// each warp sees.
//
// k_uni: warp g (global warp index) of a grid of sms x B blocks reads, for j = 0..M-1
// (`passes` times), element j * STEP of its row(s) of x (float or float4, plain
// `const float *`, no __restrict__), lane l in address group a = l / (32 / NA):
//   few-address    (SAME 0) row (g % rg) * NA + a: NA rows of 1 KiB (M = 256 / VEC
//                  elements), consecutive elements (STEP 1), every group its own line;
//   same-line      (SAME 1, NA < 32) row g % rg, element j + a: NA consecutive words;
//   coalesced      (NA 32) row g % rg, element j * 32 + l (the reference: one line
//                  for a float, four for a float4);
//   L2-resident    STEP one line (32 / VEC elements), M = 1024, one pass, rg * NA =
//                  128 rows of 128 KiB (16 MiB): no row is re-read by its warp and
//                  the warps of one SM read different rows;
//   independent    UNR = 8 loads a trip, each into its own accumulator (float4: the 4
//                  components added, 4 FADD), so 8 are in flight per warp;
//   chained        the next element index adds bits(v) >> 30 (0: every value is below
//                  2.0; the compiler cannot know), one load at a time per warp;
//   mix            the naive GEMM trip: acc = fmaf(A[row][k], B[k][col], acc), A the
//                  few-address load, B[k * 32 + l % (32 / NA)] coalesced (a 32 KiB B
//                  shared by every warp), one accumulator, unrolled 4.
// 1, 2, 4 warps: one block of 32 x W threads per SM; 8..64: W / 4 blocks of 128
// threads per SM (grid sms x B, no shared memory: every SM gets B blocks, which the
// side table checks with %smid). The shared-memory carve-out preference is 0 (the
// largest L1). 4096 loads per thread (L1 rows), 1024 (L2 rows). x holds
// (i % 4) * 0.5, B (i % 3) * 0.5: every sum is exact in float; 1024 threads
// (check_spread) are checked against a host recomputation.
// The clock64 cycles of each block's loop (thread 0) go to the side table
// uniform_cycles.csv: median, min, max over blocks, per load of a thread, the most
// blocks any SM held and the SMs used.
//
// usage: bench_uniform OUT.csv CYCLES.csv [device]
#include "common.cuh"

template <int VEC>
struct Vt;
template <>
struct Vt<1> {
  typedef float T;
  static __device__ __forceinline__ float sum(float v) { return v; }
  static __device__ __forceinline__ float first(float v) { return v; }
};
template <>
struct Vt<4> {
  typedef float4 T;
  static __device__ __forceinline__ float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
  static __device__ __forceinline__ float first(float4 v) { return v.x; }
};

// The load: LDM 0 a plain dereference (LDG.E), 1 __ldg (LDG.E.CONSTANT), 2 ld.global.ca
// in asm (LDG.E.STRONG.SM, as bench_reuse); MASK 1: the element index is ANDed with a
// run-time mask (all ones here), so every load computes its own address (LOP3 and an
// IMAD.WIDE a load, as bench_mlp) instead of an immediate offset from one pointer.
template <int LDM, typename T>
__device__ __forceinline__ T ld(const T *p) {
  if constexpr (LDM == 1) return __ldg(p);
  if constexpr (LDM == 2) {
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return *(T *)&v;
  }
  return *p;
}

template <int VEC, int NA, int SAME, int STEP, int UNR, int NACC, int CHAIN, int MIX, int LDM = 0,
          int MASK = 0>
__global__ void __launch_bounds__(128) k_uni(const float *x, const float *B, long long pitch,
                                             int rg, int M, int passes, float *out,
                                             long long *cyc, int *smid, long long mask) {
  typedef typename Vt<VEC>::T T;
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const int a = lane / (32 / NA);
  long long row, woff;
  if (SAME) {
    row = g % rg;
    woff = a;  // NA 32: the lane
  } else {
    row = (g % rg) * NA + a;
    woff = 0;
  }
  const T *p = (const T *)x + row * pitch + woff;
  const float *pb = B + (lane % (32 / NA));
  float acc[NACC];
#pragma unroll
  for (int q = 0; q < NACC; ++q) acc[q] = 0.f;
  unsigned sh = 0;
  long long t0 = clock64();
  for (int r = 0; r < passes; ++r) {
    for (int j = 0; j < M; j += UNR) {
#pragma unroll
      for (int u = 0; u < UNR; ++u) {
        T v = MASK ? ld<LDM>(p + ((((long long)(j + u) * STEP + sh)) & mask))
                   : ld<LDM>(p + ((long long)(j + u) * STEP + sh));
        if (MIX)
          acc[0] = fmaf(Vt<VEC>::first(v), pb[(j + u) * 32], acc[0]);
        else
          acc[u % NACC] += Vt<VEC>::sum(v);
        if (CHAIN) sh = __float_as_uint(Vt<VEC>::first(v)) >> 30;
      }
    }
  }
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int q = 0; q < NACC; ++q) s += acc[q];
  out[blockIdx.x * (long long)blockDim.x + tid] = s;
  if (tid == 0) {
    cyc[blockIdx.x] = t1 - t0;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = (int)id;
  }
}

typedef void (*kern_t)(const float *, const float *, long long, int, int, int, float *,
                       long long *, int *, long long);

struct Var {
  const char *name;
  int vec, na, same, step, unr, nacc, chain, mix, l2;
  kern_t k;
};

#define KU(V, N, S, ST, U, A, C, X) k_uni<V, N, S, ST, U, A, C, X>
static const Var kVars[] = {
    // L1-resident, independent (8 in flight)
    {"ind_l1_f1_a1", 1, 1, 0, 1, 8, 8, 0, 0, 0, KU(1, 1, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f1_a1_all", 1, 1, 0, 1, 8, 8, 0, 0, 0, KU(1, 1, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f1_a2", 1, 2, 0, 1, 8, 8, 0, 0, 0, KU(1, 2, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f1_a4", 1, 4, 0, 1, 8, 8, 0, 0, 0, KU(1, 4, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f1_a8", 1, 8, 0, 1, 8, 8, 0, 0, 0, KU(1, 8, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f1_w4", 1, 4, 1, 1, 8, 8, 0, 0, 0, KU(1, 4, 1, 1, 8, 8, 0, 0)},
    {"ind_l1_f4_a1", 4, 1, 0, 1, 8, 8, 0, 0, 0, KU(4, 1, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f4_a2", 4, 2, 0, 1, 8, 8, 0, 0, 0, KU(4, 2, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f4_a4", 4, 4, 0, 1, 8, 8, 0, 0, 0, KU(4, 4, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f4_a8", 4, 8, 0, 1, 8, 8, 0, 0, 0, KU(4, 8, 0, 1, 8, 8, 0, 0)},
    {"ind_l1_f1_coal", 1, 32, 1, 32, 8, 8, 0, 0, 0, KU(1, 32, 1, 32, 8, 8, 0, 0)},
    {"ind_l1_f4_coal", 4, 32, 1, 32, 8, 8, 0, 0, 0, KU(4, 32, 1, 32, 8, 8, 0, 0)},
    // L1-resident, chained (one load in flight per warp)
    {"chn_l1_f1_a1", 1, 1, 0, 1, 8, 1, 1, 0, 0, KU(1, 1, 0, 1, 8, 1, 1, 0)},
    {"chn_l1_f4_a1", 4, 1, 0, 1, 8, 1, 1, 0, 0, KU(4, 1, 0, 1, 8, 1, 1, 0)},
    {"chn_l1_f1_a4", 1, 4, 0, 1, 8, 1, 1, 0, 0, KU(1, 4, 0, 1, 8, 1, 1, 0)},
    {"chn_l1_f1_coal", 1, 32, 1, 32, 8, 1, 1, 0, 0, KU(1, 32, 1, 32, 8, 1, 1, 0)},
    // L2-resident (one line per load, no re-read within an SM)
    {"ind_l2_f1_a1", 1, 1, 0, 32, 8, 8, 0, 0, 1, KU(1, 1, 0, 32, 8, 8, 0, 0)},
    {"ind_l2_f4_a1", 4, 1, 0, 8, 8, 8, 0, 0, 1, KU(4, 1, 0, 8, 8, 8, 0, 0)},
    {"ind_l2_f1_a2", 1, 2, 0, 32, 8, 8, 0, 0, 1, KU(1, 2, 0, 32, 8, 8, 0, 0)},
    {"chn_l2_f1_a1", 1, 1, 0, 32, 8, 1, 1, 0, 1, KU(1, 1, 0, 32, 8, 1, 1, 0)},
    // the naive GEMM trip: few-address A + coalesced B + FFMA into one accumulator
    {"mix_l1_a1", 1, 1, 0, 1, 4, 1, 0, 1, 0, KU(1, 1, 0, 1, 4, 1, 0, 1)},
    {"mix_l1_a2", 1, 2, 0, 1, 4, 1, 0, 1, 0, KU(1, 2, 0, 1, 4, 1, 0, 1)},
    // the same float loads by other instructions and address forms
    {"ind_l1_f1_a1_ldg", 1, 1, 0, 1, 8, 8, 0, 0, 0, (k_uni<1, 1, 0, 1, 8, 8, 0, 0, 1, 0>)},
    {"ind_l1_f1_coal_ldg", 1, 32, 1, 32, 8, 8, 0, 0, 0, (k_uni<1, 32, 1, 32, 8, 8, 0, 0, 1, 0>)},
    {"ind_l1_f1_a1_ca", 1, 1, 0, 1, 8, 8, 0, 0, 0, (k_uni<1, 1, 0, 1, 8, 8, 0, 0, 2, 0>)},
    {"ind_l1_f1_coal_ca", 1, 32, 1, 32, 8, 8, 0, 0, 0, (k_uni<1, 32, 1, 32, 8, 8, 0, 0, 2, 0>)},
    {"ind_l1_f1_a1_mask", 1, 1, 0, 1, 8, 8, 0, 0, 0, (k_uni<1, 1, 0, 1, 8, 8, 0, 0, 0, 1>)},
    {"ind_l1_f1_coal_mask", 1, 32, 1, 32, 8, 8, 0, 0, 0, (k_uni<1, 32, 1, 32, 8, 8, 0, 0, 0, 1>)},
    {"ind_l1_f1_coal_ldg_mask", 1, 32, 1, 32, 8, 8, 0, 0, 0, (k_uni<1, 32, 1, 32, 8, 8, 0, 0, 1, 1>)},
};
#undef KU

// Launch geometry and footprint of one variant.
struct Geo {
  long long pitch;  // elements of the variant's type between rows
  int rg, M, passes;
};

static Geo geo_of(const Var &v) {
  Geo g;
  if (v.l2) {
    g.M = 1024;
    g.passes = 1;
    g.rg = 128 / v.na;
    g.pitch = (long long)g.M * v.step;  // 128 KiB a row
  } else if (v.na == 32) {
    g.M = 32;  // 32 lines (float) or 128 (float4) a row
    g.passes = 4096 / g.M;
    g.rg = 4;
    g.pitch = (long long)g.M * 32;
  } else {
    g.M = 256 / v.vec;  // 1 KiB a row
    g.passes = 4096 / g.M;
    g.rg = std::strstr(v.name, "_all") ? 1 : (v.same ? 64 : 64 / v.na);
    g.pitch = g.M;
  }
  return g;
}

static inline float xval(long long i) { return float(i % 4) * 0.5f; }
static inline float bval(long long i) { return float(i % 3) * 0.5f; }

// Host recomputation of thread t's output (float element indices of x).
static float want_of(const Var &v, const Geo &G, long long t) {
  long long g = t >> 5;
  int lane = (int)(t & 31), a = lane / (32 / v.na);
  long long row = v.same ? g % G.rg : (g % G.rg) * v.na + a;
  long long woff = v.same ? a : 0;
  long long base = (row * G.pitch + woff) * v.vec;
  double acc = 0;
  for (int r = 0; r < G.passes; ++r)
    for (int j = 0; j < G.M; ++j) {
      long long e = base + (long long)j * v.step * v.vec;
      if (v.mix) {
        acc += (double)xval(e) * bval((long long)j * 32 + lane % (32 / v.na));
      } else {
        for (int c = 0; c < v.vec; ++c) acc += xval(e + c);
      }
    }
  return (float)acc;
}

static FILE *g_cyc = nullptr;
static const int kReps = 7;

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
      "cycles_per_trip,max_blocks_per_sm,sms_used\n");
  const int sms = b.sm_count;
  const int maxBlocks = sms * 16;
  long long *cyc;
  int *smid;
  CK(cudaMalloc(&cyc, maxBlocks * sizeof(long long)));
  CK(cudaMalloc(&smid, maxBlocks * sizeof(int)));
  const size_t xn = size_t(8) << 20;  // 32 MiB of floats
  float *x, *B, *out;
  CK(cudaMalloc(&x, xn * sizeof(float)));
  CK(cudaMalloc(&B, 256 * 32 * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)maxBlocks * 128 * sizeof(float)));
  fill_pattern(x, xn, 4, 0.5f);
  fill_pattern(B, 256 * 32, 3, 0.5f);
  const int warps_l[7] = {1, 2, 4, 8, 16, 32, 64};
  for (const Var &v : kVars) {
    CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    const Geo G = geo_of(v);
    REQUIRE((size_t)(G.rg * (v.same ? 1 : v.na)) * G.pitch * v.vec <= xn, "%s: x too small",
            v.name);
    for (int W : warps_l) {
      const int bt = W <= 4 ? 32 * W : 128, nb = W <= 4 ? 1 : W / 4, grid = sms * nb;
      const long long loads = (long long)G.M * G.passes;
      Row r;
      r.family = "uniform";
      r.name = v.name;
      r.params = "warps=" + std::to_string(W) + " loads=" + std::to_string(loads);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false, [&] {
        v.k<<<grid, bt, 0, b.stream>>>(x, B, G.pitch, G.rg, G.M, G.passes, out, cyc, smid, -1ll);
      });
      r.bytes = (unsigned long long)grid * bt * loads * 4 * v.vec;  // bytes the lanes name
      r.flops = (unsigned long long)grid * bt * loads * (v.mix ? 2 : v.vec);
      emit(b, r);
      // cycles and the blocks each SM got
      Cycles c = block_cycles(cyc, grid);
      const SmSpread sp = sm_spread(smid, grid);
      const int most = sp.most, used = sp.used;
      fprintf(g_cyc, "%s,%s,%s,%d,%lld,%.0f,%.0f,%.0f,%.3f,%d,%d\n", r.family.c_str(),
              r.name.c_str(), r.params.c_str(), grid, loads, c.median, c.min, c.max,
              c.median / loads, most, used);
      fflush(g_cyc);
      fprintf(stderr, "      %-20s W=%2d %9.3f cyc/load (block median %.0f, min %.0f, max %.0f)"
                      " blocks/SM<=%d on %d SMs\n",
              v.name, W, c.median / loads, c.median, c.min, c.max, most, used);
      const std::string what = std::string(v.name) + " W=" + std::to_string(W);
      check_spread(what.c_str(), out, (size_t)grid * bt,
                   [&](size_t i) { return want_of(v, G, (long long)i); });
    }
  }
  CK(cudaFree(x));
  CK(cudaFree(B));
  CK(cudaFree(out));
  CK(cudaFree(cyc));
  CK(cudaFree(smid));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
