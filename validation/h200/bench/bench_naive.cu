// bench_naive.cu - the naive SGEMM C = A B, one output per thread (family `naive`): a
// warp-uniform or few-address load of A's row and a coalesced load of B's row per k,
// one FFMA into one accumulator, over n = 256 .. 4096, with the loop as nvcc unrolls it
// and pinned to one copy.
//   k_naive<BX, BY, U>: row = by BY + ty, col = bx BX + tx, s += A[row n + k] B[k n + col]
//   for k < n (a run-time count), C[row n + col] = s. A, B const __restrict__
//   (LDG.E.CONSTANT). Blocks of 32x8, 16x16 and 8x32 threads (the lanes of a warp on 1,
//   2 or 4 rows of A: one, two or four addresses per A request); U = 0: the loop as
//   nvcc unrolls it (4 copies behind the remainder trips), U = 1: `#pragma unroll 1`.
// A(i, k) = (i + 2k) % 4 / 2, B(k, j) = (3k + j) % 5 / 2: every product and sum is exact
// in float; C is checked at 1024 spread entries against the host. L2 flushed (memset
// of a 1 GiB scratch) before each repetition; CUDA-event median of 7 after 2 warm-ups.
//
// NAIVE_PROFILE=1 bench_naive ...: one launch of each block shape's unrolled kernel at
// n = 2048 behind the flush, untimed and unchecked, for a profiler (ncu, ncu_naive.sh);
// no rows.
//
// usage: bench_naive OUT.csv [device]
#include "common.cuh"

__host__ __device__ inline float na(size_t i, size_t k) { return float((i + 2 * k) % 4) * 0.5f; }
__host__ __device__ inline float nb(size_t k, size_t j) { return float((3 * k + j) % 5) * 0.5f; }

template <int BX, int BY, int U>
__global__ void __launch_bounds__(BX *BY) k_naive(const float *__restrict__ A,
                                                   const float *__restrict__ B, float *C,
                                                   int n) {
  const int row = blockIdx.y * BY + threadIdx.y, col = blockIdx.x * BX + threadIdx.x;
  float s = 0.f;
  if (U == 1) {
#pragma unroll 1
    for (int k = 0; k < n; ++k) s += A[(size_t)row * n + k] * B[(size_t)k * n + col];
  } else {
    for (int k = 0; k < n; ++k) s += A[(size_t)row * n + k] * B[(size_t)k * n + col];
  }
  C[(size_t)row * n + col] = s;
}

__global__ void k_fill_ab(float *A, float *B, int n) {
  const size_t nn = (size_t)n * n;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < nn;
       i += (size_t)gridDim.x * blockDim.x) {
    A[i] = na(i / n, i % n);
    B[i] = nb(i / n, i % n);
  }
}

template <int BX, int BY, int U>
static void row(Bench &b, const float *A, const float *B, float *C, int n, const char *name) {
  const dim3 grid(n / BX, n / BY), block(BX, BY);
  Row r;
  r.family = "naive";
  r.name = name;
  r.params = "n=" + std::to_string(n) + " block=" + std::to_string(BX) + "x" +
             std::to_string(BY);
  row_shape(r, k_naive<BX, BY, U>, grid, block, 0);
  r.bytes = 12ull * n * n;
  r.flops = 2ull * n * n * n;
  CK(cudaMemsetAsync(C, 0, (size_t)n * n * 4, b.stream));
  r.t = time_case(b, 7, true, [&] { k_naive<BX, BY, U><<<grid, block, 0, b.stream>>>(A, B, C, n); });
  emit(b, r);
  const size_t nn = (size_t)n * n;
  check_spread(name, C, nn, [&](size_t i) {
    size_t ii = i / n, jj = i % n;
    float s = 0.f;
    for (int k = 0; k < n; ++k) s += na(ii, k) * nb(k, jj);
    return s;
  });
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int nmax = 4096;
  float *A, *B, *C;
  CK(cudaMalloc(&A, (size_t)nmax * nmax * 4));
  CK(cudaMalloc(&B, (size_t)nmax * nmax * 4));
  CK(cudaMalloc(&C, (size_t)nmax * nmax * 4));
  if (getenv("NAIVE_PROFILE")) {
    const int n = 2048;
    k_fill_ab<<<4096, 256>>>(A, B, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    profile_case(b, [&] { k_naive<32, 8, 0><<<dim3(n / 32, n / 8), dim3(32, 8), 0, b.stream>>>(A, B, C, n); });
    profile_case(b, [&] { k_naive<16, 16, 0><<<dim3(n / 16, n / 16), dim3(16, 16), 0, b.stream>>>(A, B, C, n); });
    profile_case(b, [&] { k_naive<8, 32, 0><<<dim3(n / 8, n / 32), dim3(8, 32), 0, b.stream>>>(A, B, C, n); });
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    bench_close(b);
    return 0;
  }
  for (int n : {256, 512, 1024, 2048, 4096}) {
    k_fill_ab<<<4096, 256>>>(A, B, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    row<32, 8, 0>(b, A, B, C, n, "naive_32x8");
    row<16, 16, 0>(b, A, B, C, n, "naive_16x16");
    row<8, 32, 0>(b, A, B, C, n, "naive_8x32");
    row<32, 8, 1>(b, A, B, C, n, "naive_32x8_u1");
    row<16, 16, 1>(b, A, B, C, n, "naive_16x16_u1");
    row<8, 32, 1>(b, A, B, C, n, "naive_8x32_u1");
  }
  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  bench_close(b);
  return 0;
}
