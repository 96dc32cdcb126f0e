// bench_gridstride.cu - the DRAM latency a grid-stride loop sees under load (family
// `gridstride`): a read-only grid-stride sum whose warps keep exactly L loads in flight
// (`#pragma unroll 1`: a trip's adds wait for its loads, the next trip's loads come
// after them), at 1 .. 64 warps per SM, so that the bytes in flight per SM and the
// bandwidth they reach map the loaded-latency curve.
//   gs       grid = 132 x B blocks of `block` threads pinned to B per SM with dynamic
//            shared memory (W = 1, 2, 4 warps: blocks of 32, 64, 128 threads, one per
//            SM; W = 8 .. 64: blocks of 256, 1 .. 8 per SM; W = 64 also as 2 x 1024,
//            16 x 128, 32 x 64), L = 1, 2, 4, 8 independent loads a trip, 4-byte (float)
//            or 16-byte (float4), load j of trip t at g + (t L + j) T (T threads: each
//            load of a warp is one coalesced request, the L loads far apart). ws = dram:
//            a 1 GiB buffer read at most once, the L2 emptied of it before every
//            repetition by reading a 1 GiB scratch buffer (clean lines: no write-back);
//            ws = l2: a 16 MiB buffer, warm from the warm-up launches.
//   near     as gs (4-byte loads, L = 2, 4, 8, DRAM) with a warp's L loads of a trip on
//            L consecutive 128-byte lines (one DRAM page) instead of far apart.
//   nat      the plain loop `for (size_t i = gid; i < n; i += gridDim.x * blockDim.x)
//            s += in[i]` over n = 2^22 .. 2^28 u32 (what nvcc makes of it: one LDG a
//            trip, not unrolled), 8 blocks of 256 per SM, the L2 emptied before every
//            repetition by the scratch read (flush=clean) or by the usual 1 GiB
//            cudaMemset (flush=dirty: the L2 then holds dirty scratch lines that the
//            kernel's misses evict to DRAM).
// Every row is timed with CUDA events (median of 7 after 2 warm-ups) on a kernel
// without instrumentation; then one more launch with clock64 stamps gives the side
// table CYCLES.csv: per warp (lane 0) the loop's cycles over its trips (median, p10,
// p90 over warps), and around the first load of every trip the cycles from before the
// load to after its value is used (the loaded latency seen by one load).
//
// usage: bench_gridstride OUT.csv CYCLES.csv [device]
#include "common.cuh"

static FILE *g_cy = nullptr;

// Per-warp stamp buffers (lane 0 of each warp writes): loop cycles, probed load cycles.
struct WarpStamps {
  long long *loop, *probe;
};

__device__ __forceinline__ float vsum(float v) { return v; }
__device__ __forceinline__ float vsum(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// A use of v that the compiler keeps before the next clock read.
__device__ __forceinline__ void use(float &s, float v) {
  asm volatile("add.f32 %0, %0, %1;" : "+f"(s) : "f"(v));
}
__device__ __forceinline__ void use(float &s, float4 v) {
  asm volatile("add.f32 %0, %0, %1;" : "+f"(s) : "f"(v.x));
  s += (v.y + v.z) + v.w;
}

// Grid-stride sum, L loads a trip. NEAR: load j of a warp at the warp's L x 32-element
// run (consecutive lines); else at g + j T. Elements of type V, index & mask.
template <typename V, int L, bool NEAR, bool S>
__global__ void k_gs(const V *__restrict__ a, float *out, unsigned T, unsigned trips,
                     unsigned mask, WarpStamps ts) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned lane = threadIdx.x & 31;
  float s = 0;
  unsigned i = NEAR ? (g - lane) * L + lane : g;
  long long t0 = 0, pr = 0;
  if (S) t0 = clk();
#pragma unroll 1
  for (unsigned t = 0; t < trips; ++t) {
    V v[L];
    if (S) {
      long long p0 = clk();
      v[0] = a[i & mask];
      float u = 0;
      use(u, v[0]);
      pr += clk() - p0;
      s += u;
#pragma unroll
      for (int j = 1; j < L; ++j) v[j] = a[(i + j * (NEAR ? 32u : T)) & mask];
#pragma unroll
      for (int j = 1; j < L; ++j) s += vsum(v[j]);
    } else {
#pragma unroll
      for (int j = 0; j < L; ++j) v[j] = a[(i + j * (NEAR ? 32u : T)) & mask];
#pragma unroll
      for (int j = 0; j < L; ++j) s += vsum(v[j]);
    }
    i += L * T;
  }
  if (S && lane == 0) {
    unsigned w = g >> 5;
    ts.loop[w] = clk() - t0;
    ts.probe[w] = pr;
  }
  out[g] = s;
}

// The plain grid-stride loop over n u32 (as k_red_shfl / k_red_atomic_thread write it).
template <bool S>
__global__ void k_nat(const unsigned *__restrict__ in, size_t n, unsigned *out, WarpStamps ts) {
  size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  unsigned s = 0;
  long long t0 = 0;
  if (S) t0 = clk();
  for (size_t i = g; i < n; i += (size_t)gridDim.x * blockDim.x) s += in[i];
  if (S && (threadIdx.x & 31) == 0) {
    ts.loop[g >> 5] = clk() - t0;
    ts.probe[g >> 5] = 0;
  }
  out[g] = s;
}

// Reads the 1 GiB scratch buffer (float4, grid-stride): leaves the L2 holding clean
// scratch lines, so a launch after it finds none of its data there and no dirty line.
__global__ void k_flush_read(const float4 *__restrict__ p, size_t n, float *sink) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  float s = 0;
  for (; i < n; i += (size_t)gridDim.x * blockDim.x) s += vsum(p[i]);
  if (s == -1.0f) *sink = s;  // never: the pattern is non-negative
}

// ---------------------------------------------------------------- host side
static const size_t kN = size_t(1) << 28;  // floats in the DRAM buffer (1 GiB)
static const size_t kNl2 = size_t(1) << 22;  // floats in the L2 buffer (16 MiB)
static const size_t kMaxWarps = size_t(1) << 16;

struct Ctx {
  Bench b;
  float *A, *O;
  float *sink;
  WarpStamps ts;
};

static void flush_clean(Ctx &c) {
  k_flush_read<<<c.b.sm_count * 8, 256, 0, c.b.stream>>>((const float4 *)c.b.scratch,
                                                          kScratchBytes / 16, c.sink);
  CK_LAUNCH();
}

static double pct(std::vector<double> v, double p) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * (v.size() - 1) + 0.5))];
}

// Time a row (`launch(false)`; flush 0: none, 1: clean read, 2: dirty memset), then
// one stamped launch (`launch(true)`) for the side table.
static void run_row(Ctx &c, Row &r, int flush, long long warps, long long trips,
                    long long inflight_sm, const std::function<void(bool)> &launch) {
  std::function<void()> pre = nullptr;
  if (flush == 1) pre = [&] { flush_clean(c); };
  r.t = time_case(c.b, 7, flush == 2, [&] { launch(false); }, pre);
  emit(c.b, r);
  if (flush == 1) flush_clean(c);
  if (flush == 2) flush_l2(c.b);
  launch(true);
  CK_LAUNCH();
  CK(cudaStreamSynchronize(c.b.stream));
  std::vector<long long> lp(warps), pb(warps);
  CK(cudaMemcpy(lp.data(), c.ts.loop, warps * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(pb.data(), c.ts.probe, warps * 8, cudaMemcpyDeviceToHost));
  std::vector<double> cyc(warps), prb(warps);
  for (long long w = 0; w < warps; ++w) {
    cyc[w] = double(lp[w]) / double(trips > 0 ? trips : 1);
    prb[w] = double(pb[w]) / double(trips > 0 ? trips : 1);
  }
  double gbps = r.bytes / (r.t.median_us * 1e3);
  fprintf(g_cy, "%s,%s,%s,%lld,%lld,%.3f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f\n",
          r.family.c_str(), r.name.c_str(), r.params.c_str(), trips, inflight_sm,
          r.t.median_us, gbps, pct(cyc, 0.5), pct(cyc, 0.1), pct(cyc, 0.9), pct(prb, 0.5),
          pct(prb, 0.1), pct(prb, 0.9));
  fflush(g_cy);
  fprintf(stderr, "      %-10s %-40s %8.1f GB/s trip %7.1f probe %7.1f cycles\n",
          r.name.c_str(), r.params.c_str(), gbps, pct(cyc, 0.5), pct(prb, 0.5));
}

typedef void (*kf4_t)(const float *, float *, unsigned, unsigned, unsigned, WarpStamps);
typedef void (*kf16_t)(const float4 *, float *, unsigned, unsigned, unsigned, WarpStamps);

// The four instantiations of k_gs for (width, L, near): [S].
static void pick(int L, bool near, kf4_t k4[2], kf16_t k16[2]) {
#define PICK(LL)                                                                   \
  if (L == LL) {                                                                   \
    if (near) {                                                                    \
      k4[0] = k_gs<float, LL, true, false>;                                        \
      k4[1] = k_gs<float, LL, true, true>;                                         \
      k16[0] = k_gs<float4, LL, true, false>;                                      \
      k16[1] = k_gs<float4, LL, true, true>;                                       \
    } else {                                                                       \
      k4[0] = k_gs<float, LL, false, false>;                                       \
      k4[1] = k_gs<float, LL, false, true>;                                        \
      k16[0] = k_gs<float4, LL, false, false>;                                     \
      k16[1] = k_gs<float4, LL, false, true>;                                      \
    }                                                                              \
  }
  PICK(1) PICK(2) PICK(4) PICK(8)
#undef PICK
}

static std::string p2(size_t n) {
  int k = 0;
  while ((size_t(1) << k) < n) ++k;
  return "2^" + std::to_string(k);
}

// One gs/near row: W warps per SM as `bpsm` blocks of `block`, L loads of `width`
// bytes, ws 0 = dram, 1 = l2.
static void gs_row(Ctx &c, const char *kind, int block, int bpsm, int L, int width, int ws) {
  Bench &b = c.b;
  bool near = kind[0] == 'n';
  kf4_t k4[2] = {nullptr, nullptr};
  kf16_t k16[2] = {nullptr, nullptr};
  pick(L, near, k4, k16);
  const void *kf[2] = {width == 16 ? (const void *)k16[0] : (const void *)k4[0],
                       width == 16 ? (const void *)k16[1] : (const void *)k4[1]};
  size_t dyn = dyn_smem_for_bpsm(b.prop, bpsm);
  for (int s = 0; s < 2; ++s)
    CK(cudaFuncSetAttribute(kf[s], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
  unsigned blocks = (unsigned)(b.sm_count * bpsm), T = blocks * block;
  size_t nf = ws == 0 ? kN : kNl2;
  size_t nv = nf * 4 / width;  // elements of type V in the buffer
  unsigned mask = (unsigned)(nv - 1);
  size_t per_trip = (size_t)T * L * width;  // bytes the grid reads a trip
  size_t target = ws == 0 ? (size_t(1) << 30) : (size_t(256) << 20);
  long long trips = (long long)std::max<size_t>(16, std::min<size_t>(1024, target / per_trip));
  if (ws == 0) trips = std::min<long long>(trips, (long long)(nv / ((size_t)T * L)));
  int W = bpsm * block / 32;
  Row r;
  r.family = "gridstride";
  r.name = std::string(kind) + std::to_string(width) + "_l" + std::to_string(L);
  r.params = std::string("ws=") + (ws ? "l2" : "dram") + " W=" + std::to_string(W) +
             " block=" + std::to_string(block) + " bpsm=" + std::to_string(bpsm) +
             " trips=" + std::to_string(trips);
  row_shape(r, kf[0], dim3(blocks), dim3(block), dyn);
  r.bytes = (unsigned long long)trips * per_trip;
  r.flops = (unsigned long long)trips * L * T * (width == 16 ? 4 : 1);
  const float *A = c.A;
  float *O = c.O;
  WarpStamps ts = c.ts;
  auto launch = [&, blocks, block, T, trips, mask, dyn](bool s) {
    if (width == 16)
      k16[s]<<<blocks, block, dyn, b.stream>>>((const float4 *)A, O, T, (unsigned)trips, mask,
                                                ts);
    else
      k4[s]<<<blocks, block, dyn, b.stream>>>(A, O, T, (unsigned)trips, mask, ts);
  };
  run_row(c, r, ws == 0 ? 1 : 0, (long long)T / 32, trips, (long long)W * L * 32 * width,
          launch);
  // the buffer holds (i % 4) * 0.5: each 4-byte load of thread g adds (g % 4) * 0.5 (far
  // layout, T a multiple of 4; near: lane % 4), a float4 load 3
  check_spread(r.name.c_str(), O, T, [&](size_t g) {
    float per = width == 16 ? 3.0f : float(g % 4) * 0.5f;
    return per * float(trips * L);
  });
}

int main(int argc, char **argv) {
  Ctx c;
  Bench &b = c.b;
  g_cy = bench_open_side(b, argc, argv, "CYCLES.csv",
                         "family,name,params,trips,inflight_bytes_sm,median_us,gbps,"
                         "trip_cycles_med,trip_cycles_p10,trip_cycles_p90,probe_cycles_med,"
                         "probe_cycles_p10,probe_cycles_p90\n");
  CK(cudaMalloc(&c.A, kN * 4));
  CK(cudaMalloc(&c.O, size_t(1) << 24));
  CK(cudaMalloc(&c.sink, 64));
  CK(cudaMalloc(&c.ts.loop, kMaxWarps * 8));
  CK(cudaMalloc(&c.ts.probe, kMaxWarps * 8));
  // (i % 4) * 0.5 everywhere; the float4 of 4 consecutive floats sums to 3
  fill_pattern(c.A, kN, 4, 0.5f);

  // ---------------------------------------------------------------- gs: W x L x width x ws
  struct Shape {
    int block, bpsm;
  };
  const Shape shapes[7] = {{32, 1}, {64, 1}, {128, 1}, {256, 1}, {256, 2}, {256, 4}, {256, 8}};
  for (int ws = 0; ws < 2; ++ws)
    for (int width : {4, 16})
      for (int L : {1, 2, 4, 8})
        for (const Shape &s : shapes) gs_row(c, "gs", s.block, s.bpsm, L, width, ws);
  // 64 warps per SM from other block sizes; 48 warps
  for (int ws = 0; ws < 2; ++ws)
    for (int L : {1, 4}) {
      gs_row(c, "gs", 1024, 2, L, 4, ws);
      gs_row(c, "gs", 128, 16, L, 4, ws);
      gs_row(c, "gs", 64, 32, L, 4, ws);
      gs_row(c, "gs", 256, 6, L, 4, ws);
    }
  // ---------------------------------------------------------------- near: one page a trip
  for (int L : {2, 4, 8})
    for (const Shape &s : shapes) gs_row(c, "near", s.block, s.bpsm, L, 4, 0);

  // ---------------------------------------------------------------- nat: the plain loop
  for (int flush = 1; flush <= 2; ++flush)
    for (int lg : {22, 24, 25, 26, 27, 28}) {
      size_t n = size_t(1) << lg;
      unsigned blocks = (unsigned)(b.sm_count * 8);
      size_t T = (size_t)blocks * 256;
      Row r;
      r.family = "gridstride";
      r.name = "nat_u32";
      r.params = "n=" + p2(n) + " block=256 bpsm=8 flush=" + (flush == 1 ? "clean" : "dirty");
      row_shape(r, k_nat<false>, dim3(blocks), dim3(256), 0);
      r.bytes = 4ull * n;
      const unsigned *in = (const unsigned *)c.A;
      unsigned *O = (unsigned *)c.O;
      WarpStamps ts = c.ts;
      long long trips = (long long)((n + T - 1) / T);
      run_row(c, r, flush, (long long)T / 32, trips, 8 * 8 * 128, [&, blocks, n](bool s) {
        if (s) k_nat<true><<<blocks, 256, 0, b.stream>>>(in, n, O, ts);
        else k_nat<false><<<blocks, 256, 0, b.stream>>>(in, n, O, ts);
      });
      // u32 view of (i % 4) * 0.5f: thread g's elements all have i % 4 == g % 4
      std::vector<unsigned> h(T);
      CK(cudaMemcpy(h.data(), O, T * 4, cudaMemcpyDeviceToHost));
      for (size_t g = 0; g < T; g += 997) {
        float f = float(g % 4) * 0.5f;
        unsigned bits;
        memcpy(&bits, &f, 4);
        size_t cnt = g < n ? (n - g + T - 1) / T : 0;
        REQUIRE(h[g] == (unsigned)(bits * cnt), "nat_u32 n=%zu: out[%zu] = %u, expected %u",
                n, g, h[g], (unsigned)(bits * cnt));
      }
    }

  CK(cudaFree(c.A));
  CK(cudaFree(c.O));
  CK(cudaFree(c.sink));
  CK(cudaFree(c.ts.loop));
  CK(cudaFree(c.ts.probe));
  fclose(g_cy);
  bench_close(b);
  return 0;
}
