// bench_tloop.cu - the shared-tile transpose as a loop of barrier phases (family `tloop`):
// out = in^T over n x n floats (n = 8192) where each block transposes T tiles one after
// another (T = 1, 2, 4, 16: tile t of block b is tile b + t G of the grid's G blocks), the
// tile kernel of bench_tconf inside a loop: the tile's loads, __syncthreads(), the
// transposed reads and stores, __syncthreads() (the next trip overwrites the tile).
// Blocks of 32 x BY (BY = 8, 32: 8 and 2 blocks an SM), tile rows of W = 33 (conflict-
// free reads) and 32 (32-way conflicted). Built to see whether the blocks resident on an
// SM keep waiting at the barrier together over a loop's trips (they do for one phase:
// run24/tconf) or drift apart.
// L2 flushed (memset of a 1 GiB scratch) before each repetition; CUDA-event median of 7
// after 2 warm-ups; every output checked at 1024 spread entries.
//
// usage: bench_tloop OUT.csv [device]
#include "common.cuh"
#include "transpose_row.cuh"

template <int BY, int W>
__global__ void __launch_bounds__(32 * BY) k_tloop(const float *__restrict__ in, float *out, int n,
                                                   int tiles) {
  __shared__ float tile[32][W];
  const int per_row = n / 32, G = gridDim.x;
  for (int t = 0; t < tiles; ++t) {
    const int id = blockIdx.x + t * G, bx = id % per_row, by = id / per_row;
    const int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += BY) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
    __syncthreads();
    const int tx = by * 32 + threadIdx.x, ty = bx * 32 + threadIdx.y;
#pragma unroll
    for (int j = 0; j < 32; j += BY) out[(size_t)(ty + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
    __syncthreads();
  }
}

template <int BY, int W>
static void row(Bench &b, const float *in, float *out, int n, int tiles) {
  const dim3 grid((n / 32) * (n / 32) / tiles), block(32, BY);
  transpose_row(b, "tloop",
                "t" + std::to_string(BY) + "_w" + std::to_string(W) + "_T" + std::to_string(tiles),
                k_tloop<BY, W>, grid, block, out, n, true,
                [&] { k_tloop<BY, W><<<grid, block, 0, b.stream>>>(in, out, n, tiles); });
}

template <int BY, int W>
static void sweep(Bench &b, const float *in, float *out, int n) {
  for (int tiles : {1, 2, 4, 16}) row<BY, W>(b, in, out, n, tiles);
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int n = 8192;
  TransposeBuffers buf(n);
  float *in = buf.in, *out = buf.out;
  sweep<8, 33>(b, in, out, n);
  sweep<8, 32>(b, in, out, n);
  sweep<32, 33>(b, in, out, n);
  sweep<32, 32>(b, in, out, n);
  bench_close(b);
  return 0;
}
