// bench_l1rate.cu - how many L1 hits an SM returns a clock by how many distinct lines a
// warp's loads name (family `l1rate`): the `mlp` rows' full-SM L1 hits (every tap of a
// thread on one line) return a 128-byte line every 2.07 cycles, the `uniform` rows'
// coalesced L1 hits (a new line each load) every 1.0.
//
// k_l1r<LINES, OWN>: each trip of a `#pragma unroll 1` loop issues NLD = 16 independent
// coalesced 4-byte loads (ld.global.f32 in volatile asm: LDG.E, immediate offsets) from
// one pointer, which advances by `step` elements a trip (0 at run time: ptxas would
// otherwise hoist the loads out of the loop); load u adds u * zero (0 at run time:
// ptxas would otherwise merge the loads of one address into one): load u reads line
// u % LINES of the warp's LINES lines (lane l word l), and
// the values go into 8 accumulators (FADD). A warp thus names LINES distinct lines in
// every run of NLD requests. OWN 1: warp g's lines are its own (row g % 64 of 16 lines,
// 128 KiB in all); OWN 0: every warp of the launch reads the same LINES lines. The lines
// are L1 hits after the first trip (16 KiB of rows per block: carve-out 0, the largest
// L1). `warps` per SM: 8, 16, 32, 64 as 2, 4, 8, 16 blocks of 128 threads per SM (grid
// sms x blocks); trips = 1024.
// x holds (i % 4) * 0.5: every sum is exact; 1024 threads (check_spread) are checked
// against a host recomputation. The clock64 cycles of each block's loop (thread 0) go
// to the side table l1rate_cycles.csv: median, min, max over blocks, per request of
// the SM (the block's cycles over warps x trips x NLD), the most blocks any SM held and
// the SMs used.
//
// usage: bench_l1rate OUT.csv CYCLES.csv [device]
#include "common.cuh"
#include <utility>

static const int NLD = 16;

template <int OFF>
__device__ __forceinline__ float ldl(const float *q) {
  float v;
  asm volatile("ld.global.f32 %0, [%1+%2];" : "=f"(v) : "l"(q), "n"(OFF * 4));
  return v;
}

template <int LINES, size_t... U>
__device__ __forceinline__ void load_all(const float *q, int zero, float *v,
                                         std::index_sequence<U...>) {
  ((v[U] = ldl<(int)(U % LINES) * 32>(q + (int)U * zero)), ...);
}

template <int LINES, int OWN>
__global__ void __launch_bounds__(128) k_l1r(const float *x, int trips, int step, int zero, float *out,
                                             long long *cyc, int *smid) {
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const float *q = x + (OWN ? (g % 64) * 16 * 32 : 0) + lane;
  float acc[8];
#pragma unroll
  for (int u = 0; u < 8; ++u) acc[u] = 0.f;
  long long t0 = clock64();
#pragma unroll 1
  for (int j = 0; j < trips; ++j) {
    float v[NLD];
    load_all<LINES>(q, zero, v, std::make_index_sequence<NLD>{});
#pragma unroll
    for (int u = 0; u < NLD; ++u) acc[u % 8] += v[u];
    q += step;
  }
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int u = 0; u < 8; ++u) s += acc[u];
  out[blockIdx.x * (long long)blockDim.x + tid] = s;
  if (tid == 0) {
    cyc[blockIdx.x] = t1 - t0;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = (int)id;
  }
}

typedef void (*kern_t)(const float *, int, int, int, float *, long long *, int *);

struct Var {
  const char *name;
  int lines, own;
  kern_t k;
};

#define KV(NM, L, O) {NM, L, O, k_l1r<L, O>}
static const Var kVars[] = {
    KV("own_l1", 1, 1),    KV("own_l2", 2, 1),    KV("own_l4", 4, 1),
    KV("own_l8", 8, 1),    KV("own_l16", 16, 1),  KV("shared_l1", 1, 0),
    KV("shared_l2", 2, 0), KV("shared_l4", 4, 0), KV("shared_l16", 16, 0),
};
#undef KV

static inline float xval(long long i) { return float(i % 4) * 0.5f; }

// Host recomputation of thread t's output (the accumulators summed in order).
static float want_of(const Var &v, int trips, long long t) {
  long long g = t >> 5;
  int lane = (int)(t & 31);
  long long base = (v.own ? (g % 64) * 16 * 32 : 0) + lane;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < trips; ++j)
    for (int u = 0; u < NLD; ++u) acc[u % 8] += xval(base + (u % v.lines) * 32);
  float s = 0.f;
  for (int u = 0; u < 8; ++u) s += acc[u];
  return s;
}

static FILE *g_cyc = nullptr;
static const int kReps = 7;
static const int kTrips = 1024;

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
      r.family = "l1rate";
      r.name = v.name;
      r.params = "warps=" + std::to_string(W) + " trips=" + std::to_string(kTrips);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false, [&] {
        v.k<<<grid, bt, 0, b.stream>>>(x, kTrips, 0, 0, out, cyc, smid);
      });
      const long long loads = (long long)kTrips * NLD;
      r.bytes = (unsigned long long)grid * bt * loads * 4;  // bytes the lanes name
      r.flops = (unsigned long long)grid * bt * loads;
      emit(b, r);
      Cycles c = block_cycles(cyc, grid);
      const SmSpread sp = sm_spread(smid, grid);
      const int most = sp.most, used = sp.used;
      const double reqs = (double)W * loads;  // the SM's warp requests over the loop
      fprintf(g_cyc, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.3f,%d,%d\n", r.family.c_str(),
              r.name.c_str(), r.params.c_str(), grid, kTrips, c.median, c.min, c.max,
              c.median / reqs, most, used);
      fflush(g_cyc);
      fprintf(stderr, "      %-12s W=%2d %7.3f cyc/request (block median %.0f, min %.0f, max %.0f)"
                      " blocks/SM<=%d on %d SMs, %.2f us\n",
              v.name, W, c.median / reqs, c.median, c.min, c.max, most, used, r.t.median_us);
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
