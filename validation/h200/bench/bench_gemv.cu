// bench_gemv.cu - a decode GEMV (family `gemv`): y[b][n] = sum_k W[n][k] x[b][k] for a
// batch of B = 1, 2, 4 or 8 vectors, W an N x K fp16 matrix (row-major), x B x K fp16,
// y B x N fp32. A warp per row n: lane l reads 8 halves of W (one uint4) at k = 8 l,
// 8 l + 256, ... (`for (k = 8 * lane; k < K; k += 256)`, K a kernel argument), converts
// them (__half22float2), and for each b reads the same 8 halves of x[b] (a uint4 every
// warp of the grid reads: L1 and L2 hits after the first) and adds their 8 products into
// acc[b]; then five __shfl_down_sync steps per b and lane 0 writes y[b][n]. Blocks of
// 256 threads (8 rows); W and x const __restrict__ (LDG.E.128.CONSTANT). K = 4096,
// N = 4096 (W 32 MiB) and N = 14336 (W 112 MiB, more than the L2); the 1 GiB memset
// flush before each repetition. CUDA-event medians of 7 after 2 warm-ups; y checked
// against the host for a few rows.
//
// usage: bench_gemv OUT.csv [device]
#include <cuda_fp16.h>

#include "common.cuh"

template <int B>
__global__ void __launch_bounds__(256)
    k_gemv(const __half *__restrict__ W, const __half *__restrict__ x, float *__restrict__ y,
           int N, int K) {
  const int n = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (n >= N) return;
  float acc[B];
#pragma unroll
  for (int b = 0; b < B; ++b) acc[b] = 0.0f;
  for (int k = 8 * lane; k < K; k += 256) {
    const uint4 w = *(const uint4 *)(W + (size_t)n * K + k);
    const __half2 *wh = (const __half2 *)&w;
    float2 wf[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) wf[i] = __half22float2(wh[i]);
#pragma unroll
    for (int b = 0; b < B; ++b) {
      const uint4 xv = *(const uint4 *)(x + (size_t)b * K + k);
      const __half2 *xh = (const __half2 *)&xv;
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const float2 xf = __half22float2(xh[i]);
        acc[b] = fmaf(wf[i].x, xf.x, acc[b]);
        acc[b] = fmaf(wf[i].y, xf.y, acc[b]);
      }
    }
  }
#pragma unroll
  for (int b = 0; b < B; ++b)
    for (int o = 16; o > 0; o >>= 1) acc[b] += __shfl_down_sync(0xffffffffu, acc[b], o);
  if (lane == 0)
#pragma unroll
    for (int b = 0; b < B; ++b) y[(size_t)b * N + n] = acc[b];
}

typedef void (*Kern)(const __half *, const __half *, float *, int, int);

static Kern pick(int b) {
  switch (b) {
  case 1: return k_gemv<1>;
  case 2: return k_gemv<2>;
  case 4: return k_gemv<4>;
  default: return k_gemv<8>;
  }
}

static float wval(size_t i) { return (float)((int)(hash32((unsigned)i ^ 0x85ebca6bu) & 15) - 8) / 16.0f; }
static float xval(size_t i) { return (float)((int)(hash32((unsigned)i ^ 0xc2b2ae35u) & 15) - 8) / 16.0f; }

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int K = 4096, maxN = 14336, maxB = 8;
  __half *W, *x;
  float *y;
  CK(cudaMalloc(&W, (size_t)maxN * K * 2));
  CK(cudaMalloc(&x, (size_t)maxB * K * 2));
  CK(cudaMalloc(&y, (size_t)maxB * maxN * 4));
  std::vector<__half> hw((size_t)maxN * K), hx((size_t)maxB * K);
  for (size_t i = 0; i < hw.size(); ++i) hw[i] = __float2half(wval(i));
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = __float2half(xval(i));
  CK(cudaMemcpy(W, hw.data(), hw.size() * 2, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, hx.data(), hx.size() * 2, cudaMemcpyHostToDevice));
  for (int N : {4096, 14336})
    for (int B : {1, 2, 4, 8}) {
      Kern k = pick(B);
      const int grid = N / 8;
      Row row;
      row.family = "gemv";
      row.name = "b" + std::to_string(B);
      row.params = "N=" + std::to_string(N) + " K=" + std::to_string(K);
      row_shape(row, k, dim3(grid), dim3(256), 0);
      row.t = time_case(b, 7, true, [&] { k<<<grid, 256, 0, b.stream>>>(W, x, y, N, K); });
      row.bytes = (unsigned long long)N * K * 2 + (unsigned long long)B * K * 2 +
                  (unsigned long long)B * N * 4;
      row.flops = 2ull * N * K * B;
      std::vector<float> hy((size_t)B * N);
      CK(cudaMemcpy(hy.data(), y, hy.size() * 4, cudaMemcpyDeviceToHost));
      for (int n = 0; n < N; n += N / 5 + 1)
        for (int bb = 0; bb < B; ++bb) {
          double want = 0;
          for (int kk = 0; kk < K; ++kk)
            want += (double)__half2float(hw[(size_t)n * K + kk]) * __half2float(hx[(size_t)bb * K + kk]);
          REQUIRE(fabs(hy[(size_t)bb * N + n] - want) <= 1e-2 * (1.0 + fabs(want)),
                  "gemv %s %s: n %d b %d got %g want %g", row.name.c_str(), row.params.c_str(), n,
                  bb, hy[(size_t)bb * N + n], want);
        }
      emit(b, row);
    }
  CK(cudaFree(W));
  CK(cudaFree(x));
  CK(cudaFree(y));
  bench_close(b);
  return 0;
}
