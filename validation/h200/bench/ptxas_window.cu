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
