// bench_mathfn.cu - CUDA's single-precision math functions as nvcc compiles them by
// default (family `mathfn`): the throughput and the latency of one call of expf,
// logf, sinf, tanhf, powf, ... inside a chain, against the intrinsics (__expf, __sinf,
// ...) and a plain FFMA.
//
// k_fn<F, ILP>: each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip
// takes each of ILP independent values one step: x = f(x) * a + b (the call, then an
// FFMA that keeps x in the function's range; a and b kernel arguments). `ffma` is the
// step without a call. Two shapes:
//   thr   ILP 4, 8 blocks of 256 threads per SM (64 warps): the calls' throughput;
//   lat   ILP 1, one warp per SM: one call after another, its latency.
// Values start at 0.5 + (thread & 255) / 512, inside every function's range; a is 0.25
// and b 0.3 (0.75 for the logarithms, roots and divisions, whose argument must stay
// positive; 0.5 for powf, whose values would otherwise settle at 1.0, a case powf
// returns early): each step contracts, so the values settle and stay in range. The sum of the values is written per thread and checked finite.
// CUDA-event medians of 7 after 2 warm-ups; the SASS (run_mathfn.sh) gives each
// function's instructions.
//
// usage: bench_mathfn OUT.csv [device]
#include "common.cuh"

enum {
  F_FFMA, F_EXPF, F_EXPF_I, F_EXP2F, F_LOGF, F_LOGF_I, F_LOG2F, F_SINF, F_SINF_I, F_COSF,
  F_SQRTF, F_RSQRTF, F_TANHF, F_ERFF, F_POWF, F_DIV, F_FDIVIDEF, F_COUNT
};
static const char *kNames[F_COUNT] = {"ffma",  "expf",   "__expf", "exp2f",  "logf", "__logf",
                                      "log2f", "sinf",   "__sinf", "cosf",   "sqrtf", "rsqrtf",
                                      "tanhf", "erff",   "powf",   "div",    "__fdividef"};

template <int F>
__device__ __forceinline__ float fn(float x) {
  if (F == F_FFMA) return x;
  if (F == F_EXPF) return expf(x);
  if (F == F_EXPF_I) return __expf(x);
  if (F == F_EXP2F) return exp2f(x);
  if (F == F_LOGF) return logf(x);
  if (F == F_LOGF_I) return __logf(x);
  if (F == F_LOG2F) return log2f(x);
  if (F == F_SINF) return sinf(x);
  if (F == F_SINF_I) return __sinf(x);
  if (F == F_COSF) return cosf(x);
  if (F == F_SQRTF) return sqrtf(x);
  if (F == F_RSQRTF) return rsqrtf(x);
  if (F == F_TANHF) return tanhf(x);
  if (F == F_ERFF) return erff(x);
  if (F == F_POWF) return powf(x, 2.5f);
  if (F == F_DIV) return 1.0f / x;
  return __fdividef(1.0f, x);
}

template <int F, int ILP>
__global__ void __launch_bounds__(256) k_fn(float *__restrict__ out, int trips, float a, float b) {
  const unsigned gtid = blockIdx.x * blockDim.x + threadIdx.x;
  float x[ILP];
#pragma unroll
  for (int i = 0; i < ILP; ++i) x[i] = 0.5f + (float)((gtid + 64 * i) & 255) / 512.0f;
#pragma unroll 1
  for (int t = 0; t < trips; ++t) {
#pragma unroll
    for (int i = 0; i < ILP; ++i) x[i] = fmaf(fn<F>(x[i]), a, b);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < ILP; ++i) s += x[i];
  out[gtid] = s;
}

typedef void (*Kern)(float *, int, float, float);

template <int F>
static Kern pick_f(int ilp) {
  return ilp == 1 ? k_fn<F, 1> : k_fn<F, 4>;
}

static Kern pick(int f, int ilp) {
  switch (f) {
  case F_FFMA: return pick_f<F_FFMA>(ilp);
  case F_EXPF: return pick_f<F_EXPF>(ilp);
  case F_EXPF_I: return pick_f<F_EXPF_I>(ilp);
  case F_EXP2F: return pick_f<F_EXP2F>(ilp);
  case F_LOGF: return pick_f<F_LOGF>(ilp);
  case F_LOGF_I: return pick_f<F_LOGF_I>(ilp);
  case F_LOG2F: return pick_f<F_LOG2F>(ilp);
  case F_SINF: return pick_f<F_SINF>(ilp);
  case F_SINF_I: return pick_f<F_SINF_I>(ilp);
  case F_COSF: return pick_f<F_COSF>(ilp);
  case F_SQRTF: return pick_f<F_SQRTF>(ilp);
  case F_RSQRTF: return pick_f<F_RSQRTF>(ilp);
  case F_TANHF: return pick_f<F_TANHF>(ilp);
  case F_ERFF: return pick_f<F_ERFF>(ilp);
  case F_POWF: return pick_f<F_POWF>(ilp);
  case F_DIV: return pick_f<F_DIV>(ilp);
  default: return pick_f<F_FDIVIDEF>(ilp);
  }
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int trips = 1024;
  float *out;
  const size_t maxT = (size_t)b.sm_count * 8 * 256;
  CK(cudaMalloc(&out, maxT * sizeof(float)));
  for (int shape = 0; shape < 2; ++shape)
    for (int f = 0; f < F_COUNT; ++f) {
      const int ilp = shape == 0 ? 4 : 1;
      const int grid = shape == 0 ? b.sm_count * 8 : b.sm_count;
      const int block = shape == 0 ? 256 : 32;
      const bool pos = f == F_LOGF || f == F_LOGF_I || f == F_LOG2F || f == F_DIV ||
                       f == F_FDIVIDEF || f == F_SQRTF || f == F_RSQRTF;
      const float a = 0.25f, bb = f == F_POWF ? 0.5f : pos ? 0.75f : 0.3f;
      Kern k = pick(f, ilp);
      Row row;
      row.family = "mathfn";
      row.name = kNames[f];
      row.params = std::string(shape == 0 ? "shape=thr" : "shape=lat") + " trips=" +
                   std::to_string(trips);
      row_shape(row, k, dim3(grid), dim3(block), 0);
      row.t = time_case(b, 7, false, [&] { k<<<grid, block, 0, b.stream>>>(out, trips, a, bb); });
      std::vector<float> h = to_host(out, (size_t)grid * block);
      for (size_t i = 0; i < h.size(); i += 97)
        REQUIRE(std::isfinite(h[i]), "mathfn %s %s: thread %zu sums to %g", row.name.c_str(),
                row.params.c_str(), i, h[i]);
      row.flops = (unsigned long long)grid * block * trips * ilp;
      emit(b, row);
    }
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
