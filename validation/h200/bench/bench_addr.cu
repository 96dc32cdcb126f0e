// bench_addr.cu - what a load's own address arithmetic costs an SM whose loads hit L1
// (family `addr`, raw data only): the `uniform` rows' coalesced L1 hits return a line a
// clock from immediate offsets, bench_l1rate's loads that each compute their address
// (a chain of IMAD.WIDE) 1.6 cycles a line, and the `mlp` rows 2.07. This separates the
// address arithmetic from the L1.
//
// k_addr<MODE>: each trip of a `#pragma unroll 1` loop issues NLD = 16 coalesced 4-byte
// L1-hit loads (ld.global.f32 in volatile asm), load u reading line u of the warp's own
// 16 lines (lane l word l, 64 KiB of rows for 64 warps' patterns, carve-out 0), the
// values summed into 8 FADD accumulators, or NLD integer results folded into them:
//   imm       the 16 loads at immediate offsets from one pointer (no address arithmetic)
//   chain     each load's pointer from the one before it, + `zero` words (one IMAD.WIDE a
//             load, each on the last: bench_l1rate's run11 loads)
//   indep     each load's pointer from the trip's base + (u * 32 + ((j ^ u) & zero))
//             words, j the trip (a LOP3 and a 64-bit multiply-add a load, independent of
//             the others; the trip keeps ptxas from hoisting them)
//   add64     the same offset in bytes as a 64-bit integer added to the base (64-bit AND
//             and add, no multiply)
//   wide      no loads: the indep addresses folded into integer accumulators (XOR of
//             their halves: the address arithmetic's own rate with two LOP3 a fold)
//   imm_wide  the imm loads and, beside them, the wide IMAD.WIDE folds (not feeding the
//             loads): whether the multiply-adds slow the L1 path when they do not give it
//             its addresses
// `zero` and `step` are 0 at run time (ptxas cannot fold them). Blocks of 128 threads, 8,
// 16, 32, 64 warps per SM (2, 4, 8, 16 blocks per SM, grid sms x blocks), 1024 trips.
// The outputs of 1024 threads spread over the grid are checked against a host
// recomputation (check_spread). The clock64 cycles of each block's loop (thread 0) go
// to addr_cycles.csv: median, min, max over blocks, per request of the SM (the block's
// cycles over warps x trips x NLD).
//
// usage: bench_addr OUT.csv CYCLES.csv [device]
#include "common.cuh"
#include <utility>

static const int NLD = 16;

enum Mode { IMM, CHAIN, INDEP, ADD64, WIDE, IMM_WIDE };

template <int OFF>
__device__ __forceinline__ float ld_imm(const float *q) {
  float v;
  asm volatile("ld.global.f32 %0, [%1+%2];" : "=f"(v) : "l"(q), "n"(OFF * 4));
  return v;
}

__device__ __forceinline__ float ld_at(const float *q) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(q));
  return v;
}

template <int MODE, size_t... U>
__device__ __forceinline__ void trip(const float *q, int j, int zero, long long zoff, float *acc,
                                     unsigned *iacc, std::index_sequence<U...>) {
  float v[NLD];
  if (MODE == IMM || MODE == IMM_WIDE) {
    ((v[U] = ld_imm<(int)U * 32>(q)), ...);
  } else if (MODE == CHAIN) {
    const float *p = q;
    ((v[U] = ld_at(p = (U == 0 ? q : p + 32 + zero))), ...);
  } else if (MODE == INDEP) {
    ((v[U] = ld_at(q + ((int)U * 32 + ((j ^ (int)U) & zero)))), ...);
  } else if (MODE == ADD64) {
    ((v[U] = ld_at((const float *)((const char *)q +
                                   ((long long)U * 128 + (((long long)(j ^ (int)U)) & zoff))))),
     ...);
  }
  if (MODE != WIDE) {
#pragma unroll
    for (int u = 0; u < NLD; ++u) acc[u % 8] += v[u];
  }
  if (MODE == WIDE || MODE == IMM_WIDE) {
    // the indep addresses, not loaded: fold each 64-bit result into an integer accumulator
    ((iacc[U % 8] ^= (unsigned)(unsigned long long)(q + ((int)U * 32 + ((j ^ (int)U) & zero))) ^
                     (unsigned)((unsigned long long)(q + ((int)U * 32 + ((j ^ (int)U) & zero))) >> 32)),
     ...);
  }
}

template <int MODE>
__global__ void __launch_bounds__(128) k_addr(const float *x, int trips, int step, int zero,
                                              long long zoff, float *out, long long *cyc,
                                              int *smid) {
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const float *q = x + (g % 64) * 16 * 32 + lane;
  float acc[8];
  unsigned iacc[8];
#pragma unroll
  for (int u = 0; u < 8; ++u) acc[u] = 0.f, iacc[u] = 0u;
  long long t0 = clock64();
#pragma unroll 1
  for (int j = 0; j < trips; ++j) {
    trip<MODE>(q, j, zero, zoff, acc, iacc, std::make_index_sequence<NLD>{});
    q += step;
  }
  long long t1 = clock64();
  float s = 0.f;
  unsigned h = 0u;
#pragma unroll
  for (int u = 0; u < 8; ++u) s += acc[u], h ^= iacc[u];
  out[blockIdx.x * (long long)blockDim.x + tid] = (MODE == WIDE || MODE == IMM_WIDE)
                                                      ? s + (float)(h & 1u)
                                                      : s;
  if (tid == 0) {
    cyc[blockIdx.x] = t1 - t0;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = (int)id;
  }
}

typedef void (*kern_t)(const float *, int, int, int, long long, float *, long long *, int *);

struct Var {
  const char *name;
  int mode;
  kern_t k;
};

#define KV(NM, M) {NM, M, k_addr<M>}
static const Var kVars[] = {KV("imm", IMM),     KV("chain", CHAIN), KV("indep", INDEP),
                            KV("add64", ADD64), KV("wide", WIDE),   KV("imm_wide", IMM_WIDE)};
#undef KV

static inline float xval(long long i) { return float(i % 4) * 0.5f; }

// Host recomputation of thread t's output: the float sum (the loads), plus the low bit
// of the folded addresses where the variant folds them (XOR of each 64-bit address's two
// halves, NLD per trip, an even number of trips: every fold cancels, the bit is 0).
static float want_of(const Var &v, int trips, long long t) {
  long long g = t >> 5;
  int lane = (int)(t & 31);
  long long base = (g % 64) * 16 * 32 + lane;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (v.mode != WIDE)
    for (int j = 0; j < trips; ++j)
      for (int u = 0; u < NLD; ++u) acc[u % 8] += xval(base + u * 32);
  float s = 0.f;
  for (int u = 0; u < 8; ++u) s += acc[u];
  return s;
}

static FILE *g_cyc = nullptr;
static const int kReps = 7;
static const int kTrips = 1024;  // even: the address folds cancel (want_of)

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
      "cycles_per_request,max_blocks_per_sm,sms_used\n");
  const int sms = b.sm_count;
  const int maxBlocks = sms * 16;
  long long *cyc;
  int *smid;
  CK(cudaMalloc(&cyc, maxBlocks * sizeof(long long)));
  CK(cudaMalloc(&smid, maxBlocks * sizeof(int)));
  const size_t xn = size_t(64) * 16 * 32;  // 64 rows of 16 lines: 128 KiB
  float *x, *out;
  CK(cudaMalloc(&x, xn * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)maxBlocks * 128 * sizeof(float)));
  fill_pattern(x, xn, 4, 0.5f);
  const int warps_l[4] = {8, 16, 32, 64};
  for (const Var &v : kVars) {
    CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    for (int W : warps_l) {
      const int bt = 128, nb = W / 4, grid = sms * nb;
      Row r;
      r.family = "addr";
      r.name = v.name;
      r.params = "warps=" + std::to_string(W) + " trips=" + std::to_string(kTrips);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false, [&] {
        v.k<<<grid, bt, 0, b.stream>>>(x, kTrips, 0, 0, 0LL, out, cyc, smid);
      });
      const long long loads = (long long)kTrips * NLD;
      r.bytes = v.mode == WIDE ? 0ull : (unsigned long long)grid * bt * loads * 4;
      r.flops = (unsigned long long)grid * bt * loads;
      emit(b, r);
      Cycles c = block_cycles(cyc, grid);
      const SmSpread sp = sm_spread(smid, grid);
      const double reqs = (double)W * loads;  // the SM's warp requests (or address sets)
      fprintf(g_cyc, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.3f,%d,%d\n", r.family.c_str(),
              r.name.c_str(), r.params.c_str(), grid, kTrips, c.median, c.min, c.max,
              c.median / reqs, sp.most, sp.used);
      fflush(g_cyc);
      fprintf(stderr, "      %-9s W=%2d %7.3f cyc/request (block median %.0f) %.2f us\n", v.name,
              W, c.median / reqs, c.median, r.t.median_us);
      const std::string what = std::string(v.name) + " W=" + std::to_string(W);
      check_spread(what.c_str(), out, (size_t)grid * bt,
                   [&](size_t i) { return want_of(v, kTrips, (long long)i); });
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
