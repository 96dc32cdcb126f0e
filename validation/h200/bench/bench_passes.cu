// bench_passes.cu - kernels that read their rows several times (family `passes`): when
// does a pass find the rows the pass before left in L2?
//
// A row of `cols` floats is read P times (P = 1, 2, 3) and written once, as softmax and
// layer norm do: pass 1 sums the row, pass 2 (P = 3) sums the squares of x - mean, the
// last pass writes y = (x - mean) * s. P = 1 reads and writes in one pass (a copy: the
// DRAM rate the other rows are compared with). The input is const __restrict__
// (LDG.E.CONSTANT), lanes stride 32 (warp) or 256 (block) through the row:
//   k_pw<P>  a warp per row, 8 rows a block of 256, __shfl_xor_sync sums;
//   k_pb<P>  a block of 256 per row, warp sums, a shared array and two barriers.
// Between a warp's first read of an element and its re-read in the next pass, every
// resident warp reads its own rows: the re-read distance is the resident rows' bytes,
// not the buffer's. Sizes 16 to 128 MiB of input (as much again of output), rows of
// 4 KiB and 16 KiB (warp) and 16 KiB and 64 KiB (block); `lim` runs k_pw with the
// dynamic shared memory that lets only 2 blocks share an SM (16 warps), so the same
// buffer is read by a quarter of the resident rows; `small` runs k_pw and `bsmall` k_pb
// with the largest shared-memory carve-out preference (100: 228 KiB of shared memory, an
// L1 of 28 KiB) and no shared memory used, so the residency stays and the L1 cannot keep
// a pass's rows; `wpad` and `bpad` run k_pw on rows of 4096 and k_pb on rows of 16384
// floats laid 4096 + 32 and 16384 + 32 floats apart (128 bytes of padding a row: the
// rows' starts no longer share their low address bits). The memset flush before each
// repetition; median of 9 after 2 warm-ups; a few rows checked against the host.
//
// PASSES_SET=len runs other shapes instead, all k_pw (a warp per row) with P = 1 and 2
// over 32, 64 and 128 MiB, to tell a row's length from the resident rows' bytes:
// w2k (rows of 512 floats, 64 warps an SM: 16.5 MiB resident over 132 SMs), w8k (2048,
// 64 warps: 66 MiB), l8k (2048, 32 warps: 33 MiB), l16k1 (4096, 8 warps: 16.5 MiB) and
// l32k (8192, 8 warps: 33 MiB); lim (4096, 16 warps, 33 MiB) and warp (1024, 64 warps,
// 33 MiB) of the default set have the same resident bytes as l8k and l32k.
//
// PASSES_SET=bstride runs k_pbd instead (shape bdyn): k_pb with its lanes stepping by
// blockDim.x, a run-time value, which nvcc does not unroll (one load a trip), rows of
// 1024, 4096 and 16384 floats, P = 1 to 3 over 16, 64 and 128 MiB.
//
// usage: bench_passes OUT.csv [device]
//        PASSES_PROFILE=1 bench_passes OUT.csv [device]: each case once after the flush,
//        untimed and unchecked (for ncu; OUT.csv gets no rows)
#include "common.cuh"

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <int P>
__global__ void __launch_bounds__(256) k_pw(const float *__restrict__ in, float *__restrict__ out,
                                            int rows, int cols, int pitch) {
  extern __shared__ float pad[];  // only to limit the blocks per SM (lim)
  const int row = (int)((blockIdx.x * blockDim.x + threadIdx.x) >> 5), lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float *x = in + (size_t)row * pitch;
  float *y = out + (size_t)row * pitch;
  float m = 0.0f, s = 1.0f;
  if (P >= 2) {
    for (int c = lane; c < cols; c += 32) m += x[c];
    m = warp_sum(m) / (float)cols;
  }
  if (P >= 3) {
    float v = 0.0f;
    for (int c = lane; c < cols; c += 32) {
      const float d = x[c] - m;
      v += d * d;
    }
    s = rsqrtf(warp_sum(v) / (float)cols + 1e-5f);
  }
  for (int c = lane; c < cols; c += 32) y[c] = (x[c] - m) * s;
  if (cols < 0) pad[0] = m;  // never
}

__device__ __forceinline__ float block_sum(float v, float *sh) {
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  v = warp_sum(v);
  __syncthreads();
  if (lane == 0) sh[w] = v;
  __syncthreads();
  v = lane < 8 ? sh[lane] : 0.0f;
  return warp_sum(v);
}

// A block row's lane step: STRIDE (an int), or blockDim.x (an unsigned, as the source
// `c += blockDim.x` has it) where STRIDE is 0.
template <int STRIDE> struct RowStep {
  static __device__ __forceinline__ int get() { return STRIDE; }
};
template <> struct RowStep<0> {
  static __device__ __forceinline__ unsigned get() { return blockDim.x; }
};

// A block per row: the row's passes with its lanes stepping by RowStep<STRIDE>.
template <int P, int STRIDE>
__device__ __forceinline__ void block_row(const float *__restrict__ in, float *__restrict__ out,
                                          int cols, int pitch) {
  __shared__ float sh[8];
  const float *x = in + (size_t)blockIdx.x * pitch;
  float *y = out + (size_t)blockIdx.x * pitch;
  float m = 0.0f, s = 1.0f;
  if (P >= 2) {
    for (int c = threadIdx.x; c < cols; c += RowStep<STRIDE>::get()) m += x[c];
    m = block_sum(m, sh) / (float)cols;
  }
  if (P >= 3) {
    float v = 0.0f;
    for (int c = threadIdx.x; c < cols; c += RowStep<STRIDE>::get()) {
      const float d = x[c] - m;
      v += d * d;
    }
    s = rsqrtf(block_sum(v, sh) / (float)cols + 1e-5f);
  }
  for (int c = threadIdx.x; c < cols; c += RowStep<STRIDE>::get()) y[c] = (x[c] - m) * s;
}

template <int P>
__global__ void __launch_bounds__(256) k_pb(const float *__restrict__ in, float *__restrict__ out,
                                            int rows, int cols, int pitch) {
  block_row<P, 256>(in, out, cols, pitch);
  (void)rows;
}

// k_pb with its lanes stepping by blockDim.x, a run-time value (softmax and layer norm
// as they are commonly written): nvcc does not unroll these loops (one load a trip).
template <int P>
__global__ void __launch_bounds__(256) k_pbd(const float *__restrict__ in, float *__restrict__ out,
                                             int rows, int cols, int pitch) {
  block_row<P, 0>(in, out, cols, pitch);
  (void)rows;
}

// the host's row y for a check
static void host_row(const std::vector<float> &hx, int cols, int P, std::vector<double> &want) {
  double m = 0, v = 0, s = 1;
  if (P >= 2) {
    for (int c = 0; c < cols; ++c) m += hx[c];
    m /= cols;
  }
  if (P >= 3) {
    for (int c = 0; c < cols; ++c) v += (hx[c] - m) * (hx[c] - m);
    s = 1.0 / sqrt(v / cols + 1e-5);
  }
  want.resize(cols);
  for (int c = 0; c < cols; ++c) want[c] = (hx[c] - m) * s;
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const size_t maxn = ((size_t)32 << 20) + ((size_t)32 << 14);  // 128 MiB of floats + padding
  float *in, *out;
  CK(cudaMalloc(&in, maxn * 4));
  CK(cudaMalloc(&out, maxn * 4));
  {
    std::vector<float> h(maxn);
    for (size_t i = 0; i < maxn; ++i) h[i] = (float)(hash32((unsigned)i) & 1023) / 1024.0f;
    CK(cudaMemcpy(in, h.data(), maxn * 4, cudaMemcpyHostToDevice));
  }
  for (auto k : {k_pw<1>, k_pw<2>, k_pw<3>}) allow_dyn_smem(k, dyn_smem_for_bpsm(b.prop, 1));
  struct Shape {
    const char *name;
    int cols;
    bool warp;
    int bpsm;  // blocks an SM, held there by dynamic shared memory; 0: as many as fit
    bool small_l1;
    int pad;  // floats of padding a row
    bool dyn = false;  // k_pbd: the lanes step by blockDim.x
  };
  const Shape shapes[] = {
      {"warp", 1024, true, 0, false, 0},    {"warp", 4096, true, 0, false, 0},
      {"lim", 4096, true, 2, false, 0},     {"block", 4096, false, 0, false, 0},
      {"block", 16384, false, 0, false, 0}, {"small", 1024, true, 0, true, 0},
      {"bsmall", 4096, false, 0, true, 0},  {"wpad", 4096, true, 0, false, 32},
      {"bpad", 16384, false, 0, false, 32}};
  const Shape len_shapes[] = {{"w2k", 512, true, 0, false, 0},   {"w8k", 2048, true, 0, false, 0},
                              {"l8k", 2048, true, 4, false, 0},  {"l16k1", 4096, true, 1, false, 0},
                              {"l32k", 8192, true, 1, false, 0}};
  const Shape dyn_shapes[] = {{"bdyn", 1024, false, 0, false, 0, true},
                              {"bdyn", 4096, false, 0, false, 0, true},
                              {"bdyn", 16384, false, 0, false, 0, true}};
  const bool profile = getenv("PASSES_PROFILE") != nullptr;
  const std::string set_name = getenv("PASSES_SET") ? getenv("PASSES_SET") : "";
  const bool len_set = set_name == "len", dyn_set = set_name == "bstride";
  const std::vector<Shape> set =
      len_set   ? std::vector<Shape>(std::begin(len_shapes), std::end(len_shapes))
      : dyn_set ? std::vector<Shape>(std::begin(dyn_shapes), std::end(dyn_shapes))
                : std::vector<Shape>(std::begin(shapes), std::end(shapes));
  const std::vector<int> sizes = len_set   ? std::vector<int>{32, 64, 128}
                                 : dyn_set ? std::vector<int>{16, 64, 128}
                                           : std::vector<int>{16, 32, 48, 64, 96, 128};
  const int max_p = len_set ? 2 : 3;
  for (const Shape &sh : set) {
    for (int mib : sizes) {
      const size_t n = (size_t)mib << 18;  // floats
      const int cols = sh.cols, rows = (int)(n / (size_t)cols), pitch = cols + sh.pad;
      for (int P = 1; P <= max_p; ++P) {
        Row row;
        row.family = "passes";
        row.name = std::string(sh.name) + "_p" + std::to_string(P);
        row.params = "in=" + std::to_string(mib) + "MiB cols=" + std::to_string(cols) +
                     " rows=" + std::to_string(rows) +
                     (sh.pad ? " pitch=" + std::to_string(pitch) : std::string());
        const size_t dyn = sh.bpsm ? dyn_smem_for_bpsm(b.prop, sh.bpsm) : 0;  // warp shapes
        const dim3 grid((unsigned)(sh.warp ? (rows + 7) / 8 : rows)), block(256);
        auto k = sh.warp  ? (P == 1 ? k_pw<1> : P == 2 ? k_pw<2> : k_pw<3>)
                 : sh.dyn ? (P == 1 ? k_pbd<1> : P == 2 ? k_pbd<2> : k_pbd<3>)
                          : (P == 1 ? k_pb<1> : P == 2 ? k_pb<2> : k_pb<3>);
        CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                sh.small_l1 ? 100 : -1));
        row_shape(row, k, grid, block, dyn);
        auto launch = [&] { k<<<grid, block, dyn, b.stream>>>(in, out, rows, cols, pitch); };
        if (profile) {
          profile_case(b, launch);
          continue;
        }
        row.t = time_case(b, 9, true, launch);
        row.bytes = (unsigned long long)n * 4 * (P + 1);
        row.flops = (unsigned long long)n * (2 * P);
        // check three rows against the host
        for (int r : {0, rows / 2, rows - 1}) {
          std::vector<float> hx(cols), hy(cols);
          std::vector<double> want;
          CK(cudaMemcpy(hx.data(), in + (size_t)r * pitch, (size_t)cols * 4,
                        cudaMemcpyDeviceToHost));
          CK(cudaMemcpy(hy.data(), out + (size_t)r * pitch, (size_t)cols * 4,
                        cudaMemcpyDeviceToHost));
          host_row(hx, cols, P, want);
          for (int c = 0; c < cols; c += cols / 8 + 1)
            REQUIRE(fabs(hy[c] - want[c]) <= 1e-3 * (1.0 + fabs(want[c])),
                    "passes %s %s: row %d col %d got %g want %g", row.name.c_str(),
                    row.params.c_str(), r, c, hy[c], want[c]);
        }
        emit(b, row);
      }
    }
  }
  CK(cudaFree(in));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
