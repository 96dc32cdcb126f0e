// bench_mufu.cu - the latency of the special-function unit (MUFU) inside chains of
// FP32 work, against a chain of MUFU alone (raw data, no calibration rows).
//
// One warp per SM (grid = SMs, 32 threads), `trips` trips of a `#pragma unroll 1`
// loop of 16 dependent steps; thread 0 of each block reads clock64 around the loop.
// Steps (x the running value, a and b kernel arguments, so nothing folds):
//   fmul        x = x * a                                  FMUL
//   ffma        x = x * a + b                              FFMA
//   mufu        x = rsqrt.approx.ftz(x)                    MUFU.RSQ
//   fmul_mufu   x = rsqrt.approx.ftz(x * a)                FMUL, MUFU.RSQ
//   fmul_ex2    x = ex2.approx.ftz(x * a)                  FMUL, MUFU.EX2
//   rsqrtf      x = rsqrtf(x * a + b)   (no ftz)           FFMA, FSETP, @P FMUL, MUFU.RSQ, @P FMUL
//   setp_fmul   x = x < b ? x * a : x   (predicated)       FSETP, @P FMUL (or FSEL)
//   expf        x = __expf(x * a)                          FMUL, FMUL (log2 e), MUFU.EX2
// Output: mufu.csv (a row per chain, CUDA-event medians of 5 after 2 warm-ups) and
// mufu_cycles.csv (name, blocks, trips, steps, the median, min and max over blocks of
// the loop's clock64 cycles, cycles per step); the SASS shows each loop's instructions.
//
// usage: bench_mufu OUT.csv CYCLES.csv [device]
#include "common.cuh"

__device__ __forceinline__ float rsq_ftz(float x) {
  float y;
  asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
__device__ __forceinline__ float ex2_ftz(float x) {
  float y;
  asm volatile("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

enum { S_FMUL, S_FFMA, S_MUFU, S_FMUL_MUFU, S_FMUL_EX2, S_RSQRTF, S_SETP_FMUL, S_EXPF, S_COUNT };
static const char *kNames[S_COUNT] = {"fmul",     "ffma",   "mufu",      "fmul_mufu",
                                      "fmul_ex2", "rsqrtf", "setp_fmul", "expf"};

template <int S>
__device__ __forceinline__ float step(float x, float a, float b) {
  if (S == S_FMUL) return x * a;
  if (S == S_FFMA) return fmaf(x, a, b);
  if (S == S_MUFU) return rsq_ftz(x);
  if (S == S_FMUL_MUFU) return rsq_ftz(x * a);
  if (S == S_FMUL_EX2) return ex2_ftz(x * a);
  if (S == S_RSQRTF) return rsqrtf(fmaf(x, a, b));
  if (S == S_SETP_FMUL) return x < b ? x * a : x;
  return __expf(x * a);
}

template <int S>
__global__ void k_chain(float x0, float a, float b, int trips, float *out, long long *cyc) {
  float x = x0 + threadIdx.x * 1e-6f;
  const long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < trips; ++k) {
#pragma unroll
    for (int j = 0; j < 16; ++j) x = step<S>(x, a, b);
  }
  const long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

typedef void (*ChainK)(float, float, float, int, float *, long long *);

static ChainK kernel_for(int s) {
  switch (s) {
    case S_FMUL: return k_chain<S_FMUL>;
    case S_FFMA: return k_chain<S_FFMA>;
    case S_MUFU: return k_chain<S_MUFU>;
    case S_FMUL_MUFU: return k_chain<S_FMUL_MUFU>;
    case S_FMUL_EX2: return k_chain<S_FMUL_EX2>;
    case S_RSQRTF: return k_chain<S_RSQRTF>;
    case S_SETP_FMUL: return k_chain<S_SETP_FMUL>;
    default: return k_chain<S_EXPF>;
  }
}

// The host's value of the chain (the device's approximations agree to 1e-3 relative
// over these steps, which converge: rsqrt toward 1, ex2(-1.001 x) toward 0.64).
static float host_chain(int s, float x, float a, float b, int steps) {
  for (int i = 0; i < steps; ++i) {
    switch (s) {
      case S_FMUL: x = x * a; break;
      case S_FFMA: x = std::fma(x, a, b); break;
      case S_MUFU: x = 1.0f / std::sqrt(x); break;
      case S_FMUL_MUFU: x = 1.0f / std::sqrt(x * a); break;
      case S_FMUL_EX2: x = std::exp2(x * a); break;
      case S_RSQRTF: x = 1.0f / std::sqrt(std::fma(x, a, b)); break;
      case S_SETP_FMUL: x = x < b ? x * a : x; break;
      default: x = std::exp(x * a); break;
    }
  }
  return x;
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "mufu_cycles.csv",
                               "name,blocks,trips,steps,cycles_median,cycles_min,cycles_max,"
                               "cycles_per_step\n");
  const int sms = b.sm_count, trips = 1024;
  float *out;
  long long *cyc;
  CK(cudaMalloc(&out, sms * 32 * sizeof(float)));
  CK(cudaMalloc(&cyc, sms * sizeof(long long)));
  for (int s = 0; s < S_COUNT; ++s) {
    // a, b per chain: values that stay finite and normal over 16384 steps
    float x0 = 1.5f, a = 1.0f, bb = 0.0f;
    if (s == S_FMUL) a = 0.99999f;
    if (s == S_FFMA) a = 0.5f, bb = 0.25f;
    if (s == S_FMUL_MUFU) a = 1.0001f;
    if (s == S_FMUL_EX2) x0 = 0.5f, a = -1.001f;
    if (s == S_RSQRTF) a = 1.0001f, bb = 0.001f;
    if (s == S_SETP_FMUL) a = 1.00001f, bb = 1e30f;
    if (s == S_EXPF) x0 = 0.5f, a = -1.001f;
    ChainK k = kernel_for(s);
    Row r;
    r.family = "mufu";
    r.name = kNames[s];
    r.params = "trips=" + std::to_string(trips) + " steps=16";
    row_shape(r, k, dim3(sms), dim3(32), 0);
    r.flops = (unsigned long long)sms * 32 * trips * 16;
    r.t = time_case(b, 5, false, [&] { k<<<sms, 32, 0, b.stream>>>(x0, a, bb, trips, out, cyc); });
    emit(b, r);
    Cycles c = block_cycles(cyc, sms);
    float got;
    CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    const float want = host_chain(s, x0, a, bb, trips * 16);
    REQUIRE(std::fabs(got - want) <= 1e-2f * std::fabs(want) + 1e-3f, "%s: %g, host %g",
            kNames[s], got, want);
    fprintf(side, "%s,%d,%d,16,%.0f,%.0f,%.0f,%.2f\n", kNames[s], sms, trips, c.median, c.min,
            c.max, c.median / (trips * 16.0));
    fflush(side);
    fprintf(stderr, "  %-10s %7.2f cycles a step\n", kNames[s], c.median / (trips * 16.0));
  }
  fclose(side);
  bench_close(b);
  return 0;
}
