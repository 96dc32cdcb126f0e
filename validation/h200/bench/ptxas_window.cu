// ptxas_window.cu: how many loads ptxas keeps in flight ahead of their first
// consumer in an unrolled loop, read from the SASS (no kernel here is run).
// Compiled with nvcc -arch=sm_90 -cubin; cuobjdump -sass shows each loop.
//   k_acc<T, U, NACC, STEP, LB>: U copies a trip of one load at an immediate
//     offset from one pointer (STEP elements apart), added into acc[u % NACC];
//     LB 1: __launch_bounds__(256, 8) (32 registers at most), 0: none.
//   k_pitch<U, NACC>: the same with a run-time pitch between the loads (each
//     address its own 64-bit add).
//   k_dot<U, NACC>: acc[u % NACC] += a[i] * b[i], two streams.
//   k_auto<NACC>: a counted loop left to nvcc (no unroll count).
//   k_cnt_*: counted loops `for (j = 0; j < m; ++j)` of other shapes left to nvcc:
//     how many copies a trip the SASS has (check_window.sh: a loop's loads).
template <typename T> __device__ __forceinline__ float val(T v);
template <> __device__ __forceinline__ float val<float>(float v) { return v; }
template <> __device__ __forceinline__ float val<float4>(float4 v) { return (v.x + v.y) + (v.z + v.w); }

// the NACC accumulators start at zero; their sum is the thread's output
template <int NACC> __device__ __forceinline__ void acc_zero(float *acc) {
#pragma unroll
  for (int q = 0; q < NACC; ++q) acc[q] = 0.f;
}
template <int NACC> __device__ __forceinline__ void acc_out(const float *acc, float *out) {
  float s = 0.f;
#pragma unroll
  for (int q = 0; q < NACC; ++q) s += acc[q];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

template <typename T, int U, int NACC, int STEP>
__device__ __forceinline__ void body_acc(const T *__restrict__ x, float *out, int m) {
  const T *p = x + threadIdx.x;
  float acc[NACC];
  acc_zero<NACC>(acc);
  for (int j = 0; j < m; j += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) acc[u % NACC] += val<T>(p[(j + u) * STEP]);
  }
  acc_out<NACC>(acc, out);
}

template <typename T, int U, int NACC, int STEP>
__global__ void k_acc(const T *__restrict__ x, float *out, int m) {
  body_acc<T, U, NACC, STEP>(x, out, m);
}
template <typename T, int U, int NACC, int STEP>
__global__ void __launch_bounds__(256, 8) k_acc_lb(const T *__restrict__ x, float *out, int m) {
  body_acc<T, U, NACC, STEP>(x, out, m);
}

template <int U, int NACC>
__global__ void k_pitch(const float *__restrict__ x, float *out, int m, long long pitch) {
  const float *p = x + threadIdx.x;
  float acc[NACC];
  acc_zero<NACC>(acc);
  for (int j = 0; j < m; j += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) acc[u % NACC] += p[(long long)(j + u) * pitch];
  }
  acc_out<NACC>(acc, out);
}

template <int U, int NACC>
__global__ void k_dot(const float *__restrict__ a, const float *__restrict__ b, float *out, int m) {
  const int t = threadIdx.x;
  float acc[NACC];
  acc_zero<NACC>(acc);
  for (int j = 0; j < m; j += U) {
#pragma unroll
    for (int u = 0; u < U; ++u) acc[u % NACC] += a[(j + u) * 32 + t] * b[(j + u) * 32 + t];
  }
  acc_out<NACC>(acc, out);
}

template <int NACC>
__global__ void k_auto(const float *__restrict__ x, float *out, int m) {
  const float *p = x + threadIdx.x;
  float acc[NACC];
  acc_zero<NACC>(acc);
  for (int j = 0; j < m; ++j) acc[j % NACC] += p[j * 32];
  acc_out<NACC>(acc, out);
}

#define ACC(T, U, N, S)                                                              \
  template __global__ void k_acc<T, U, N, S>(const T *__restrict__, float *, int);   \
  template __global__ void k_acc_lb<T, U, N, S>(const T *__restrict__, float *, int);
#define ACC_N(T, U, S) ACC(T, U, 1, S) ACC(T, U, 2, S) ACC(T, U, 4, S) ACC(T, U, U, S)
#define ACC_US(T, S) ACC_N(T, 8, S) ACC_N(T, 16, S) ACC(T, 16, 8, S) ACC_N(T, 32, S) ACC(T, 32, 8, S)
ACC_US(float, 1)
ACC_US(float, 32)
ACC_US(float4, 1)
ACC_US(float4, 8)
#define PITCH(U) template __global__ void k_pitch<U, 1>(const float *__restrict__, float *, int, long long); \
  template __global__ void k_pitch<U, 4>(const float *__restrict__, float *, int, long long);               \
  template __global__ void k_pitch<U, U>(const float *__restrict__, float *, int, long long);
PITCH(8) PITCH(16) PITCH(32)
#define DOT(U) template __global__ void k_dot<U, 1>(const float *__restrict__, const float *__restrict__, float *, int); \
  template __global__ void k_dot<U, 4>(const float *__restrict__, const float *__restrict__, float *, int);               \
  template __global__ void k_dot<U, U>(const float *__restrict__, const float *__restrict__, float *, int);
DOT(8) DOT(16) DOT(32)
template __global__ void k_auto<1>(const float *__restrict__, float *, int);
template __global__ void k_auto<4>(const float *__restrict__, float *, int);
template __global__ void k_auto<8>(const float *__restrict__, float *, int);

// counted loops left to nvcc (m a run-time count)
__global__ void k_cnt_const(const float *__restrict__ x, float *out, int m) {  // 128 B a trip
  const float *p = x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < m; ++j) s += p[j * 32];
  out[threadIdx.x] = s;
}
__global__ void k_cnt_unit(const float *__restrict__ x, float *out, int m) {  // 4 B a trip
  const float *p = x + threadIdx.x * 1024;
  float s = 0.f;
  for (int j = 0; j < m; ++j) s += p[j];
  out[threadIdx.x] = s;
}
__global__ void k_cnt_far(const float *__restrict__ x, float *out, int m) {  // 4 KiB a trip
  const float *p = x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < m; ++j) s += p[j * 1024];
  out[threadIdx.x] = s;
}
__global__ void k_cnt_pitch(const float *__restrict__ x, float *out, int m, int n) {  // n floats a trip
  const float *p = x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < m; ++j) s += p[j * n];
  out[threadIdx.x] = s;
}
__global__ void k_cnt_colwalk(const float *__restrict__ a, float *y, int m, int n) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < m; ++k) s += a[(size_t)k * n + r];
  y[r] = s;
}
__global__ void k_cnt_colwalk_int(const float *__restrict__ a, float *y, int m, int n) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < m; ++k) s += a[k * n + r];
  y[r] = s;
}
__global__ void k_cnt_dot(const float *__restrict__ a, const float *__restrict__ b, float *out, int m) {
  float s = 0.f;
  for (int j = 0; j < m; ++j) s += a[j * 32 + threadIdx.x] * b[j * 32 + threadIdx.x];
  out[threadIdx.x] = s;
}
__global__ void k_cnt_sgemm(const float *__restrict__ A, const float *__restrict__ B, float *C, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k) s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
}
__global__ void k_cnt_float4(const float4 *__restrict__ x, float *out, int m) {
  const float4 *p = x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < m; ++j) s += val<float4>(p[j * 32]);
  out[threadIdx.x] = s;
}
__global__ void k_cnt_fma(const float *__restrict__ x, float *out, int m) {  // a load and 4 FFMA
  const float *p = x + threadIdx.x;
  float s = 0.f;
  for (int j = 0; j < m; ++j) {
    float v = p[j * 32];
    s = fmaf(s, v, 1.f); s = fmaf(s, v, 2.f); s = fmaf(s, v, 3.f); s = fmaf(s, v, 4.f);
  }
  out[threadIdx.x] = s;
}
__global__ void k_cnt_store(const float *__restrict__ x, float *__restrict__ y, int m) {  // copy
  for (int j = 0; j < m; ++j) y[j * 32 + threadIdx.x] = 2.f * x[j * 32 + threadIdx.x];
}
