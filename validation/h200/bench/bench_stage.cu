// bench_stage.cu - one-float blocks staged through shared memory (family `stage`): what a
// barrier, a shared tile and the reads of a 5-point stencil from it add to the life of a
// short memory-bound block, against the same block's plain copy.
//   1-D  blocks of BS = 128, 256, 512, 1024 threads, thread t of block b owns element
//        g = b BS + t:
//          copy   out[g] = a[g]
//          bar    v = a[g]; __syncthreads(); out[g] = v
//          smem   s[t] = a[g]; __syncthreads(); out[g] = s[t ^ 32] (the next warp's)
//          smem5  s[t + 1] = a[g], s[0] = s[BS + 1] = 0 (threads 0 and BS - 1);
//                 __syncthreads(); out[g] = 0.5 s[t + 1] + 0.125 (s[t] + s[t + 2] +
//                 s[(t + 32) % BS + 1] + s[(t + BS - 32) % BS + 1]) (five LDS)
//   2-D  blocks of BX x BY = 32x8, 16x16, 32x32 over n x n floats, x = bx BX + tx,
//        y = by BY + ty, i = y n + x:
//          copy2d  out[i] = a[i]
//          smem2d  t[ty][tx] = a[i]; __syncthreads(); out[i] = t[(ty + 1) % BY][tx]
//          st2d    bench_tiles3's st `nh` stencil: t[ty + 1][tx + 1] = a[i] (bounds
//                  checked), the halo cells set to 0 in branches, __syncthreads(), the
//                  5-point sum from the tile stored where 1 <= x, y < n - 1
// DRAM: n = 2^26 elements (8192 x 8192), the L2 flushed before every repetition (memset
// of a 1 GiB scratch); L2: n = 2^22 (2048 x 2048), no flush (the warm-ups leave a and
// out in the L2). Every row is timed with CUDA events (median of 7 after 2 warm-ups) on
// a kernel without instrumentation; one more launch of it with stamps (stamps.cuh) gives
// the side table STAMPS.csv (block life, start-to-start period per SM, blocks resident).
// Every output is checked at 1024 spread indices.
//
// usage: bench_stage OUT.csv STAMPS.csv [device]
#include "stamps.cuh"

enum { V_COPY = 0, V_BAR = 1, V_SMEM = 2, V_SMEM5 = 3 };
enum { W_COPY = 0, W_SMEM = 1, W_ST = 2 };
static const float kC0 = 0.5f, kC1 = 0.125f;

template <int BS, int V, bool S>
__global__ void __launch_bounds__(BS) k_stage1(const float *__restrict__ a, float *out,
                                                BlockStamps ts) {
  __shared__ float s[BS + 2];
  STAMP_START
  const int t = threadIdx.x;
  const size_t g = (size_t)blockIdx.x * BS + t;
  if (V == V_COPY) {
    out[g] = a[g];
  } else if (V == V_BAR) {
    const float v = a[g];
    __syncthreads();
    out[g] = v;
  } else if (V == V_SMEM) {
    s[t] = a[g];
    __syncthreads();
    out[g] = s[t ^ 32];
  } else {
    s[t + 1] = a[g];
    if (t == 0) s[0] = 0.f;
    if (t == BS - 1) s[BS + 1] = 0.f;
    __syncthreads();
    out[g] = kC0 * s[t + 1] +
             kC1 * (s[t] + s[t + 2] + s[(t + 32) % BS + 1] + s[(t + BS - 32) % BS + 1]);
  }
  STAMP_END
}

template <int BX, int BY, int V, bool S>
__global__ void __launch_bounds__(BX *BY) k_stage2(const float *__restrict__ a, float *out,
                                                    int n, BlockStamps ts) {
  __shared__ float t[BY + 2][BX + 2];
  STAMP_START
  const int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  const size_t i = (size_t)y * n + x;
  if (V == W_COPY) {
    out[i] = a[i];
  } else if (V == W_SMEM) {
    t[threadIdx.y][threadIdx.x] = a[i];
    __syncthreads();
    out[i] = t[(threadIdx.y + 1) % BY][threadIdx.x];
  } else {
    t[ty][tx] = (x >= 0 && x < n && y >= 0 && y < n) ? a[i] : 0.0f;
    if (threadIdx.x == 0) t[ty][0] = 0.f;
    if (threadIdx.x == BX - 1) t[ty][BX + 1] = 0.f;
    if (threadIdx.y == 0) t[0][tx] = 0.f;
    if (threadIdx.y == BY - 1) t[BY + 1][tx] = 0.f;
    __syncthreads();
    if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
      out[i] = kC0 * t[ty][tx] + kC1 * (t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx]);
  }
  STAMP_END
}

// Host mirrors of the outputs (a[i] = pattern_at(i, 4, 0.5f)).
static float want1(int v, int bs, size_t g) {
  auto A = [](size_t i) { return pattern_at(i, 4, 0.5f); };
  size_t b0 = g / bs * bs;
  int t = int(g % bs);
  if (v == V_COPY || v == V_BAR) return A(g);
  if (v == V_SMEM) return A(b0 + (t ^ 32));
  auto sv = [&](int k) { return k == 0 || k == bs + 1 ? 0.f : A(b0 + k - 1); };
  return kC0 * sv(t + 1) +
         kC1 * (sv(t) + sv(t + 2) + sv((t + 32) % bs + 1) + sv((t + bs - 32) % bs + 1));
}

static float want2(int v, int bx, int by, int n, size_t i) {
  auto A = [](size_t j) { return pattern_at(j, 4, 0.5f); };
  int x = int(i % n), y = int(i / n);
  if (v == W_COPY) return A(i);
  int y0 = y / by * by, ty = y - y0;
  if (v == W_SMEM) return A((size_t)(y0 + (ty + 1) % by) * n + x);
  int x0 = x / bx * bx;
  auto tv = [&](int xx, int yy) {  // the tile's value at (xx, yy): 0 outside the tile
    return xx < x0 || xx >= x0 + bx || yy < y0 || yy >= y0 + by ? 0.f
                                                                : A((size_t)yy * n + xx);
  };
  return kC0 * tv(x, y) + kC1 * (tv(x - 1, y) + tv(x + 1, y) + tv(x, y - 1) + tv(x, y + 1));
}

struct Ctx {
  Bench b;
  float *A, *O;
  BlockStamps ts;
};
static const size_t kN = size_t(1) << 26;  // floats per buffer (256 MiB)
static FILE *g_st = nullptr;

static std::string p2(size_t n) {
  int k = 0;
  while ((size_t(1) << k) < n) ++k;
  return "2^" + std::to_string(k);
}

template <int BS, int V>
static void row1(Ctx &c, const char *name, size_t n, bool cold) {
  Bench &b = c.b;
  const float *A = c.A;
  float *O = c.O;
  const BlockStamps ts = c.ts;
  const unsigned blocks = (unsigned)(n / BS);
  Row r;
  r.family = "stage";
  r.name = name;
  r.params = "n=" + p2(n) + " bs=" + std::to_string(BS) + " ws=" + (cold ? "dram" : "l2");
  row_shape(r, k_stage1<BS, V, false>, dim3(blocks), dim3(BS), 0);
  r.bytes = 8ull * n;
  CK(cudaMemsetAsync(O, 0xff, n * 4, b.stream));
  std::function<void(bool)> launch = [&, blocks](bool s) {
    if (s) k_stage1<BS, V, true><<<blocks, BS, 0, b.stream>>>(A, O, ts);
    else k_stage1<BS, V, false><<<blocks, BS, 0, b.stream>>>(A, O, ts);
  };
  run_stamped_row(b, ts, g_st, r, cold, blocks, r.blocks_per_sm, launch);
  check_spread(name, O, n, [&](size_t g) { return want1(V, BS, g); });
}

template <int BX, int BY, int V>
static void row2(Ctx &c, const char *name, int n, bool cold) {
  Bench &b = c.b;
  const float *A = c.A;
  float *O = c.O;
  const BlockStamps ts = c.ts;
  const dim3 grid(n / BX, n / BY), block(BX, BY);
  Row r;
  r.family = "stage";
  r.name = name;
  r.params = "n=" + std::to_string(n) + " block=" + std::to_string(BX) + "x" +
             std::to_string(BY) + " ws=" + (cold ? "dram" : "l2");
  row_shape(r, k_stage2<BX, BY, V, false>, grid, block, 0);
  r.bytes = 8ull * n * n;
  const size_t nn = (size_t)n * n;
  CK(cudaMemsetAsync(O, 0, nn * 4, b.stream));
  std::function<void(bool)> launch = [&, grid, block, n](bool s) {
    if (s) k_stage2<BX, BY, V, true><<<grid, block, 0, b.stream>>>(A, O, n, ts);
    else k_stage2<BX, BY, V, false><<<grid, block, 0, b.stream>>>(A, O, n, ts);
  };
  run_stamped_row(b, ts, g_st, r, cold, (long long)grid.x * grid.y, r.blocks_per_sm, launch);
  check_spread(name, O, nn, [&](size_t i) {
    int x = int(i % n), y = int(i / n);
    if (V == W_ST && !(x >= 1 && x < n - 1 && y >= 1 && y < n - 1)) return 0.f;
    return want2(V, BX, BY, n, i);
  });
}

template <int BS>
static void rows1(Ctx &c, size_t n, bool cold) {
  row1<BS, V_COPY>(c, "copy", n, cold);
  row1<BS, V_BAR>(c, "bar", n, cold);
  row1<BS, V_SMEM>(c, "smem", n, cold);
  row1<BS, V_SMEM5>(c, "smem5", n, cold);
}

template <int BX, int BY>
static void rows2(Ctx &c, int n, bool cold) {
  row2<BX, BY, W_COPY>(c, "copy2d", n, cold);
  row2<BX, BY, W_SMEM>(c, "smem2d", n, cold);
  row2<BX, BY, W_ST>(c, "st2d", n, cold);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv STAMPS.csv [device]\n", argv[0]);
    return 2;
  }
  Ctx c;
  bench_open(c.b, argv[1], argc > 3 ? atoi(argv[3]) : 0);
  g_st = fopen(argv[2], "w");
  REQUIRE(g_st, "cannot write %s", argv[2]);
  stamps_header(g_st);
  CK(cudaMalloc(&c.A, kN * 4));
  CK(cudaMalloc(&c.O, kN * 4));
  fill_pattern(c.A, kN, 4, 0.5f);  // 0, .5, 1, 1.5, ...
  stamps_alloc(c.ts);
  for (int ws = 0; ws < 2; ++ws) {
    const bool cold = ws == 0;
    const size_t n = cold ? kN : size_t(1) << 22;
    const int side = cold ? 8192 : 2048;
    rows1<128>(c, n, cold);
    rows1<256>(c, n, cold);
    rows1<512>(c, n, cold);
    rows1<1024>(c, n, cold);
    rows2<32, 8>(c, side, cold);
    rows2<16, 16>(c, side, cold);
    rows2<32, 32>(c, side, cold);
  }
  CK(cudaFree(c.A));
  CK(cudaFree(c.O));
  stamps_free(c.ts);
  fclose(g_st);
  bench_close(c.b);
  return 0;
}
