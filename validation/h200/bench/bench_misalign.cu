// bench_misalign.cu - what a coalesced L1 hit costs the SM when a warp's request is not
// aligned to a 128-byte line (family `misalign`): a stencil's x - 1 and x + 1 taps, a
// convolution's shifted rows. A request of 32 floats at byte offset 4 of a line names
// two lines (and five 32-byte sectors) where the aligned one names one line (four).
//
// k_run<Mis<VEC, MIS, PAT, ZADDR>>: each trip of a `#pragma unroll 1` loop issues NLD = 16
// independent coalesced loads of VEC floats a lane (ld.global.f32 / .v2.f32 / .v4.f32 in
// volatile asm: LDG.E, LDG.E.64, LDG.E.128) from one pointer, load u at the immediate
// offset u x 32 VEC floats (its own lines: 16 distinct requests a trip) plus a shift:
//   PAT 0  every load shifted by MIS floats (0: aligned; 1, 8, 16, 31 floats for VEC 1;
//          2 for VEC 2; 4 for VEC 4: the request straddles a line boundary);
//   PAT 1  load u shifted by (u % 3 - 1) VEC floats: the -1, 0, +1 taps of a stencil row.
// ZADDR 1: load u's pointer adds u x zero (0 at run time), so that every load computes
// its own 64-bit address (an IMAD.WIDE) as a load indexed by a variable does. Warp g
// reads row g % R of the buffer (R rows of 18 x 32 VEC floats; R = 64, 32, 16 for VEC =
// 1, 2, 4: about 140 KiB in all).
// k_run<Spr<G>>: the same loop with the lanes of each request spread over 32 / G lines, G
// consecutive lanes a line (G = 1, 2, 4, 8, 16: 32 to 2 lines, 128 bytes named in all),
// group q's words at offset (q G + r) % 32 of its line q, so that the request's 32 words
// fall in 32 distinct banks (no bank conflict); load u on its own 32 / G lines
// (immediate offset u x 32 x 32 / G floats). Warp g reads row g % 2G of 16 x 32 / G lines
// (2G rows: 128 KiB in all).
// Every variant: the pointer advances by `step` (0 at run time: ptxas would otherwise
// hoist the loads out of the loop); L1 hits after the first trip (carve-out 0, the largest
// L1); the values go into 8 accumulators (FADD). `warps` per SM: 1 and 4 (one block of
// 32 x warps), 8, 16, 32, 64 (2, 4, 8, 16 blocks of 128); trips = 1024.
// x holds (i % 4) x 0.5: every sum is exact; 1024 threads are checked against a host
// recomputation. The clock64 cycles of each block's loop (thread 0) go to the side table
// misalign_cycles.csv: median, min, max over blocks, per request of the SM (the block's
// median cycles over the SM's warps x trips x NLD requests), the most blocks any SM held
// and the SMs used.
//
// usage: bench_misalign OUT.csv CYCLES.csv [device]
//        MISALIGN_PROFILE=1 bench_misalign ...: one launch of each variant (64 warps per SM,
//        64 trips) and no rows, for ncu
#include "common.cuh"
#include <utility>

static const int NLD = 16;
static const int ROWLINES = 18;  // 16 requests' lines, one before (PAT 1's -1), one after

template <int VEC> struct Ld;
template <> struct Ld<1> {
  template <int OFF> static __device__ __forceinline__ float at(const float *q) {
    float v;
    asm volatile("ld.global.f32 %0, [%1+%2];" : "=f"(v) : "l"(q), "n"(OFF * 4));
    return v;
  }
};
template <> struct Ld<2> {
  template <int OFF> static __device__ __forceinline__ float at(const float *q) {
    float a, b;
    asm volatile("ld.global.v2.f32 {%0, %1}, [%2+%3];" : "=f"(a), "=f"(b) : "l"(q), "n"(OFF * 4));
    return a + b;
  }
};
template <> struct Ld<4> {
  template <int OFF> static __device__ __forceinline__ float at(const float *q) {
    float a, b, c, d;
    asm volatile("ld.global.v4.f32 {%0, %1, %2, %3}, [%4+%5];"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(q), "n"(OFF * 4));
    return (a + b) + (c + d);
  }
};

// The shift of load u, in floats (PAT 1: -1, 0, +1 elements of VEC floats).
__host__ __device__ constexpr int shift_of(int vec, int mis, int pat, int u) {
  return pat == 0 ? mis : (u % 3 - 1) * vec;
}

template <int VEC, int MIS, int PAT, int ZADDR, size_t... U>
__device__ __forceinline__ void load_all(const float *q, int zero, float *v,
                                         std::index_sequence<U...>) {
  ((v[U] = Ld<VEC>::template at<(int)U * 32 * VEC + shift_of(VEC, MIS, PAT, (int)U)>(
        ZADDR ? q + (int)U * zero : q)),
   ...);
}

__host__ __device__ constexpr int rows_of(int vec) { return vec == 1 ? 64 : vec == 2 ? 32 : 16; }

// The loads of k_run<Mis<VEC, MIS, PAT, ZADDR>>: warp g's row g % R, the row's first line left
// for PAT 1's -1 tap.
template <int VEC, int MIS, int PAT, int ZADDR> struct Mis {
  static __host__ __device__ long long base(long long g, int lane) {
    return (g % rows_of(VEC)) * ROWLINES * 32 * VEC + 32 * VEC + lane * VEC;
  }
  static __device__ __forceinline__ void load(const float *q, int zero, float *v) {
    load_all<VEC, MIS, PAT, ZADDR>(q, zero, v, std::make_index_sequence<NLD>{});
  }
};

template <int G, size_t... U>
__device__ __forceinline__ void load_spread(const float *q, float *v, std::index_sequence<U...>) {
  ((v[U] = Ld<1>::template at<(int)U * 32 * (32 / G)>(q)), ...);
}

__host__ __device__ constexpr int spr_rows(int g) { return g * 64 / 32 < 1 ? 1 : g * 64 / 32; }
__host__ __device__ constexpr long long spr_row_floats(int g) { return 16LL * 32 * (32 / g); }

// The loads of k_run<Spr<G>>: warp g's row g % 2G; lane l's word at line l / G, offset
// ((l / G) G + l % G) % 32 = l % 32.
template <int G> struct Spr {
  static __host__ __device__ long long base(long long g, int lane) {
    return (g % spr_rows(G)) * spr_row_floats(G) + (long long)(lane / G) * 32 + lane % 32;
  }
  static __device__ __forceinline__ void load(const float *q, int zero, float *v) {
    load_spread<G>(q + zero, v, std::make_index_sequence<NLD>{});
  }
};

// The timed loop of every variant: P's 16 loads a trip into 8 accumulators.
template <class P>
__global__ void __launch_bounds__(128) k_run(const float *x, int trips, int step, int zero,
                                             float *out, long long *cyc, int *smid) {
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const float *q = x + P::base(g, lane);
  float acc[8];
#pragma unroll
  for (int u = 0; u < 8; ++u) acc[u] = 0.f;
  long long t0 = clock64();
#pragma unroll 1
  for (int j = 0; j < trips; ++j) {
    float v[NLD];
    P::load(q, zero, v);
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
  int vec, mis, pat, zaddr;
  kern_t k;
};

#define KV(NM, V, M, P, Z) {NM, V, M, P, Z, k_run<Mis<V, M, P, Z>>}
static const Var kVars[] = {
    KV("f1_m0", 1, 0, 0, 0),   KV("f1_m1", 1, 1, 0, 0),   KV("f1_m8", 1, 8, 0, 0),
    KV("f1_m16", 1, 16, 0, 0), KV("f1_m31", 1, 31, 0, 0), KV("f1_taps", 1, 0, 1, 0),
    KV("f2_m0", 2, 0, 0, 0),   KV("f2_m2", 2, 2, 0, 0),   KV("f2_taps", 2, 0, 1, 0),
    KV("f4_m0", 4, 0, 0, 0),   KV("f4_m4", 4, 4, 0, 0),   KV("f4_taps", 4, 0, 1, 0),
    KV("f1_m0_addr", 1, 0, 0, 1), KV("f1_m1_addr", 1, 1, 0, 1), KV("f1_taps_addr", 1, 0, 1, 1),
    {"f1_g1", 1, 1, 2, 0, k_run<Spr<1>>},   {"f1_g2", 1, 2, 2, 0, k_run<Spr<2>>},
    {"f1_g4", 1, 4, 2, 0, k_run<Spr<4>>},   {"f1_g8", 1, 8, 2, 0, k_run<Spr<8>>},
    {"f1_g16", 1, 16, 2, 0, k_run<Spr<16>>},
};
#undef KV

static inline float xval(long long i) { return float(i % 4) * 0.5f; }

// Host recomputation of thread t's output (the accumulators summed in order, each
// vector load's components added as the kernel adds them).
static float want_of(const Var &v, int trips, long long t) {
  const long long g = t >> 5;
  const int lane = (int)(t & 31);
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (v.pat == 2) {  // Spr<G = v.mis>
    const long long b = (g % spr_rows(v.mis)) * spr_row_floats(v.mis) + (lane / v.mis) * 32 + lane % 32;
    for (int j = 0; j < trips; ++j)
      for (int u = 0; u < NLD; ++u) acc[u % 8] += xval(b + (long long)u * 32 * (32 / v.mis));
    float s = 0.f;
    for (int u = 0; u < 8; ++u) s += acc[u];
    return s;
  }
  const long long base = (g % rows_of(v.vec)) * ROWLINES * 32 * v.vec + 32 * v.vec + lane * v.vec;
  for (int j = 0; j < trips; ++j)
    for (int u = 0; u < NLD; ++u) {
      const long long e = base + u * 32 * v.vec + shift_of(v.vec, v.mis, v.pat, u);
      float x;
      if (v.vec == 1)
        x = xval(e);
      else if (v.vec == 2)
        x = xval(e) + xval(e + 1);
      else
        x = (xval(e) + xval(e + 1)) + (xval(e + 2) + xval(e + 3));
      acc[u % 8] += x;
    }
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
  // the largest R x row (misaligned rows; the spread rows take 32768 floats), and a line
  const size_t xn = size_t(64) * ROWLINES * 32 + 4 * 32;
  float *x, *out;
  CK(cudaMalloc(&x, xn * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)maxBlocks * 128 * sizeof(float)));
  fill_pattern(x, xn, 4, 0.5f);
  if (getenv("MISALIGN_PROFILE")) {
    // one launch of every variant at 64 warps per SM, for a profiler (ncu) to count the
    // L1's requests, sectors and wavefronts; no rows
    for (const Var &v : kVars) {
      CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
      v.k<<<sms * 16, 128, 0, b.stream>>>(x, 64, 0, 0, out, cyc, smid);
      CK_LAUNCH();
      CK(cudaStreamSynchronize(b.stream));
    }
    fclose(g_cyc);
    bench_close(b);
    return 0;
  }
  const int warps_l[6] = {1, 4, 8, 16, 32, 64};
  for (const Var &v : kVars) {
    CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    for (int W : warps_l) {
      const int bt = W < 4 ? 32 * W : 128, nb = W * 32 / bt, grid = sms * nb;
      Row r;
      r.family = "misalign";
      r.name = v.name;
      r.params = "warps=" + std::to_string(W) + " trips=" + std::to_string(kTrips);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false, [&] {
        v.k<<<grid, bt, 0, b.stream>>>(x, kTrips, 0, 0, out, cyc, smid);
      });
      const long long loads = (long long)kTrips * NLD;
      r.bytes = (unsigned long long)grid * bt * loads * 4 * v.vec;  // bytes the lanes name
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
      fprintf(stderr, "      %-14s W=%2d %7.3f cyc/request (block median %.0f, min %.0f, max %.0f)"
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
