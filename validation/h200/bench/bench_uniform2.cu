// bench_uniform2.cu - what a warp's independent global loads cost when few warps run on
// an SM (loads in flight per warp, L1 and L2 hits), and whether a coalesced L1 hit costs
// the L1 the same through LDG.E, LDG.E.CONSTANT and LDG.E.STRONG.SM (family `uniform2`).
//
// k_u2<VEC, COAL, NIND, L2, LDM>: each trip of the source loop (`#pragma unroll 1`: the
// compiled loop is the source loop, trip by trip) issues NIND independent loads from one
// pointer q at immediate offsets u * S (u = 0..NIND-1, S the step below), then adds each
// value into its own accumulator (a float4's four components: 4 FADD); q advances by
// NIND * S a trip. A warp thus keeps NIND loads in flight and waits for them once a trip.
// Warp g (global warp index) reads
//   uniform (COAL 0)   row g % rg, every lane the same element;
//   coalesced (COAL 1) row g % rg, lane l element l of each 32-element group;
//   L1 rows (L2 0)     4096 loads a thread: uniform, rows of 1 KiB (M = 256 / VEC elements,
//                      S = 1), rg = 64; coalesced, rows of 32 groups (S = 32, one line a
//                      float, four a float4), rg = 4; each row re-read 4096 / M times;
//   L2 rows (L2 1)     512 loads a thread, one pass, each its own line (uniform S = 32 /
//                      VEC, coalesced S = 32), rg = 128 rows (8 or 16 MiB): no line is
//                      re-read by its SM; the rows stay in the L2 between repetitions.
// LDM: 0 a plain dereference of `const float *` (LDG.E), 1 ld.global.nc (LDG.E.CONSTANT,
// what __ldg and const __restrict__ give), 2 ld.global.ca (LDG.E.STRONG.SM), both in asm
// with the immediate offset in the operand.
// `warps` per SM: 1, 2, 4 as one block of 32 x W threads, 16 and 32 as W / 4 blocks of
// 128 (grid sms x blocks), no shared memory, carve-out 0 (8 blocks of 128 fit an SM).
// x holds (i % 4) * 0.5: every sum is exact in float; 1024 threads (check_spread) are
// checked against a host recomputation. The clock64 cycles of each block's loop
// (thread 0) go to the side table uniform2_cycles.csv: median, min, max over blocks, per
// load of a thread, the most blocks any SM held and the SMs used.
//
// usage: bench_uniform2 OUT.csv CYCLES.csv [device]
#include "common.cuh"
#include <utility>

template <int VEC>
struct Vt;
template <>
struct Vt<1> {
  typedef float T;
  static __device__ __forceinline__ float sum(float v) { return v; }
};
template <>
struct Vt<4> {
  typedef float4 T;
  static __device__ __forceinline__ float sum(float4 v) { return (v.x + v.y) + (v.z + v.w); }
};

// One load of q[OFF] (OFF in elements of T, a compile-time constant).
template <int LDM, int OFF>
__device__ __forceinline__ float ld1(const float *q) {
  if constexpr (LDM == 1) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1+%2];" : "=f"(v) : "l"(q), "n"(OFF * 4));
    return v;
  }
  if constexpr (LDM == 2) {
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1+%2];" : "=f"(v) : "l"(q), "n"(OFF * 4));
    return v;
  }
  return q[OFF];
}
template <int LDM, int OFF>
__device__ __forceinline__ float4 ld4(const float4 *q) {
  if constexpr (LDM == 1) {
    float4 v;
    asm volatile("ld.global.nc.v4.f32 {%0,%1,%2,%3}, [%4+%5];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(q), "n"(OFF * 16));
    return v;
  }
  if constexpr (LDM == 2) {
    float4 v;
    asm volatile("ld.global.ca.v4.f32 {%0,%1,%2,%3}, [%4+%5];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(q), "n"(OFF * 16));
    return v;
  }
  return q[OFF];
}
template <int LDM, int OFF>
__device__ __forceinline__ float ldv(const float *q) { return ld1<LDM, OFF>(q); }
template <int LDM, int OFF>
__device__ __forceinline__ float4 ldv(const float4 *q) { return ld4<LDM, OFF>(q); }

template <int VEC, int LDM, int S, typename T, size_t... U>
__device__ __forceinline__ void load_all(const T *q, T *v, std::index_sequence<U...>) {
  ((v[U] = ldv<LDM, (int)U * S>(q)), ...);
}

template <int VEC, int COAL, int L2>
struct Step {
  static constexpr int S = COAL ? 32 : (L2 ? 32 / VEC : 1);
};

template <int VEC, int COAL, int NIND, int L2, int LDM>
__global__ void __launch_bounds__(128) k_u2(const float *x, long long pitch, int rg, int trips,
                                            int passes, float *out, long long *cyc, int *smid) {
  typedef typename Vt<VEC>::T T;
  constexpr int S = Step<VEC, COAL, L2>::S;
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const T *p = (const T *)x + (g % rg) * pitch + (COAL ? lane : 0);
  float acc[NIND];
#pragma unroll
  for (int u = 0; u < NIND; ++u) acc[u] = 0.f;
  long long t0 = clock64();
  for (int r = 0; r < passes; ++r) {
    const T *q = p;
#pragma unroll 1
    for (int j = 0; j < trips; ++j) {
      T v[NIND];
      load_all<VEC, LDM, S>(q, v, std::make_index_sequence<NIND>{});
#pragma unroll
      for (int u = 0; u < NIND; ++u) acc[u] += Vt<VEC>::sum(v[u]);
      q += NIND * S;
    }
  }
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int u = 0; u < NIND; ++u) s += acc[u];
  out[blockIdx.x * (long long)blockDim.x + tid] = s;
  if (tid == 0) {
    cyc[blockIdx.x] = t1 - t0;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = (int)id;
  }
}

typedef void (*kern_t)(const float *, long long, int, int, int, float *, long long *, int *);

struct Var {
  const char *name;
  int vec, coal, nind, l2, ldm;
  kern_t k;
};

#define KV(NM, V, C, N, L, M) {NM, V, C, N, L, M, k_u2<V, C, N, L, M>}
static const Var kVars[] = {
    // loads in flight per warp: uniform and coalesced floats, L1 and L2 hits
    KV("uni_l1_n1", 1, 0, 1, 0, 0),   KV("uni_l1_n2", 1, 0, 2, 0, 0),
    KV("uni_l1_n4", 1, 0, 4, 0, 0),   KV("uni_l1_n8", 1, 0, 8, 0, 0),
    KV("uni_l1_n16", 1, 0, 16, 0, 0), KV("coal_l1_n1", 1, 1, 1, 0, 0),
    KV("coal_l1_n2", 1, 1, 2, 0, 0),  KV("coal_l1_n4", 1, 1, 4, 0, 0),
    KV("coal_l1_n8", 1, 1, 8, 0, 0),  KV("coal_l1_n16", 1, 1, 16, 0, 0),
    KV("uni_l2_n1", 1, 0, 1, 1, 0),   KV("uni_l2_n2", 1, 0, 2, 1, 0),
    KV("uni_l2_n4", 1, 0, 4, 1, 0),   KV("uni_l2_n8", 1, 0, 8, 1, 0),
    KV("uni_l2_n16", 1, 0, 16, 1, 0), KV("coal_l2_n1", 1, 1, 1, 1, 0),
    KV("coal_l2_n2", 1, 1, 2, 1, 0),  KV("coal_l2_n4", 1, 1, 4, 1, 0),
    KV("coal_l2_n8", 1, 1, 8, 1, 0),  KV("coal_l2_n16", 1, 1, 16, 1, 0),
    // the instruction: float4, and ld.global.nc / ld.global.ca, 8 in flight, L1 hits
    KV("uni_l1_f4_n8", 4, 0, 8, 0, 0),     KV("coal_l1_f4_n8", 4, 1, 8, 0, 0),
    KV("uni_l1_n8_ldg", 1, 0, 8, 0, 1),    KV("coal_l1_n8_ldg", 1, 1, 8, 0, 1),
    KV("uni_l1_f4_n8_ldg", 4, 0, 8, 0, 1), KV("coal_l1_f4_n8_ldg", 4, 1, 8, 0, 1),
    KV("uni_l1_n8_ca", 1, 0, 8, 0, 2),     KV("coal_l1_n8_ca", 1, 1, 8, 0, 2),
    KV("uni_l1_f4_n8_ca", 4, 0, 8, 0, 2),  KV("coal_l1_f4_n8_ca", 4, 1, 8, 0, 2),
};
#undef KV

struct Geo {
  long long pitch;  // elements of the variant's type between rows
  int rg, M, trips, passes;
};

static Geo geo_of(const Var &v) {
  Geo g;
  if (v.l2) {
    g.M = 512;
    g.passes = 1;
    g.rg = 128;
    g.pitch = (long long)g.M * (v.coal ? 32 : 32 / v.vec);
  } else if (v.coal) {
    g.M = 32;
    g.passes = 4096 / g.M;
    g.rg = 4;
    g.pitch = (long long)g.M * 32;
  } else {
    g.M = 256 / v.vec;
    g.passes = 4096 / g.M;
    g.rg = 64;
    g.pitch = g.M;
  }
  g.trips = g.M / v.nind;
  return g;
}

static inline float xval(long long i) { return float(i % 4) * 0.5f; }

// Host recomputation of thread t's output.
static float want_of(const Var &v, const Geo &G, long long t) {
  long long g = t >> 5;
  int lane = (int)(t & 31);
  int S = v.coal ? 32 : (v.l2 ? 32 / v.vec : 1);
  long long base = (g % G.rg) * G.pitch + (v.coal ? lane : 0);  // in elements of T
  double acc = 0;
  for (int r = 0; r < G.passes; ++r)
    for (int j = 0; j < G.M; ++j) {
      long long e = (base + (long long)j * S) * v.vec;
      for (int c = 0; c < v.vec; ++c) acc += xval(e + c);
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
  float *x, *out;
  CK(cudaMalloc(&x, xn * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)maxBlocks * 128 * sizeof(float)));
  fill_pattern(x, xn, 4, 0.5f);
  const int warps_l[5] = {1, 2, 4, 16, 32};
  for (const Var &v : kVars) {
    CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    const Geo G = geo_of(v);
    REQUIRE((size_t)G.rg * G.pitch * v.vec <= xn, "%s: x too small", v.name);
    for (int W : warps_l) {
      const int bt = W <= 4 ? 32 * W : 128, nb = W <= 4 ? 1 : W / 4, grid = sms * nb;
      const long long loads = (long long)G.M * G.passes;
      Row r;
      r.family = "uniform2";
      r.name = v.name;
      r.params = "warps=" + std::to_string(W) + " loads=" + std::to_string(loads);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false, [&] {
        v.k<<<grid, bt, 0, b.stream>>>(x, G.pitch, G.rg, G.trips, G.passes, out, cyc, smid);
      });
      r.bytes = (unsigned long long)grid * bt * loads * 4 * v.vec;  // bytes the lanes name
      r.flops = (unsigned long long)grid * bt * loads * v.vec;
      emit(b, r);
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
  CK(cudaFree(out));
  CK(cudaFree(cyc));
  CK(cudaFree(smid));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
