// kernels.cuh - the kernels of validation/h200/KERNELS.md, verbatim
// (same code, so the re-measured rows time the same machine code). Used by
// bench_shared.cu; bench_own.cu and bench_multigpu.cu reuse k_fma, k_triad
// and k_empty.
#ifndef GPUPERF_BENCH_KERNELS_CUH
#define GPUPERF_BENCH_KERNELS_CUH

#include <cuda_runtime.h>

#include <cmath>

// Does nothing: launch overhead and latency.
__global__ void k_empty() {}

// One float per thread: out[i] = in[i].
__global__ void k_copy(const float *__restrict__ in, float *__restrict__ out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// One float4 (16-byte load and store) per thread.
__global__ void k_copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

// STREAM triad: a = b + s*c.
__global__ void k_triad(float *__restrict__ a, const float *__restrict__ b,
                        const float *__restrict__ c, float s, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

// Strided read, unit-stride write: out[i] = in[i*stride].
__global__ void k_strided(const float *__restrict__ in, float *__restrict__ out, size_t n,
                          int stride) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride];
}

// ILP independent FMA chains of `iters` steps; dynamic smem only limits occupancy.
template <int ILP>
__global__ void k_fma(float *out, int iters, float a, float b) {
  extern __shared__ float pad[];
  float x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = threadIdx.x * 1e-3f + j;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = fmaf(x[j], a, b);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
  if (s == -1.0f) pad[0] = s;
}

// Each warp splits into `paths` branches; each branch runs `iters` dependent FMAs.
__global__ void k_diverge(float *out, int iters, int paths) {
  int p = threadIdx.x % paths;
  float x = threadIdx.x * 1e-3f;
  for (int path = 0; path < 32; ++path) {
    if (path >= paths) break;
    if (p == path) {
      float c = 1.0f + path * 1e-3f;
      for (int k = 0; k < iters; ++k) x = fmaf(x, c, 0.5f);
    }
  }
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = x;
}

// Shared-memory reads with a stride-s (s-way) bank conflict, `iters` volatile loads.
__global__ void k_bank(float *out, int iters, int stride) {
  __shared__ float s[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = i * 0.5f;
  __syncthreads();
  volatile float *vs = s;
  int lane = threadIdx.x & 31;
  int idx = (lane * stride) & 1023;
  float acc = 0;
  for (int k = 0; k < iters; ++k) {
    acc += vs[idx];
    idx ^= 1024;
  }
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = acc;
}

// Shared-memory tree reduction: 2 loads per thread, one partial sum per block.
__global__ void k_reduce(const float *__restrict__ in, float *__restrict__ out, size_t n) {
  extern __shared__ float sd[];
  unsigned t = threadIdx.x;
  size_t i = blockIdx.x * (size_t)blockDim.x * 2 + t;
  float v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sd[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] += sd[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sd[0];
}

// C = A*B with T x T shared-memory tiles (n a multiple of T).
template <int T>
__global__ void k_sgemm_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int r = blockIdx.y * T + ty, c = blockIdx.x * T + tx;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = A[(size_t)r * n + k0 + tx];
    Bs[ty][tx] = B[(size_t)(k0 + ty) * n + c];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(size_t)r * n + c] = acc;
}

// ---------------------------------------------------------------- host side

static const float kFmaA = 0.9999f, kFmaB = 1e-4f;  // x -> b/(1-a) = 1: stays finite

// Host value of k_fma's output for one thread (compare with a relative tolerance:
// the device may contract the initialisation into an FMA).
static inline float fma_expected(int ilp, unsigned tid, int iters) {
  float s = 0;
  for (int j = 0; j < ilp; ++j) {
    float x = tid * 1e-3f + j;
    for (int k = 0; k < iters; ++k) x = fmaf(x, kFmaA, kFmaB);
    s += x;
  }
  return s;
}

#endif  // GPUPERF_BENCH_KERNELS_CUH
