// unroll_shapes.cu: loop shapes nvcc unrolls or not, read from the PTX (no GPU):
// `check_unroll.sh` compiles this file with `nvcc -O3 -arch=sm_90 -ptx` and counts the
// global loads of each kernel. A loop nvcc unrolls holds several (4 copies and a
// remainder: 5); one it does not, a single load. What gpuperf infers from a script's
// loop (core/src/blockcost.c grid_stride_loop, docs/workloads.md "Loops") follows
// these: a stride that is a run-time value and a bound that is an index (the
// grid-stride and blockDim-stride loops) is not unrolled; a constant stride or a
// counted loop is, whatever its stride.
#include <cstddef>
// 1: grid-stride, size_t index, runtime stride
__global__ void gs_size_t(const unsigned *in, unsigned *out, size_t n) {
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) s += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// 2: grid-stride, int index
__global__ void gs_int(const unsigned *in, unsigned *out, int n) {
  unsigned s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// 3: block-stride with constant stride
template <int BS>
__global__ void bs_const(const unsigned *in, unsigned *out, int n) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < n; i += BS) s += in[i];
  out[threadIdx.x] = s;
}
template __global__ void bs_const<256>(const unsigned *, unsigned *, int);
// 4: block-stride, runtime blockDim
__global__ void bs_rt(const unsigned *in, unsigned *out, int n) {
  unsigned s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += in[i];
  out[threadIdx.x] = s;
}
// 4b: block-stride, runtime blockDim held in an int: `c + blockDim.x` above is unsigned
// arithmetic, this one is not
__global__ void bs_rt_int(const unsigned *in, unsigned *out, int n) {
  const int step = blockDim.x;
  unsigned s = 0;
  for (int i = threadIdx.x; i < n; i += step) s += in[i];
  out[threadIdx.x] = s;
}
// 5: counted column walk, runtime m and n
__global__ void colwalk(const float *a, float *out, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < m; ++k) s += a[(size_t)k * n + r];
  out[r] = s;
}
// 6: grid-stride with unsigned index
__global__ void gs_uint(const float *in, float *out, unsigned n) {
  float s = 0;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) s += in[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
// 7: grid-stride elementwise (no accumulator)
__global__ void gs_axpy(const float *x, float *y, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
// 8: a block's copy loop into shared memory, run-time stride and bound
__global__ void cp_rt(const float *g, float *out, int n) {
  __shared__ float s[4096];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = g[blockIdx.x * n + i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) % 4096];
}
// 9: the same copy loop with a constant bound, run-time stride
__global__ void cp_rt_const_n(const float *g, float *out) {
  __shared__ float s[4096];
  for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[i] = g[blockIdx.x * 4096 + i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) % 4096];
}
// 10: the same copy loop with a constant stride, run-time bound
__global__ void cp_const_stride(const float *g, float *out, int n) {
  __shared__ float s[4096];
  for (int i = threadIdx.x; i < n; i += 256) s[i] = g[blockIdx.x * n + i];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) % 4096];
}
