// eval_dense.cuh - evaluation families of dense arithmetic: GEMM (naive, shared
// tiles, register blocking, WMMA fp16), softmax, layer norm, an attention tile,
// k-means assignment, n-body, matrix-vector. Included by bench_eval.cu only.

// ---------------------------------------------------------------- GEMM (fp32, row-major)

// C[row][col] = sum_k A[row][k] * B[k][col]; row = by*bdy + ty, col = bx*bdx + tx.
__global__ void k_gemm_naive(const float *__restrict__ A, const float *__restrict__ B,
                             float *__restrict__ C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float s = 0;
    for (int k = 0; k < n; ++k) s += A[(size_t)row * n + k] * B[(size_t)k * n + col];
    C[(size_t)row * n + col] = s;
  }
}

// T x T shared tiles of A and B per step; T x T threads, one output each (n % T == 0).
template <int T>
__global__ void k_gemm_tiled(const float *__restrict__ A, const float *__restrict__ B,
                             float *__restrict__ C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float s = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[ty][tx] = A[(size_t)row * n + k0 + tx];
    Bs[ty][tx] = B[(size_t)(k0 + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < T; ++k) s += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[(size_t)row * n + col] = s;
}

// Register blocking: 16x16 threads, block tile (16*TM) x (16*TN), K step BK; thread
// (tx, ty) computes rows ty*TM + i and columns tx*TN + j of the block tile.
template <int TM, int TN, int BK>
__global__ void __launch_bounds__(256) k_gemm_reg(const float *__restrict__ A,
                                                  const float *__restrict__ B,
                                                  float *__restrict__ C, int n) {
  const int BM = 16 * TM, BN = 16 * TN;
  __shared__ float As[BK][BM], Bs[BK][BN];
  int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = 0;
  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int i = tid; i < BM * BK; i += 256) {
      int r = i / BK, c = i % BK;
      As[c][r] = A[(size_t)(row0 + r) * n + k0 + c];
    }
    for (int i = tid; i < BK * BN; i += 256) {
      int r = i / BN, c = i % BN;
      Bs[r][c] = B[(size_t)(k0 + r) * n + col0 + c];
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float a[TM], b[TN];
#pragma unroll
      for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
      for (int j = 0; j < TN; ++j) b[j] = Bs[kk][tx * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) C[(size_t)(row0 + ty * TM + i) * n + col0 + tx * TN + j] = acc[i][j];
}

// WMMA fp16 -> fp32, warp per 16x16 output tile, fragments loaded straight from global.
// Block of 128 threads = 4 warps side by side in x: tile (blockIdx.y, blockIdx.x*4 + warp).
__global__ void k_wmma_simple(const __half *__restrict__ A, const __half *__restrict__ B,
                              float *__restrict__ C, int n) {
  using namespace nvcuda;
  int warp = threadIdx.x / 32;
  int tr = blockIdx.y * 16, tc = (blockIdx.x * 4 + warp) * 16;
  if (tr >= n || tc >= n) return;  // whole warp
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
  wmma::fill_fragment(c, 0.0f);
  for (int k = 0; k < n; k += 16) {
    wmma::load_matrix_sync(a, A + (size_t)tr * n + k, n);
    wmma::load_matrix_sync(b, B + (size_t)k * n + tc, n);
    wmma::mma_sync(c, a, b, c);
  }
  wmma::store_matrix_sync(C + (size_t)tr * n + tc, c, n, wmma::mem_row_major);
}

// WMMA with shared staging: 64x64 block tile, K step 32, 4 warps in 2x2, each warp a
// 32x32 sub-tile (2x2 fragments). Shared rows padded by 8 halves.
__global__ void k_wmma_smem(const __half *__restrict__ A, const __half *__restrict__ B,
                            float *__restrict__ C, int n) {
  using namespace nvcuda;
  __shared__ __align__(32) __half As[64][40];
  __shared__ __align__(32) __half Bs[32][72];
  int tid = threadIdx.x, warp = tid / 32, wy = warp / 2, wx = warp % 2;
  int row0 = blockIdx.y * 64, col0 = blockIdx.x * 64;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[2][2];
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) wmma::fill_fragment(c[i][j], 0.0f);
  for (int k0 = 0; k0 < n; k0 += 32) {
    for (int i = tid; i < 64 * 32; i += 128) {
      int r = i / 32, cc = i % 32;
      As[r][cc] = A[(size_t)(row0 + r) * n + k0 + cc];
    }
    for (int i = tid; i < 32 * 64; i += 128) {
      int r = i / 64, cc = i % 64;
      Bs[r][cc] = B[(size_t)(k0 + r) * n + col0 + cc];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[wy * 32 + i * 16][kk], 40);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &Bs[kk][wx * 32 + j * 16], 72);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(c[i][j], a[i], b[j], c[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(C + (size_t)(row0 + wy * 32 + i * 16) * n + col0 + wx * 32 + j * 16,
                              c[i][j], n, wmma::mem_row_major);
}

// Check C = A B at sampled entries (inputs small integers: exact).
static void check_gemm(const std::string &what, const float *C, int n, unsigned sa, unsigned sb) {
  check_f(what, C, (size_t)n * n, [&](size_t i) {
    size_t r = i / n, c = i % n;
    double s = 0;
    for (size_t k = 0; k < (size_t)n; ++k) s += fval(r * n + k, sa) * fval(k * n + c, sb);
    return s;
  }, 0);
}

// Fill A (buf 0) and B (buf 1) for an n x n product, fp32 or fp16.
static void gemm_inputs(Eval &e, int n, bool half) {
  size_t nel = (size_t)n * n;
  if (half) {
    fill_half((__half *)e.buf[0], nel, 41);
    fill_half((__half *)e.buf[1], nel, 42);
  } else {
    fill_small(e.f(0), nel, 41);
    fill_small(e.f(1), nel, 42);
  }
}

static void fam_gemm_naive(Eval &e) {
  for (int n : {256, 512, 1024, 2048}) {
    for (int bx : {16, 32}) {
      int by = 256 / bx;
      std::string ps = "n=" + std::to_string(n) + " block=" + std::to_string(bx) + "x" +
                       std::to_string(by);
      if (!want(e, "gemm_naive", "naive", ps)) continue;
      gemm_inputs(e, n, false);
      float *C = e.f(2);
      dim3 g(n / bx, n / by), bl(bx, by);
      size_t nel = (size_t)n * n;
      row1(e, "gemm_naive", "naive", ps, k_gemm_naive, g, bl, 0, 5, true,
           [&] { k_gemm_naive<<<g, bl, 0, e.b.stream>>>(e.f(0), e.f(1), C, n); }, 12ull * nel,
           2ull * nel * n, [&] { check_gemm("gemm_naive", C, n, 41, 42); });
    }
  }
}

static void fam_gemm_tiled(Eval &e) {
  for (int n : {256, 512, 1024, 2048}) {
    for (int T : {16, 32}) {
      std::string ps = "n=" + std::to_string(n) + " tile=" + std::to_string(T);
      if (!want(e, "gemm_tiled", "smem_tiled", ps)) continue;
      gemm_inputs(e, n, false);
      float *C = e.f(2);
      dim3 g(n / T, n / T), bl(T, T);
      size_t nel = (size_t)n * n;
      auto chk = [&] { check_gemm("gemm_tiled", C, n, 41, 42); };
      if (T == 16)
        row1(e, "gemm_tiled", "smem_tiled", ps, k_gemm_tiled<16>, g, bl, 0, 5, true,
             [&] { k_gemm_tiled<16><<<g, bl, 0, e.b.stream>>>(e.f(0), e.f(1), C, n); },
             12ull * nel, 2ull * nel * n, chk);
      else
        row1(e, "gemm_tiled", "smem_tiled", ps, k_gemm_tiled<32>, g, bl, 0, 5, true,
             [&] { k_gemm_tiled<32><<<g, bl, 0, e.b.stream>>>(e.f(0), e.f(1), C, n); },
             12ull * nel, 2ull * nel * n, chk);
    }
  }
}

static void fam_gemm_regblock(Eval &e) {
  for (int n : {512, 1024, 2048, 4096}) {
    for (int t : {4, 8}) {
      std::string ps = "n=" + std::to_string(n) + " tile=" + std::to_string(16 * t) + "x" +
                       std::to_string(16 * t) + " thread=" + std::to_string(t) + "x" +
                       std::to_string(t) + " bk=8 block=16x16";
      if (!want(e, "gemm_regblock", "register_blocked", ps)) continue;
      gemm_inputs(e, n, false);
      float *C = e.f(2);
      dim3 g(n / (16 * t), n / (16 * t)), bl(16, 16);
      size_t nel = (size_t)n * n;
      auto chk = [&] { check_gemm("gemm_regblock", C, n, 41, 42); };
      if (t == 4)
        row1(e, "gemm_regblock", "register_blocked", ps, k_gemm_reg<4, 4, 8>, g, bl, 0, 5, true,
             [&] { k_gemm_reg<4, 4, 8><<<g, bl, 0, e.b.stream>>>(e.f(0), e.f(1), C, n); },
             12ull * nel, 2ull * nel * n, chk);
      else
        row1(e, "gemm_regblock", "register_blocked", ps, k_gemm_reg<8, 8, 8>, g, bl, 0, 5, true,
             [&] { k_gemm_reg<8, 8, 8><<<g, bl, 0, e.b.stream>>>(e.f(0), e.f(1), C, n); },
             12ull * nel, 2ull * nel * n, chk);
    }
  }
}

static void fam_gemm_wmma(Eval &e) {
  for (int n : {512, 1024, 2048, 4096}) {
    for (int sm = 0; sm < 2; ++sm) {
      const char *nm = sm ? "wmma_smem_64x64" : "wmma_simple_warp_tile";
      std::string ps = "n=" + std::to_string(n) + " fp16 in fp32 acc block=128";
      if (!want(e, "gemm_wmma", nm, ps)) continue;
      gemm_inputs(e, n, true);
      const __half *A = (const __half *)e.buf[0], *B = (const __half *)e.buf[1];
      float *C = e.f(2);
      size_t nel = (size_t)n * n;
      auto chk = [&] { check_gemm(std::string("gemm_wmma ") + nm, C, n, 41, 42); };
      if (sm) {
        dim3 g(n / 64, n / 64);
        row1(e, "gemm_wmma", nm, ps, k_wmma_smem, g, dim3(128), 0, 5, true,
             [&] { k_wmma_smem<<<g, 128, 0, e.b.stream>>>(A, B, C, n); }, 8ull * nel,
             2ull * nel * n, chk);
      } else {
        dim3 g(n / 64, n / 16);
        row1(e, "gemm_wmma", nm, ps, k_wmma_simple, g, dim3(128), 0, 5, true,
             [&] { k_wmma_simple<<<g, 128, 0, e.b.stream>>>(A, B, C, n); }, 8ull * nel,
             2ull * nel * n, chk);
      }
    }
  }
}

// ---------------------------------------------------------------- block/warp reductions

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Block-wide sum or max (blockDim.x a multiple of 32); every thread gets the result.
__device__ float block_reduce(float v, bool is_max) {
  __shared__ float sh[32];
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
  v = is_max ? warp_max(v) : warp_sum(v);
  __syncthreads();  // sh may still be read from a previous call
  if (lane == 0) sh[w] = v;
  __syncthreads();
  float x = lane < nw ? sh[lane] : (is_max ? -INFINITY : 0.0f);
  return is_max ? warp_max(x) : warp_sum(x);
}

// ---------------------------------------------------------------- softmax

// Row per block: max, sum of exp, write (three passes over the row, strided by blockDim).
__global__ void k_softmax_block(const float *__restrict__ in, float *__restrict__ out, int cols) {
  const float *x = in + (size_t)blockIdx.x * cols;
  float *y = out + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
  m = block_reduce(m, true);
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += __expf(x[c] - m);
  s = block_reduce(s, false);
  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = __expf(x[c] - m) * inv;
}

// Warp per row: row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lanes stride 32.
__global__ void k_softmax_warp(const float *__restrict__ in, float *__restrict__ out, int rows,
                               int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (row >= rows) return;  // whole warp
  const float *x = in + (size_t)row * cols;
  float *y = out + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, x[c]);
  m = warp_max(m);
  float s = 0;
  for (int c = lane; c < cols; c += 32) s += __expf(x[c] - m);
  s = warp_sum(s);
  float inv = 1.0f / s;
  for (int c = lane; c < cols; c += 32) y[c] = __expf(x[c] - m) * inv;
}

struct RC { int rows, cols; };

static void fam_softmax(Eval &e) {
  const unsigned seed = 51;
  RC shapes[] = {{1 << 16, 128}, {1024, 1024}, {1 << 14, 1024}, {4096, 4096}};
  for (RC s : shapes) {
    size_t nel = (size_t)s.rows * s.cols;
    bool ready = false;
    for (int wp = 0; wp < 2; ++wp) {
      const char *nm = wp ? "warp_per_row" : "row_per_block";
      std::string ps = "rows=" + std::to_string(s.rows) + " cols=" + std::to_string(s.cols) +
                       " block=256";
      if (!want(e, "softmax", nm, ps)) continue;
      if (!ready) {
        fill_unit(e.f(0), nel, seed);
        ready = true;
      }
      const float *in = e.f(0);
      float *out = e.f(1);
      int rows = s.rows, cols = s.cols;
      auto chk = [&] {
        check_f(std::string("softmax ") + nm, out, nel, [&](size_t i) {
          size_t r = i / cols;
          double m = -1e30, sum = 0;
          for (int c = 0; c < cols; ++c) m = std::max(m, (double)uval(r * cols + c, seed));
          for (int c = 0; c < cols; ++c) sum += exp(uval(r * cols + c, seed) - m);
          return exp(uval(i, seed) - m) / sum;
        }, 1e-4);
      };
      if (wp) {
        unsigned g = cdiv((size_t)rows * 32, 256);
        row1(e, "softmax", nm, ps, k_softmax_warp, dim3(g), dim3(256), 0, 7, true,
             [&] { k_softmax_warp<<<g, 256, 0, e.b.stream>>>(in, out, rows, cols); }, 8ull * nel,
             4ull * nel, chk);
      } else {
        row1(e, "softmax", nm, ps, k_softmax_block, dim3(rows), dim3(256), 0, 7, true,
             [&] { k_softmax_block<<<rows, 256, 0, e.b.stream>>>(in, out, cols); }, 8ull * nel,
             4ull * nel, chk);
      }
    }
  }
}

// ---------------------------------------------------------------- layernorm

// Row per block: mean, then variance of (x - mean) (a second read), then
// y = (x - mean) * rstd * g[c] + b[c].
__global__ void k_ln_block(const float *__restrict__ in, float *__restrict__ out,
                           const float *__restrict__ g, const float *__restrict__ bta, int cols) {
  const float *x = in + (size_t)blockIdx.x * cols;
  float *y = out + (size_t)blockIdx.x * cols;
  float s = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[c];
  float mean = block_reduce(s, false) / cols;
  float v = 0;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float d = x[c] - mean;
    v += d * d;
  }
  float rstd = rsqrtf(block_reduce(v, false) / cols + 1e-5f);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = (x[c] - mean) * rstd * g[c] + bta[c];
}

// Warp per row, same arithmetic.
__global__ void k_ln_warp(const float *__restrict__ in, float *__restrict__ out,
                          const float *__restrict__ g, const float *__restrict__ bta, int rows,
                          int cols) {
  int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (row >= rows) return;
  const float *x = in + (size_t)row * cols;
  float *y = out + (size_t)row * cols;
  float s = 0;
  for (int c = lane; c < cols; c += 32) s += x[c];
  float mean = warp_sum(s) / cols;
  float v = 0;
  for (int c = lane; c < cols; c += 32) {
    float d = x[c] - mean;
    v += d * d;
  }
  float rstd = rsqrtf(warp_sum(v) / cols + 1e-5f);
  for (int c = lane; c < cols; c += 32) y[c] = (x[c] - mean) * rstd * g[c] + bta[c];
}

static void fam_layernorm(Eval &e) {
  const unsigned seed = 52;
  RC shapes[] = {{1 << 16, 256}, {1024, 1024}, {1 << 14, 1024}, {4096, 4096}};
  for (RC s : shapes) {
    size_t nel = (size_t)s.rows * s.cols;
    bool ready = false;
    for (int wp = 0; wp < 2; ++wp) {
      const char *nm = wp ? "warp_per_row" : "row_per_block";
      std::string ps = "rows=" + std::to_string(s.rows) + " cols=" + std::to_string(s.cols) +
                       " block=256";
      if (!want(e, "layernorm", nm, ps)) continue;
      if (!ready) {
        fill_unit(e.f(0), nel, seed);
        fill_unit(e.f(2), s.cols, seed + 1);
        fill_unit(e.f(3), s.cols, seed + 2);
        ready = true;
      }
      const float *in = e.f(0), *g = e.f(2), *bt = e.f(3);
      float *out = e.f(1);
      int rows = s.rows, cols = s.cols;
      auto chk = [&] {
        check_f(std::string("layernorm ") + nm, out, nel, [&](size_t i) {
          size_t r = i / cols, c = i % cols;
          double m = 0, v = 0;
          for (int k = 0; k < cols; ++k) m += uval(r * cols + k, seed);
          m /= cols;
          for (int k = 0; k < cols; ++k) {
            double t = uval(r * cols + k, seed) - m;
            v += t * t;
          }
          double rstd = 1 / sqrt(v / cols + 1e-5);
          return (uval(i, seed) - m) * rstd * uval(c, seed + 1) + uval(c, seed + 2);
        }, 1e-4);
      };
      if (wp) {
        unsigned gr = cdiv((size_t)rows * 32, 256);
        row1(e, "layernorm", nm, ps, k_ln_warp, dim3(gr), dim3(256), 0, 7, true,
             [&] { k_ln_warp<<<gr, 256, 0, e.b.stream>>>(in, out, g, bt, rows, cols); },
             8ull * nel, 7ull * nel, chk);
      } else {
        row1(e, "layernorm", nm, ps, k_ln_block, dim3(rows), dim3(256), 0, 7, true,
             [&] { k_ln_block<<<rows, 256, 0, e.b.stream>>>(in, out, g, bt, cols); }, 8ull * nel,
             7ull * nel, chk);
      }
    }
  }
}

// ---------------------------------------------------------------- attention (d = 64)

static const int kHd = 64;  // head dimension

// Fused, thread per query: block of 64 queries of head blockIdx.y; K and V staged in
// 64-key shared tiles; online softmax (running max m, sum l, output o rescaled per key).
// Q, K, V, O are [heads][L][64] row-major.
__global__ void __launch_bounds__(64) k_attn_fused(const float *__restrict__ Q,
                                                   const float *__restrict__ K,
                                                   const float *__restrict__ V,
                                                   float *__restrict__ O, int L, float scale) {
  __shared__ float Ks[64][kHd], Vs[64][kHd];
  size_t head = (size_t)blockIdx.y * L * kHd;
  int qi = blockIdx.x * 64 + threadIdx.x;  // L % 64 == 0
  float q[kHd], o[kHd];
#pragma unroll
  for (int c = 0; c < kHd; ++c) q[c] = Q[head + (size_t)qi * kHd + c] * scale, o[c] = 0;
  float m = -INFINITY, l = 0;
  for (int k0 = 0; k0 < L; k0 += 64) {
    __syncthreads();
    for (int i = threadIdx.x; i < 64 * kHd; i += 64) {
      Ks[i / kHd][i % kHd] = K[head + (size_t)k0 * kHd + i];
      Vs[i / kHd][i % kHd] = V[head + (size_t)k0 * kHd + i];
    }
    __syncthreads();
    for (int j = 0; j < 64; ++j) {
      float s = 0;
#pragma unroll
      for (int c = 0; c < kHd; ++c) s += q[c] * Ks[j][c];
      float mn = fmaxf(m, s), corr = __expf(m - mn), p = __expf(s - mn);
      l = l * corr + p;
#pragma unroll
      for (int c = 0; c < kHd; ++c) o[c] = o[c] * corr + p * Vs[j][c];
      m = mn;
    }
  }
  float inv = 1.0f / l;
#pragma unroll
  for (int c = 0; c < kHd; ++c) O[head + (size_t)qi * kHd + c] = o[c] * inv;
}

// Unfused step 1: S[h][i][j] = scale * Q[h][i] . K[h][j]; 16x16 blocks, grid (L/16, L/16, H).
__global__ void k_attn_qk(const float *__restrict__ Q, const float *__restrict__ K,
                          float *__restrict__ S, int L, float scale) {
  int j = blockIdx.x * 16 + threadIdx.x, i = blockIdx.y * 16 + threadIdx.y;
  size_t head = (size_t)blockIdx.z * L * kHd;
  float s = 0;
  for (int c = 0; c < kHd; ++c) s += Q[head + (size_t)i * kHd + c] * K[head + (size_t)j * kHd + c];
  S[(size_t)blockIdx.z * L * L + (size_t)i * L + j] = s * scale;
}

// Unfused step 3: O[h][i][c] = sum_j P[h][i][j] V[h][j][c]; blocks 64x4, grid (L/4, H).
__global__ void k_attn_pv(const float *__restrict__ P, const float *__restrict__ V,
                          float *__restrict__ O, int L) {
  int c = threadIdx.x, i = blockIdx.x * 4 + threadIdx.y;
  size_t head = (size_t)blockIdx.y * L * kHd;
  const float *p = P + (size_t)blockIdx.y * L * L + (size_t)i * L;
  float s = 0;
  for (int j = 0; j < L; ++j) s += p[j] * V[head + (size_t)j * kHd + c];
  O[head + (size_t)i * kHd + c] = s;
}

static void fam_attention(Eval &e) {
  for (int L : {128, 512, 2048}) {
    for (int H : {1, 16}) {
      size_t nel = (size_t)H * L * kHd;
      float scale = 0.125f;  // 1/sqrt(64)
      const float *Q = e.f(0), *K = e.f(1), *V = e.f(2);
      float *O = e.f(3), *S = e.f(4), *P = e.f(5);
      bool ready = false;
      auto setup = [&] {
        if (ready) return;
        fill_unit(e.f(0), nel, 61);
        fill_unit(e.f(1), nel, 62);
        fill_unit(e.f(2), nel, 63);
        ready = true;
      };
      // Check 16 query rows (all 64 outputs each) against a double-precision reference.
      auto chk = [&](const char *what) {
        for (int q = 0; q < 16; ++q) {
          size_t h = (size_t)(q * 7) % H, i = (size_t)q * (L / 16) + q % 3;
          size_t base = h * L * kHd;
          std::vector<double> s(L), o(kHd, 0.0);
          double m = -1e30, sum = 0;
          for (int j = 0; j < L; ++j) {
            double d = 0;
            for (int k = 0; k < kHd; ++k)
              d += (double)uval(base + i * kHd + k, 61) * uval(base + (size_t)j * kHd + k, 62);
            s[j] = d * scale;
            m = std::max(m, s[j]);
          }
          for (int j = 0; j < L; ++j) sum += exp(s[j] - m);
          for (int j = 0; j < L; ++j)
            for (int c = 0; c < kHd; ++c)
              o[c] += exp(s[j] - m) / sum * uval(base + (size_t)j * kHd + c, 63);
          std::vector<float> got = pull(O, base + i * kHd, 1, kHd);
          for (int c = 0; c < kHd; ++c)
            REQUIRE(fabs(got[c] - o[c]) <= 1e-4 * (1 + fabs(o[c])),
                    "%s L=%d H=%d: O[%zu][%zu][%d] = %g, expected %g", what, L, H, h, i, c, got[c],
                    o[c]);
        }
      };
      std::string ps = "L=" + std::to_string(L) + " heads=" + std::to_string(H) + " d=64";
      if (want(e, "attention", "fused_thread_per_query", ps + " block=64")) {
        setup();
        dim3 g(L / 64, H);
        row1(e, "attention", "fused_thread_per_query", ps + " block=64", k_attn_fused, g, dim3(64),
             0, 5, true, [&] { k_attn_fused<<<g, 64, 0, e.b.stream>>>(Q, K, V, O, L, scale); },
             16ull * nel, 4ull * H * L * L * kHd, [&] { chk("attention fused"); });
      }
      if (want(e, "attention", "unfused_qk_softmax_pv", ps + " 3 kernels")) {
        setup();
        dim3 g1(L / 16, L / 16, H), b1(16, 16);
        unsigned g2 = cdiv((size_t)H * L * 32, 256);
        dim3 g3(L / 4, H), b3(64, 4);
        long long blocks = (long long)g1.x * g1.y * g1.z + g2 + (long long)g3.x * g3.y;
        rowN(e, "attention", "unfused_qk_softmax_pv", ps + " 3 kernels", k_attn_qk, blocks, b1, 0,
             5, true,
             [&] {
               k_attn_qk<<<g1, b1, 0, e.b.stream>>>(Q, K, S, L, scale);
               k_softmax_warp<<<g2, 256, 0, e.b.stream>>>(S, P, H * L, L);
               k_attn_pv<<<g3, b3, 0, e.b.stream>>>(P, V, O, L);
             },
             16ull * nel + 16ull * H * L * L, 4ull * H * L * L * kHd,
             [&] { chk("attention unfused"); });
      }
    }
  }
}

// ---------------------------------------------------------------- kmeans

// Assignment step: point i (features feat[f * n + i], feature-major) goes to the nearest
// of k centroids (cent[c * d + f]); ties to the lower index.
__global__ void k_kmeans_global(const float *__restrict__ feat, const float *__restrict__ cent,
                                int *__restrict__ member, int n, int d, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float best = INFINITY;
  int bi = 0;
  for (int c = 0; c < k; ++c) {
    float dist = 0;
    for (int f = 0; f < d; ++f) {
      float t = feat[(size_t)f * n + i] - cent[c * d + f];
      dist += t * t;
    }
    if (dist < best) best = dist, bi = c;
  }
  member[i] = bi;
}

// Same, with the centroids staged in shared memory (k * d floats, dynamic).
__global__ void k_kmeans_smem(const float *__restrict__ feat, const float *__restrict__ cent,
                              int *__restrict__ member, int n, int d, int k) {
  extern __shared__ float sc[];
  for (int t = threadIdx.x; t < k * d; t += blockDim.x) sc[t] = cent[t];
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float best = INFINITY;
  int bi = 0;
  for (int c = 0; c < k; ++c) {
    float dist = 0;
    for (int f = 0; f < d; ++f) {
      float t = feat[(size_t)f * n + i] - sc[c * d + f];
      dist += t * t;
    }
    if (dist < best) best = dist, bi = c;
  }
  member[i] = bi;
}

static void fam_kmeans(Eval &e) {
  struct P { int lg_n, d, k; } cfg[] = {{20, 4, 16}, {20, 16, 32}, {22, 8, 8}, {18, 32, 128}};
  for (P c : cfg) {
    int n = 1 << c.lg_n, d = c.d, k = c.k;
    bool ready = false;
    for (int sm = 0; sm < 2; ++sm) {
      const char *nm = sm ? "centroids_shared" : "centroids_global";
      std::string ps = "n=" + p2(c.lg_n) + " d=" + std::to_string(d) + " k=" + std::to_string(k) +
                       " block=256";
      if (!want(e, "kmeans", nm, ps)) continue;
      if (!ready) {
        fill_unit(e.f(0), (size_t)n * d, 71);
        fill_unit(e.f(1), (size_t)k * d, 72);
        ready = true;
      }
      const float *feat = e.f(0), *cent = e.f(1);
      int *mem = e.i(2);
      unsigned g = cdiv(n, 256);
      size_t dyn = sm ? (size_t)k * d * sizeof(float) : 0;
      auto chk = [&] {
        size_t count = 512, step = n / count;
        std::vector<int> h = pull(mem, 0, step, count);
        for (size_t s = 0; s < count; ++s) {
          size_t i = s * step;
          auto dist = [&](int cc) {
            double t = 0;
            for (int f = 0; f < d; ++f) {
              double q = (double)uval((size_t)f * n + i, 71) - uval((size_t)cc * d + f, 72);
              t += q * q;
            }
            return t;
          };
          double best = 1e30;
          for (int cc = 0; cc < k; ++cc) best = std::min(best, dist(cc));
          REQUIRE(h[s] >= 0 && h[s] < k && dist(h[s]) <= best + 1e-5,
                  "kmeans %s: point %zu assigned %d (distance %g, best %g)", nm, i, h[s],
                  dist(h[s]), best);
        }
      };
      unsigned long long by = 4ull * n * d + 4ull * n, fl = 3ull * n * d * k;
      if (sm)
        row1(e, "kmeans", nm, ps, k_kmeans_smem, dim3(g), dim3(256), dyn, 7, true,
             [&] { k_kmeans_smem<<<g, 256, dyn, e.b.stream>>>(feat, cent, mem, n, d, k); }, by, fl,
             chk);
      else
        row1(e, "kmeans", nm, ps, k_kmeans_global, dim3(g), dim3(256), 0, 7, true,
             [&] { k_kmeans_global<<<g, 256, 0, e.b.stream>>>(feat, cent, mem, n, d, k); }, by,
             fl, chk);
    }
  }
}

// ---------------------------------------------------------------- nbody

// All-pairs accelerations: a_i = sum_j m_j r_ij / (|r_ij|^2 + eps^2)^(3/2), body = (x, y, z, m).
__device__ __forceinline__ float3 body_acc(float4 bi, float4 bj, float3 a) {
  float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  float d2 = r.x * r.x + r.y * r.y + r.z * r.z + 0.01f;
  float inv = rsqrtf(d2);
  float s = bj.w * inv * inv * inv;
  a.x += r.x * s;
  a.y += r.y * s;
  a.z += r.z * s;
  return a;
}

// Naive: each thread reads every body from global memory.
__global__ void k_nbody_naive(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 bi = pos[i];
  float3 a = make_float3(0, 0, 0);
  for (int j = 0; j < n; ++j) a = body_acc(bi, pos[j], a);
  acc[i] = make_float4(a.x, a.y, a.z, 0);
}

// Shared tiles (GPU Gems 3 ch. 31): blockDim.x bodies staged per step (n % blockDim.x == 0).
__global__ void k_nbody_tiled(const float4 *__restrict__ pos, float4 *__restrict__ acc, int n) {
  extern __shared__ float4 sh[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 bi = pos[i];
  float3 a = make_float3(0, 0, 0);
  for (int t = 0; t < n; t += blockDim.x) {
    sh[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < (int)blockDim.x; ++j) a = body_acc(bi, sh[j], a);
    __syncthreads();
  }
  acc[i] = make_float4(a.x, a.y, a.z, 0);
}

static void fam_nbody(Eval &e) {
  for (int n : {4096, 16384, 65536}) {
    bool ready = false;
    for (int tiled = 0; tiled < 2; ++tiled) {
      for (int bs : {128, 256}) {
        const char *nm = tiled ? "shared_tiles" : "naive";
        std::string ps = "n=" + std::to_string(n) + " block=" + std::to_string(bs);
        if (!want(e, "nbody", nm, ps)) continue;
        if (!ready) {
          fill_unit(e.f(0), (size_t)n * 4, 81);
          ready = true;
        }
        const float4 *pos = (const float4 *)e.f(0);
        float *acc = e.f(1);
        unsigned g = n / bs;
        size_t dyn = tiled ? bs * sizeof(float4) : 0;
        auto chk = [&] {
          for (int i = 0; i < n; i += n / 16) {
            double a[3] = {0, 0, 0}, mag = 0;
            for (int j = 0; j < n; ++j) {
              double r[3], d2 = 0.01;
              for (int c = 0; c < 3; ++c) {
                r[c] = (double)uval((size_t)j * 4 + c, 81) - uval((size_t)i * 4 + c, 81);
                d2 += r[c] * r[c];
              }
              double s = uval((size_t)j * 4 + 3, 81) / (d2 * sqrt(d2));
              for (int c = 0; c < 3; ++c) a[c] += r[c] * s, mag += fabs(r[c] * s);
            }
            std::vector<float> h = pull(acc, (size_t)i * 4, 1, 3);
            for (int c = 0; c < 3; ++c)
              REQUIRE(fabs(h[c] - a[c]) <= 1e-4 * mag, "nbody %s: body %d axis %d = %g, expected %g",
                      nm, i, c, h[c], a[c]);
          }
        };
        if (tiled)
          row1(e, "nbody", nm, ps, k_nbody_tiled, dim3(g), dim3(bs), dyn, 5, false,
               [&] { k_nbody_tiled<<<g, bs, dyn, e.b.stream>>>(pos, (float4 *)acc, n); },
               32ull * n, 20ull * n * n, chk);
        else
          row1(e, "nbody", nm, ps, k_nbody_naive, dim3(g), dim3(bs), 0, 5, false,
               [&] { k_nbody_naive<<<g, bs, 0, e.b.stream>>>(pos, (float4 *)acc, n); }, 32ull * n,
               20ull * n * n, chk);
      }
    }
  }
}

// ---------------------------------------------------------------- matvec

// y = A x, A row-major rows x cols, thread per row: y[r] = sum_c A[r*cols + c] x[c].
__global__ void k_mv_thread(const float *__restrict__ A, const float *__restrict__ x,
                            float *__restrict__ y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int c = 0; c < cols; ++c) s += A[(size_t)r * cols + c] * x[c];
    y[r] = s;
  }
}

// Thread per row over a column-major copy: y[r] = sum_c At[c*rows + r] x[c] (coalesced).
__global__ void k_mv_thread_colmajor(const float *__restrict__ At, const float *__restrict__ x,
                                     float *__restrict__ y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int c = 0; c < cols; ++c) s += At[(size_t)c * rows + r] * x[c];
    y[r] = s;
  }
}

// Warp per row: lane l sums c = l, l + 32, ...; shuffle sum; lane 0 writes.
__global__ void k_mv_warp(const float *__restrict__ A, const float *__restrict__ x,
                          float *__restrict__ y, int rows, int cols) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= rows) return;
  float s = 0;
  for (int c = lane; c < cols; c += 32) s += A[(size_t)r * cols + c] * x[c];
  s = warp_sum(s);
  if (lane == 0) y[r] = s;
}

// Setup only: out[c*rows + r] = in[r*cols + c] (rows % 8 == 0, cols % 32 == 0).
__global__ void k_rect_transpose(float *__restrict__ out, const float *__restrict__ in, int rows,
                                 int cols) {
  int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
  if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static void fam_matvec(Eval &e) {
  RC shapes[] = {{1024, 1024}, {4096, 4096}, {16384, 4096}, {4096, 16384}};
  for (RC s : shapes) {
    int rows = s.rows, cols = s.cols;
    size_t nel = (size_t)rows * cols;
    bool ready = false;
    const char *names[] = {"thread_per_row", "warp_per_row", "thread_per_row_colmajor"};
    for (int v = 0; v < 3; ++v) {
      std::string ps = "rows=" + std::to_string(rows) + " cols=" + std::to_string(cols) +
                       " block=256";
      if (!want(e, "matvec", names[v], ps)) continue;
      if (!ready) {
        fill_small(e.f(0), nel, 91);  // A row-major; At is the column-major copy
        fill_small(e.f(2), cols, 92);
        ready = true;
      }
      float *At = e.f(1), *y = e.f(3);
      if (v == 2) {  // column-major copy: At[c*rows + r] = A[r*cols + c]
        k_rect_transpose<<<dim3(cols / 32, rows / 8), dim3(32, 8)>>>(At, e.f(0), rows, cols);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
      }
      auto chk = [&] {
        check_f(std::string("matvec ") + names[v], y, rows, [&](size_t r) {
          double t = 0;
          for (int c = 0; c < cols; ++c) t += fval(r * cols + c, 91) * fval(c, 92);
          return t;
        }, 0);
      };
      CK(cudaMemset(y, 0, rows * sizeof(float)));
      unsigned long long by = 4ull * nel + 4ull * cols + 4ull * rows, fl = 2ull * nel;
      if (v == 0) {
        unsigned g = cdiv(rows, 256);
        row1(e, "matvec", names[v], ps, k_mv_thread, dim3(g), dim3(256), 0, 7, true,
             [&] { k_mv_thread<<<g, 256, 0, e.b.stream>>>(e.f(0), e.f(2), y, rows, cols); }, by,
             fl, chk);
      } else if (v == 1) {
        unsigned g = cdiv((size_t)rows * 32, 256);
        row1(e, "matvec", names[v], ps, k_mv_warp, dim3(g), dim3(256), 0, 7, true,
             [&] { k_mv_warp<<<g, 256, 0, e.b.stream>>>(e.f(0), e.f(2), y, rows, cols); }, by, fl,
             chk);
      } else {
        unsigned g = cdiv(rows, 256);
        row1(e, "matvec", names[v], ps, k_mv_thread_colmajor, dim3(g), dim3(256), 0, 7, true,
             [&] { k_mv_thread_colmajor<<<g, 256, 0, e.b.stream>>>(At, e.f(2), y, rows, cols); },
             by, fl, chk);
      }
    }
  }
}
