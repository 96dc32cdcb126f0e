// bench_tpose.cu - matrix transposes and copies through a shared 32x32 tile (family
// `tpose`): out = in^T (or out = in for the copies) over n x n floats, n = 1024 .. 16384.
//   naive     out[x n + y] = in[y n + x], blocks of 32x8 (one element a thread)
//   t32x8     the tile kernel of NVIDIA's transpose example (Harris, "An Efficient Matrix
//             Transpose in CUDA C/C++"): a 32x32 tile, blocks of 32x8, each thread four
//             loads 8 rows apart into tile[ty + 8j][tx], __syncthreads(), four stores of
//             tile[tx][ty + 8j] to the transposed tile; pad = 1: tile[32][33]
//             (conflict-free), pad = 0: tile[32][32] (32-way conflicts on the reads)
//   t32x32    the same tile with blocks of 32x32, one element a thread
//   c32x8     the t32x8 kernel without the transpose: tile[ty + 8j][tx] read back and
//             stored where it was loaded (the staged copy)
// L2 flushed (memset of a 1 GiB scratch) before each repetition; CUDA-event median of 7
// after 2 warm-ups; every output checked at 1024 spread entries.
//
// usage: bench_tpose OUT.csv [device]
#include "common.cuh"
#include "transpose_row.cuh"

enum { K_T = 0, K_C = 1 };

__global__ void __launch_bounds__(256) k_naive_t(const float *__restrict__ in, float *out, int n) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

template <int BY, int PAD, int KIND>
__global__ void __launch_bounds__(32 * BY) k_tile(const float *__restrict__ in, float *out, int n) {
  __shared__ float tile[32][32 + PAD];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += BY) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
  __syncthreads();
  if (KIND == K_T) {
    const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += BY)
      out[(size_t)(ty + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
  } else {
#pragma unroll
    for (int j = 0; j < 32; j += BY)
      out[(size_t)(y + j) * n + x] = tile[threadIdx.y + j][threadIdx.x];
  }
}

template <typename K>
static void row(Bench &b, const char *name, K kern, dim3 grid, dim3 block, const float *in,
                float *out, int n, bool transposed) {
  transpose_row(b, "tpose", name, kern, grid, block, out, n, transposed,
                [&] { kern<<<grid, block, 0, b.stream>>>(in, out, n); });
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int nmax = 16384;
  TransposeBuffers buf(nmax);
  float *in = buf.in, *out = buf.out;
  for (int n : {1024, 2048, 4096, 8192, 16384}) {
    const dim3 g8(n / 32, n / 8), g32(n / 32, n / 32), b8(32, 8), b32(32, 32);
    row(b, "naive", k_naive_t, g8, b8, in, out, n, true);
    row(b, "t32x8", k_tile<8, 1, K_T>, g32, b8, in, out, n, true);
    row(b, "t32x8_nopad", k_tile<8, 0, K_T>, g32, b8, in, out, n, true);
    row(b, "t32x32", k_tile<32, 1, K_T>, g32, b32, in, out, n, true);
    row(b, "c32x8", k_tile<8, 1, K_C>, g32, b8, in, out, n, false);
  }
  bench_close(b);
  return 0;
}
