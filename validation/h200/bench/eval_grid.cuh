// eval_grid.cuh - evaluation families on regular grids: 2-D and 3-D stencils,
// 2-D convolutions (naive, shared tile, separable) and transposes. Included by
// bench_eval.cu only (uses its helpers).

// ---------------------------------------------------------------- stencil2d

// 5-point stencil, one interior point per thread, neighbours read from global.
__global__ void k_st2d_naive(const float *__restrict__ in, float *__restrict__ out, int n,
                             float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1) {
    size_t i = (size_t)y * n + x;
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
  }
}

// 5-point stencil through a shared tile of (BY+2) x (BX+2) with a one-point halo.
template <int BX, int BY>
__global__ void k_st2d_smem(const float *__restrict__ in, float *__restrict__ out, int n,
                            float c0, float c1) {
  __shared__ float t[BY + 2][BX + 2];
  int x = blockIdx.x * BX + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  auto ld = [&](int xx, int yy) {
    return (xx >= 0 && xx < n && yy >= 0 && yy < n) ? in[(size_t)yy * n + xx] : 0.0f;
  };
  t[ty][tx] = ld(x, y);
  if (threadIdx.x == 0) t[ty][0] = ld(x - 1, y);
  if (threadIdx.x == BX - 1) t[ty][BX + 1] = ld(x + 1, y);
  if (threadIdx.y == 0) t[0][tx] = ld(x, y - 1);
  if (threadIdx.y == BY - 1) t[BY + 1][tx] = ld(x, y + 1);
  __syncthreads();
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1)
    out[(size_t)y * n + x] =
        c0 * t[ty][tx] + c1 * (t[ty][tx - 1] + t[ty][tx + 1] + t[ty - 1][tx] + t[ty + 1][tx]);
}

static void check_st2d(const std::string &what, const float *out, int n, unsigned seed) {
  check_f(what, out, (size_t)n * n, [&](size_t i) {
    size_t x = i % n, y = i / n;
    if (x < 1 || x >= (size_t)n - 1 || y < 1 || y >= (size_t)n - 1) return (double)NAN;
    return 0.5 * fval(i, seed) +
           0.125 * (fval(i - 1, seed) + fval(i + 1, seed) + fval(i - n, seed) + fval(i + n, seed));
  }, 1e-6);
}

static void fam_stencil2d(Eval &e) {
  const unsigned seed = 11;
  for (int n : {256, 2048, 8192}) {
    size_t cells = (size_t)n * n;
    std::string ps = "n=" + std::to_string(n);
    bool ready = false;
    auto setup = [&] {
      if (ready) return;
      fill_small(e.f(0), cells, seed);
      ready = true;
    };
    const float *in = e.f(0);
    float *out = e.f(1);
    struct Shape { int bx, by; } shapes[] = {{16, 16}, {64, 4}};
    for (Shape s : shapes) {
      std::string p = ps + " block=" + std::to_string(s.bx) + "x" + std::to_string(s.by);
      if (!want(e, "stencil2d", "5pt_naive", p)) continue;
      setup();
      dim3 g(n / s.bx, n / s.by), bl(s.bx, s.by);
      row1(e, "stencil2d", "5pt_naive", p, k_st2d_naive, g, bl, 0, 7, true,
           [&] { k_st2d_naive<<<g, bl, 0, e.b.stream>>>(in, out, n, 0.5f, 0.125f); },
           8ull * cells, 6ull * cells, [&] { check_st2d("stencil2d naive", out, n, seed); });
    }
    std::string p = ps + " block=32x8";
    if (want(e, "stencil2d", "5pt_smem", p)) {
      setup();
      dim3 g(n / 32, n / 8), bl(32, 8);
      row1(e, "stencil2d", "5pt_smem", p, k_st2d_smem<32, 8>, g, bl, 0, 7, true,
           [&] { k_st2d_smem<32, 8><<<g, bl, 0, e.b.stream>>>(in, out, n, 0.5f, 0.125f); },
           8ull * cells, 6ull * cells, [&] { check_st2d("stencil2d smem", out, n, seed); });
    }
  }
}

// ---------------------------------------------------------------- stencil3d

// 7-point stencil on an n^3 grid: 2-D blocks over (x, y), blockIdx.z = z plane.
__global__ void k_st3d_7(const float *__restrict__ in, float *__restrict__ out, int n, float c0,
                         float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1 && z >= 1 && z < n - 1) {
    size_t s = n, p = (size_t)n * n, i = z * p + y * s + x;
    out[i] = c0 * in[i] +
             c1 * (in[i - 1] + in[i + 1] + in[i - s] + in[i + s] + in[i - p] + in[i + p]);
  }
}

// 27-point stencil: centre weight c0, the 26 neighbours c1.
__global__ void k_st3d_27(const float *__restrict__ in, float *__restrict__ out, int n, float c0,
                          float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1 && z >= 1 && z < n - 1) {
    size_t s = n, p = (size_t)n * n, i = z * p + y * s + x;
    float acc = 0;
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
      for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
          if (dx || dy || dz) acc += in[i + dz * p + dy * s + dx];
    out[i] = c0 * in[i] + c1 * acc;
  }
}

static void stencil3d(Eval &e, const char *fam, bool s27) {
  const unsigned seed = 12;
  for (int n : {64, 256, 512}) {
    size_t cells = (size_t)n * n * n, p = (size_t)n * n;
    bool ready = false;
    for (int by : {4, 8}) {
      std::string ps = "n=" + std::to_string(n) + " block=32x" + std::to_string(by);
      if (!want(e, fam, s27 ? "27pt" : "7pt", ps)) continue;
      if (!ready) {
        fill_small(e.f(0), cells, seed);
        ready = true;
      }
      const float *in = e.f(0);
      float *out = e.f(1);
      dim3 g(n / 32, n / by, n), bl(32, by);
      auto want27 = [&](size_t i) {
        size_t x = i % n, y = (i / n) % n, z = i / p;
        if (x < 1 || x >= (size_t)n - 1 || y < 1 || y >= (size_t)n - 1 || z < 1 || z >= (size_t)n - 1)
          return (double)NAN;
        double acc = 0;
        for (long dz = -1; dz <= 1; ++dz)
          for (long dy = -1; dy <= 1; ++dy)
            for (long dx = -1; dx <= 1; ++dx) {
              bool centre = !dx && !dy && !dz;
              bool face = (dx != 0) + (dy != 0) + (dz != 0) == 1;
              if (centre || (!s27 && !face)) continue;
              acc += fval(i + dz * (long)p + dy * (long)n + dx, seed);
            }
        return (s27 ? 0.25 : 0.5) * fval(i, seed) + (s27 ? 1.0 / 32 : 0.125) * acc;
      };
      if (s27)
        row1(e, fam, "27pt", ps, k_st3d_27, g, bl, 0, 7, true,
             [&] { k_st3d_27<<<g, bl, 0, e.b.stream>>>(in, out, n, 0.25f, 1.0f / 32); },
             8ull * cells, 28ull * cells, [&] { check_f("stencil3d 27pt", out, cells, want27, 1e-6); });
      else
        row1(e, fam, "7pt", ps, k_st3d_7, g, bl, 0, 7, true,
             [&] { k_st3d_7<<<g, bl, 0, e.b.stream>>>(in, out, n, 0.5f, 0.125f); },
             8ull * cells, 8ull * cells, [&] { check_f("stencil3d 7pt", out, cells, want27, 1e-6); });
    }
  }
}
static void fam_stencil3d_7(Eval &e) { stencil3d(e, "stencil3d_7pt", false); }
static void fam_stencil3d_27(Eval &e) { stencil3d(e, "stencil3d_27pt", true); }

// ---------------------------------------------------------------- conv2d

__constant__ float c_filt[17 * 17];

// Filter weight w[k] in {-0.25, 0, 0.25} (host mirror of c_filt).
static float filt_w(int k) { return 0.25f * float(k % 3 - 1); }

static void set_filter() {
  float h[17 * 17];
  for (int k = 0; k < 17 * 17; ++k) h[k] = filt_w(k);
  CK(cudaMemcpyToSymbol(c_filt, h, sizeof(h)));
}

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

// KxK convolution with clamp-to-edge borders, one output pixel per thread, taps from global.
template <int K>
__global__ void k_conv_naive(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int R = K / 2;
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    float s = 0;
#pragma unroll
    for (int dy = 0; dy < K; ++dy) {
      int yy = clampi(y + dy - R, 0, n - 1);
#pragma unroll
      for (int dx = 0; dx < K; ++dx) {
        int xx = clampi(x + dx - R, 0, n - 1);
        s += c_filt[dy * K + dx] * in[(size_t)yy * n + xx];
      }
    }
    out[(size_t)y * n + x] = s;
  }
}

// KxK convolution: 16x16 output tile per block; the (16+K-1)^2 input tile with its
// halo is loaded into shared memory by the block's 256 threads in turn.
template <int K>
__global__ void k_conv_tiled(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int R = K / 2, T = 16, W = T + K - 1;
  __shared__ float t[W][W];
  int bx = blockIdx.x * T, by = blockIdx.y * T;
  for (int i = threadIdx.y * T + threadIdx.x; i < W * W; i += T * T) {
    int ly = i / W, lx = i % W;
    int gx = clampi(bx + lx - R, 0, n - 1), gy = clampi(by + ly - R, 0, n - 1);
    t[ly][lx] = in[(size_t)gy * n + gx];
  }
  __syncthreads();
  int x = bx + threadIdx.x, y = by + threadIdx.y;
  if (x < n && y < n) {
    float s = 0;
#pragma unroll
    for (int dy = 0; dy < K; ++dy)
#pragma unroll
      for (int dx = 0; dx < K; ++dx) s += c_filt[dy * K + dx] * t[threadIdx.y + dy][threadIdx.x + dx];
    out[(size_t)y * n + x] = s;
  }
}

static double conv_want(size_t i, int n, int K, unsigned seed) {
  long x = i % n, y = i / n, R = K / 2;
  double s = 0;
  for (long dy = 0; dy < K; ++dy)
    for (long dx = 0; dx < K; ++dx) {
      long xx = std::min(std::max(x + dx - R, 0L), (long)n - 1);
      long yy = std::min(std::max(y + dy - R, 0L), (long)n - 1);
      s += filt_w(int(dy * K + dx)) * fval(yy * n + xx, seed);
    }
  return s;
}

static void fam_conv2d(Eval &e) {
  const unsigned seed = 13;
  for (int n : {1024, 4096, 8192}) {
    size_t px = (size_t)n * n;
    bool ready = false;
    for (int K : {3, 7}) {
      for (int tiled = 0; tiled < 2; ++tiled) {
        std::string ps = "n=" + std::to_string(n) + " K=" + std::to_string(K) +
                         (tiled ? " block=16x16" : " block=32x8");
        const char *nm = tiled ? "tiled" : "naive";
        if (!want(e, "conv2d", nm, ps)) continue;
        if (!ready) {
          fill_small(e.f(0), px, seed);
          set_filter();
          ready = true;
        }
        const float *in = e.f(0);
        float *out = e.f(1);
        auto chk = [&] {
          check_f(std::string("conv2d ") + nm, out, px,
                  [&](size_t i) { return conv_want(i, n, K, seed); }, 1e-6);
        };
        dim3 g = tiled ? dim3(n / 16, n / 16) : dim3(n / 32, n / 8);
        dim3 bl = tiled ? dim3(16, 16) : dim3(32, 8);
        unsigned long long fl = 2ull * K * K * px;
        if (K == 3 && tiled)
          row1(e, "conv2d", nm, ps, k_conv_tiled<3>, g, bl, 0, 7, true,
               [&] { k_conv_tiled<3><<<g, bl, 0, e.b.stream>>>(in, out, n); }, 8ull * px, fl, chk);
        else if (K == 3)
          row1(e, "conv2d", nm, ps, k_conv_naive<3>, g, bl, 0, 7, true,
               [&] { k_conv_naive<3><<<g, bl, 0, e.b.stream>>>(in, out, n); }, 8ull * px, fl, chk);
        else if (tiled)
          row1(e, "conv2d", nm, ps, k_conv_tiled<7>, g, bl, 0, 7, true,
               [&] { k_conv_tiled<7><<<g, bl, 0, e.b.stream>>>(in, out, n); }, 8ull * px, fl, chk);
        else
          row1(e, "conv2d", nm, ps, k_conv_naive<7>, g, bl, 0, 7, true,
               [&] { k_conv_naive<7><<<g, bl, 0, e.b.stream>>>(in, out, n); }, 8ull * px, fl, chk);
      }
    }
  }
}

// ---------------------------------------------------------------- conv_sep

static const int kSepK = 9;  // separable filter taps (radius 4), weights c_filt[0..8]

// Row pass: out[y][x] = sum_k w[k] * in[y][clamp(x + k - R)].
__global__ void k_conv_rows(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int R = kSepK / 2;
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    float s = 0;
#pragma unroll
    for (int k = 0; k < kSepK; ++k) s += c_filt[k] * in[(size_t)y * n + clampi(x + k - R, 0, n - 1)];
    out[(size_t)y * n + x] = s;
  }
}

// Column pass: out[y][x] = sum_k w[k] * in[clamp(y + k - R)][x].
__global__ void k_conv_cols(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int R = kSepK / 2;
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) {
    float s = 0;
#pragma unroll
    for (int k = 0; k < kSepK; ++k) s += c_filt[k] * in[(size_t)clampi(y + k - R, 0, n - 1) * n + x];
    out[(size_t)y * n + x] = s;
  }
}

static double sep_want(size_t i, int n, bool rows, unsigned seed) {
  long x = i % n, y = i / n, R = kSepK / 2;
  double s = 0;
  for (long k = 0; k < kSepK; ++k) {
    long xx = rows ? std::min(std::max(x + k - R, 0L), (long)n - 1) : x;
    long yy = rows ? y : std::min(std::max(y + k - R, 0L), (long)n - 1);
    s += filt_w(int(k)) * fval(yy * n + xx, seed);
  }
  return s;
}

static void fam_conv_sep(Eval &e) {
  const unsigned seed = 14;
  for (int n : {1024, 4096, 8192}) {
    size_t px = (size_t)n * n;
    bool ready = false;
    for (int rows = 1; rows >= 0; --rows) {
      std::string ps = "n=" + std::to_string(n) + " K=9 block=32x8";
      const char *nm = rows ? "rows" : "cols";
      if (!want(e, "conv_sep", nm, ps)) continue;
      if (!ready) {
        fill_small(e.f(0), px, seed);
        set_filter();
        ready = true;
      }
      const float *in = e.f(0);
      float *out = e.f(1);
      dim3 g(n / 32, n / 8), bl(32, 8);
      auto chk = [&] {
        check_f(std::string("conv_sep ") + nm, out, px,
                [&](size_t i) { return sep_want(i, n, rows, seed); }, 1e-6);
      };
      if (rows)
        row1(e, "conv_sep", nm, ps, k_conv_rows, g, bl, 0, 7, true,
             [&] { k_conv_rows<<<g, bl, 0, e.b.stream>>>(in, out, n); }, 8ull * px, 18ull * px, chk);
      else
        row1(e, "conv_sep", nm, ps, k_conv_cols, g, bl, 0, 7, true,
             [&] { k_conv_cols<<<g, bl, 0, e.b.stream>>>(in, out, n); }, 8ull * px, 18ull * px, chk);
    }
  }
}

// ---------------------------------------------------------------- transpose

// Naive: one element per thread, 32x32 blocks; reads coalesced, writes strided by n.
__global__ void k_tr_naive32(float *__restrict__ out, const float *__restrict__ in, int n) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  out[(size_t)x * n + y] = in[(size_t)y * n + x];
}

// Through a 32 x (32+PAD) shared tile, one element per thread, 32x32 blocks.
template <int PAD>
__global__ void k_tr_smem32(float *__restrict__ out, const float *__restrict__ in, int n) {
  __shared__ float tile[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[(size_t)y * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  out[(size_t)y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// Diagonal block ordering (square matrices), padded tile, 32x8 threads, 4 elements each:
// bx = (blockIdx.x + blockIdx.y) % gridDim.x, by = blockIdx.x.
__global__ void k_tr_diag(float *__restrict__ out, const float *__restrict__ in, int n) {
  __shared__ float tile[32][33];
  int by = blockIdx.x, bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  int x = bx * 32 + threadIdx.x, y = by * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
  __syncthreads();
  x = by * 32 + threadIdx.x;
  y = bx * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

static void fam_transpose(Eval &e) {
  const unsigned seed = 15;
  for (int n : {1024, 4096, 8192}) {
    size_t nel = (size_t)n * n;
    bool ready = false;
    const char *names[] = {"naive_32x32", "smem_32x32", "smem_pad_32x32", "diagonal_32x8"};
    for (int v = 0; v < 4; ++v) {
      std::string ps = "n=" + std::to_string(n);
      if (!want(e, "transpose", names[v], ps)) continue;
      if (!ready) {
        fill_small(e.f(0), nel, seed);
        ready = true;
      }
      const float *in = e.f(0);
      float *out = e.f(1);
      CK(cudaMemset(out, 0, nel * sizeof(float)));
      dim3 g(n / 32, n / 32), bl(32, v == 3 ? 8 : 32);
      auto chk = [&] {
        check_f(std::string("transpose ") + names[v], out, nel, [&](size_t k) {
          return (double)fval((k % n) * n + k / n, seed);
        }, 0);
      };
      auto go = [&](auto kern) {
        row1(e, "transpose", names[v], ps, kern, g, bl, 0, 7, true,
             [&] { kern<<<g, bl, 0, e.b.stream>>>(out, in, n); }, 8ull * nel, 0, chk);
      };
      if (v == 0) go(k_tr_naive32);
      else if (v == 1) go(k_tr_smem32<0>);
      else if (v == 2) go(k_tr_smem32<1>);
      else go(k_tr_diag);
    }
  }
}
