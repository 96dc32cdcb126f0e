// bench_tconf.cu - the shared-tile transpose by block shape and bank-conflict degree
// (family `tconf`): out = in^T over n x n floats (n = 2048, 4096, 8192), the tile kernel
// of NVIDIA's transpose example (Harris, "An Efficient Matrix Transpose in CUDA C/C++")
// with blocks of 32 x BY (BY = 8, 16, 32: 4, 2 and 1 elements a thread; 8, 4 and 2
// blocks an SM) and tile rows of W floats: tile[32][W], W = 33 (conflict-free), 34, 36,
// 40, 48 and 32. The stores tile[ty + j][tx] are conflict-free for every W; the reads
// tile[tx][ty + j] put lane tx in bank (tx W + c) mod 32: 2-, 4-, 8-, 16- and 32-way
// conflicts for W = 34, 36, 40, 48, 32. Each block loads its tile (BY-row steps, one
// coalesced LDG a step), waits at one __syncthreads(), and writes the transposed tile:
// one phase of loads, a barrier, then the shared reads and the stores, no loop, built to
// measure how the blocks resident on an SM overlap the reads' wavefronts with each
// other's load waits.
// L2 flushed (memset of a 1 GiB scratch) before each repetition; CUDA-event median of 7
// after 2 warm-ups; every output checked at 1024 spread entries.
//
// usage: bench_tconf OUT.csv [device]
#include "common.cuh"
#include "transpose_row.cuh"

template <int BY, int W>
__global__ void __launch_bounds__(32 * BY) k_tconf(const float *__restrict__ in, float *out, int n) {
  __shared__ float tile[32][W];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += BY) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
#pragma unroll
  for (int j = 0; j < 32; j += BY) out[(size_t)(ty + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
}

template <int BY, int W>
static void row(Bench &b, const float *in, float *out, int n) {
  const dim3 grid(n / 32, n / 32), block(32, BY);
  transpose_row(b, "tconf", "t" + std::to_string(BY) + "_w" + std::to_string(W), k_tconf<BY, W>,
                grid, block, out, n, true,
                [&] { k_tconf<BY, W><<<grid, block, 0, b.stream>>>(in, out, n); });
}

template <int BY>
static void shape(Bench &b, const float *in, float *out, int n) {
  row<BY, 33>(b, in, out, n);
  row<BY, 34>(b, in, out, n);
  row<BY, 36>(b, in, out, n);
  row<BY, 40>(b, in, out, n);
  row<BY, 48>(b, in, out, n);
  row<BY, 32>(b, in, out, n);
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int nmax = 8192;
  TransposeBuffers buf(nmax);
  float *in = buf.in, *out = buf.out;
  for (int n : {2048, 4096, 8192}) {
    shape<8>(b, in, out, n);
    shape<16>(b, in, out, n);
    shape<32>(b, in, out, n);
  }
  bench_close(b);
  return 0;
}
