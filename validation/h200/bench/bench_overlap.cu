// bench_overlap.cu - how much of a loop trip's dependent arithmetic overlaps the next
// trips' when the loop is unrolled (family `overlap`).
//
// k_ov<U, D, SRC>: every thread runs T = 4096 trips (a run-time count) of
//   v = src[j & 511]                        (warp-uniform: every lane the same word)
//   u = v; D times u = fmaf(u, 0.999, 0.5)  (a dependent chain fed by the load)
//   R = 1: u = rsqrtf(u)                    (MUFU.RSQ with its denormal guard)
//   acc += u                                (the only value carried to the next trip)
// with SRC 0 a shared array of 512 floats (LDS), SRC 1 the global array itself
// (const __restrict__: LDG.E.CONSTANT; one untimed pass first, so every timed load is
// an L1 hit). The loop is `#pragma unroll U` (U = 1, 2, 4, 8) or left to nvcc (U = 0).
// D = 4 and 12 without the rsqrtf, 4 with it (R = 1; u > 0 throughout). Launch: W = 1, 4 or 16 warps per SM as one block of 32 W threads per
// SM (grid = SMs). Thread 0 of each block reads clock64 around the timed loop:
// overlap_cycles.csv has the median, min, max over blocks and per trip. Every
// thread's result is checked against a host recomputation.
//
// usage: bench_overlap OUT.csv CYCLES.csv [device]
#include "common.cuh"

static FILE *g_cyc;
static const int kTrips = 4096;
static const int kReps = 5;

__host__ __device__ inline float ov_x(int i) { return float(i % 11) * 0.125f; }

template <int D, int R>
__host__ __device__ inline float ov_chain(float v) {
  float u = v;
#pragma unroll
  for (int d = 0; d < D; ++d) u = fmaf(u, 0.999f, 0.5f);
  if constexpr (R) {
#ifdef __CUDA_ARCH__
    u = rsqrtf(u);
#else
    u = 1.0f / sqrtf(u);
#endif
  }
  return u;
}

template <int U, int D, int SRC, int R>
__device__ __forceinline__ float ov_loop(const float *__restrict__ x, const float *sh, int T) {
  float acc = 0.0f;
  if constexpr (U == 0) {
    for (int j = 0; j < T; ++j) acc += ov_chain<D, R>(SRC ? x[j & 511] : sh[j & 511]);
  } else {
#pragma unroll(U > 0 ? U : 1)
    for (int j = 0; j < T; ++j) acc += ov_chain<D, R>(SRC ? x[j & 511] : sh[j & 511]);
  }
  return acc;
}

template <int U, int D, int SRC, int R>
__global__ void __launch_bounds__(512) k_ov(const float *__restrict__ x, int T, float *out,
                                            long long *cyc) {
  __shared__ float sh[512];
  for (int i = threadIdx.x; i < 512; i += blockDim.x) sh[i] = x[i];
  __syncthreads();
  float warm = 0.0f;
  if (SRC) {
#pragma unroll 1
    for (int j = 0; j < 512; ++j) warm += x[j];
  }
  const long long t0 = clock64();
  const float acc = ov_loop<U, D, SRC, R>(x, sh, T);
  const long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + warm;
  if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

struct OvK {
  int u, d, src, r;
  const void *fn;
};

template <int U, int D, int SRC, int R>
static OvK mk() {
  return OvK{U, D, SRC, R, (const void *)k_ov<U, D, SRC, R>};
}

template <int D, int SRC, int R>
static void add_unrolls(std::vector<OvK> &v) {
  v.push_back(mk<1, D, SRC, R>());
  v.push_back(mk<2, D, SRC, R>());
  v.push_back(mk<4, D, SRC, R>());
  v.push_back(mk<8, D, SRC, R>());
  v.push_back(mk<0, D, SRC, R>());
}

static double host_want(int d, int src, int r, int T) {
  double acc = 0, warm = 0;
  for (int j = 0; j < T; ++j) {
    float u = ov_x(j & 511);
    for (int k = 0; k < d; ++k) u = fmaf(u, 0.999f, 0.5f);
    if (r) u = 1.0f / sqrtf(u);
    acc += u;
  }
  if (src)
    for (int j = 0; j < 512; ++j) warm += ov_x(j);
  return acc + warm;
}

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(b, argc, argv, "CYCLES.csv",
                          "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
                          "cycles_per_trip\n");
  const int sms = b.sm_count;
  float *x, *out;
  long long *cyc;
  CK(cudaMalloc(&x, 512 * sizeof(float)));
  {
    std::vector<float> h(512);
    for (int i = 0; i < 512; ++i) h[i] = ov_x(i);
    CK(cudaMemcpy(x, h.data(), 512 * sizeof(float), cudaMemcpyHostToDevice));
  }
  CK(cudaMalloc(&out, (size_t)sms * 512 * sizeof(float)));
  CK(cudaMalloc(&cyc, (size_t)sms * sizeof(long long)));
  std::vector<OvK> ks;
  add_unrolls<4, 0, 0>(ks);
  add_unrolls<12, 0, 0>(ks);
  add_unrolls<4, 1, 0>(ks);
  add_unrolls<12, 1, 0>(ks);
  add_unrolls<4, 0, 1>(ks);
  add_unrolls<4, 1, 1>(ks);
  for (const OvK &k : ks) {
    for (int W : {1, 4, 16}) {
      const int bt = 32 * W;
      Row r;
      r.family = "overlap";
      r.name = std::string(k.src ? "l1" : "smem") + "_d" + std::to_string(k.d) +
               (k.r ? "r" : "") +
               (k.u ? "_u" + std::to_string(k.u) : std::string("_auto"));
      r.params = "warps=" + std::to_string(W) + " trips=" + std::to_string(kTrips);
      const dim3 grid(sms), block(bt);
      CK(cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
      r.grid_x = grid.x;
      r.block_x = bt;
      cudaFuncAttributes a;
      CK(cudaFuncGetAttributes(&a, k.fn));
      r.regs = a.numRegs;
      r.static_smem = (long long)a.sharedSizeBytes;
      int nb = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k.fn, bt, 0));
      r.blocks_per_sm = nb;
      const float *xp = x;
      int ti = kTrips;
      float *op = out;
      long long *cp = cyc;
      void *args[4] = {(void *)&xp, (void *)&ti, (void *)&op, (void *)&cp};
      r.t = time_case(b, kReps, false,
                      [&] { CK(cudaLaunchKernel(k.fn, grid, block, args, 0, b.stream)); });
      r.flops = (unsigned long long)grid.x * bt * kTrips * (2 * k.d + 1 + k.r);
      emit(b, r);
      const Cycles c = block_cycles(cyc, grid.x);
      fprintf(g_cyc, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.3f\n", r.family.c_str(), r.name.c_str(),
              r.params.c_str(), sms, kTrips, c.median, c.min, c.max, c.median / kTrips);
      fflush(g_cyc);
      fprintf(stderr, "      %-16s %-24s %8.2f cyc/trip\n", r.name.c_str(), r.params.c_str(),
              c.median / kTrips);
      std::vector<float> h = to_host(out, (size_t)sms * bt);
      const double want = host_want(k.d, k.src, k.r, kTrips);
      for (size_t t = 0; t < h.size(); t += 97)
        REQUIRE(std::fabs(h[t] - want) <= 1e-3 * std::fabs(want) + 1e-2,
                "%s %s: out[%zu] = %.9g, want %.9g", r.name.c_str(), r.params.c_str(), t, h[t],
                want);
    }
  }
  CK(cudaFree(x));
  CK(cudaFree(out));
  CK(cudaFree(cyc));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
