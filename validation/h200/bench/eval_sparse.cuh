// eval_sparse.cuh - evaluation families with irregular addressing: SpMV (CSR scalar
// and vector, ELL), one BFS level, pointer chases, histograms and gathers.
// Included by bench_eval.cu only.

// ---------------------------------------------------------------- sparse matrices

// CSR, thread per row: y[r] = sum_{j in [rp[r], rp[r+1])} v[j] * x[ci[j]].
__global__ void k_csr_scalar(int rows, const int *__restrict__ rp, const int *__restrict__ ci,
                             const float *__restrict__ v, const float *__restrict__ x,
                             float *__restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int j = rp[r]; j < rp[r + 1]; ++j) s += v[j] * x[ci[j]];
    y[r] = s;
  }
}

// CSR, warp per row: lane l takes j = rp[r] + l, + 32, ...; shuffle sum; lane 0 writes.
__global__ void k_csr_vector(int rows, const int *__restrict__ rp, const int *__restrict__ ci,
                             const float *__restrict__ v, const float *__restrict__ x,
                             float *__restrict__ y) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r < rows) {  // uniform across the warp
    float s = 0;
    for (int j = rp[r] + lane; j < rp[r + 1]; j += 32) s += v[j] * x[ci[j]];
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) y[r] = s;
  }
}

// ELL, column-major (entry k of row r at k * rows + r), padding has column -1.
__global__ void k_ell(int rows, int width, const int *__restrict__ ci, const float *__restrict__ v,
                      const float *__restrict__ x, float *__restrict__ y) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int k = 0; k < width; ++k) {
      int c = ci[(size_t)k * rows + r];
      if (c >= 0) s += v[(size_t)k * rows + r] * x[c];
    }
    y[r] = s;
  }
}

// Column of entry j (position p within row r of length len) for a matrix kind.
__host__ __device__ inline int mat_col(int kind, int r, int p, int len, int j, int n) {
  if (kind == 1) {  // banded: columns r - len/2 .. r + len/2, clamped
    int c = r - len / 2 + p;
    return c < 0 ? 0 : (c >= n ? n - 1 : c);
  }
  return int(hash32(unsigned(j) * 2654435761u + 77u) & unsigned(n - 1));  // random, n = 2^k
}

__global__ void k_csr_fill(int rows, int n, int kind, const int *__restrict__ rp, int *ci,
                           float *v) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int len = rp[r + 1] - rp[r];
    for (int j = rp[r]; j < rp[r + 1]; ++j) {
      ci[j] = mat_col(kind, r, j - rp[r], len, j, n);
      v[j] = fval(j, 21);
    }
  }
}

__global__ void k_csr_to_ell(int rows, int width, const int *__restrict__ rp,
                             const int *__restrict__ ci, const float *__restrict__ v, int *eci,
                             float *ev) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int len = rp[r + 1] - rp[r];
    for (int k = 0; k < width; ++k) {
      size_t o = (size_t)k * rows + r;
      eci[o] = k < len ? ci[rp[r] + k] : -1;
      ev[o] = k < len ? v[rp[r] + k] : 0.0f;
    }
  }
}

struct SpMat {
  const char *name;
  int lg_rows, kind;  // kind 0 random uniform, 1 banded, 2 random with 1..63 per row
  int per_row;        // nonzeros per row (kinds 0, 1); maximum (kind 2)
};
static const SpMat kMats[] = {{"rand16_64k", 16, 0, 16},
                              {"rand16_1M", 20, 0, 16},
                              {"band32_1M", 20, 1, 32},
                              {"irreg1to63_1M", 20, 2, 63}};

// Build matrix m in CSR: rp in buf 2, ci in buf 3, v in buf 4, x in buf 5 (y goes to
// buf 6). Returns nnz; rp_host receives the row pointers.
static size_t build_csr(Eval &e, const SpMat &m, std::vector<int> &rp_host) {
  int rows = 1 << m.lg_rows;
  rp_host.assign(rows + 1, 0);
  for (int r = 0; r < rows; ++r) {
    int len = m.kind == 2 ? 1 + int(hash32(unsigned(r) + 999u) % 63u) : m.per_row;
    rp_host[r + 1] = rp_host[r] + len;
  }
  size_t nnz = rp_host[rows];
  CK(cudaMemcpy(e.i(2), rp_host.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  k_csr_fill<<<cdiv(rows, 256), 256>>>(rows, rows, m.kind, e.i(2), e.i(3), e.f(4));
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
  fill_small(e.f(5), rows, 22);
  return nnz;
}

static void check_spmv(const std::string &what, Eval &e, const SpMat &m,
                       const std::vector<int> &rp) {
  int rows = 1 << m.lg_rows;
  check_f(what, e.f(6), rows, [&](size_t r) {
    double s = 0;
    int len = rp[r + 1] - rp[r];
    for (int j = rp[r]; j < rp[r + 1]; ++j)
      s += fval(j, 21) * fval(mat_col(m.kind, int(r), j - rp[r], len, j, rows), 22);
    return s;
  }, 0);
}

static void fam_spmv_csr(Eval &e) {
  for (const SpMat &m : kMats) {
    int rows = 1 << m.lg_rows;
    std::vector<int> rp;
    size_t nnz = 0;
    bool ready = false;
    for (int vec = 0; vec < 2; ++vec) {
      const char *nm = vec ? "vector_warp_per_row" : "scalar_thread_per_row";
      std::string ps = std::string(m.name) + " rows=" + p2(m.lg_rows) + " block=256";
      if (!want(e, "spmv_csr", nm, ps)) continue;
      if (!ready) {
        nnz = build_csr(e, m, rp);
        ready = true;
      }
      const int *rpd = e.i(2), *ci = e.i(3);
      const float *v = e.f(4), *x = e.f(5);
      float *y = e.f(6);
      CK(cudaMemset(y, 0, rows * sizeof(float)));
      unsigned long long by = 8ull * nnz + 4ull * (rows + 1) + 8ull * rows;
      auto chk = [&] { check_spmv(std::string("spmv_csr ") + nm, e, m, rp); };
      if (vec) {
        unsigned g = cdiv((size_t)rows * 32, 256);
        row1(e, "spmv_csr", nm, ps, k_csr_vector, dim3(g), dim3(256), 0, 7, true,
             [&] { k_csr_vector<<<g, 256, 0, e.b.stream>>>(rows, rpd, ci, v, x, y); }, by,
             2ull * nnz, chk);
      } else {
        unsigned g = cdiv(rows, 256);
        row1(e, "spmv_csr", nm, ps, k_csr_scalar, dim3(g), dim3(256), 0, 7, true,
             [&] { k_csr_scalar<<<g, 256, 0, e.b.stream>>>(rows, rpd, ci, v, x, y); }, by,
             2ull * nnz, chk);
      }
    }
  }
}

static void fam_spmv_ell(Eval &e) {
  for (const SpMat &m : kMats) {
    int rows = 1 << m.lg_rows, width = m.per_row;
    std::vector<int> rp;
    bool ready = false;
    for (int bs : {128, 256}) {
      std::string ps = std::string(m.name) + " rows=" + p2(m.lg_rows) + " width=" +
                       std::to_string(width) + " block=" + std::to_string(bs);
      if (!want(e, "spmv_ell", "ell_thread_per_row", ps)) continue;
      if (!ready) {
        build_csr(e, m, rp);
        k_csr_to_ell<<<cdiv(rows, 256), 256>>>(rows, width, e.i(2), e.i(3), e.f(4), e.i(0),
                                               e.f(1));
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        ready = true;
      }
      const int *ci = e.i(0);
      const float *v = e.f(1), *x = e.f(5);
      float *y = e.f(6);
      CK(cudaMemset(y, 0, rows * sizeof(float)));
      unsigned g = cdiv(rows, bs);
      row1(e, "spmv_ell", "ell_thread_per_row", ps, k_ell, dim3(g), dim3(bs), 0, 7, true,
           [&] { k_ell<<<g, bs, 0, e.b.stream>>>(rows, width, ci, v, x, y); },
           8ull * width * rows + 8ull * rows, 2ull * rp[rows],
           [&] { check_spmv("spmv_ell", e, m, rp); });
    }
  }
}

// ---------------------------------------------------------------- bfs

// Graph: n vertices, each with d random out-neighbours: col[v*d + j] = hash(v*d + j) % n.
__host__ __device__ inline int bfs_nb(size_t j, int n) {
  return int(hash32(unsigned(j) ^ 0x5bd1e995u) & unsigned(n - 1));
}
__host__ __device__ inline bool bfs_front(int v, int frac) {
  return hash32(unsigned(v) + 0x1234u) % unsigned(frac) == 0;
}

__global__ void k_bfs_graph(int *col, size_t edges, int n) {
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < edges;
       j += (size_t)gridDim.x * blockDim.x)
    col[j] = bfs_nb(j, n);
}

// level[v] = 0 for frontier vertices, -1 otherwise.
__global__ void k_bfs_init(int *level, int n, int frac) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) level[v] = bfs_front(v, frac) ? 0 : -1;
}

// Queue-based level expansion, thread per frontier vertex: unvisited neighbours are
// claimed with atomicCAS and appended to the next frontier with atomicAdd.
__global__ void k_bfs_thread(const int *__restrict__ front, int fsize, const int *__restrict__ col,
                             int d, int *level, int *next, int *count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < fsize) {
    int v = front[i];
    for (int j = 0; j < d; ++j) {
      int u = col[(size_t)v * d + j];
      if (level[u] == -1 && atomicCAS(&level[u], -1, 1) == -1) next[atomicAdd(count, 1)] = u;
    }
  }
}

// Same expansion, warp per frontier vertex (lane j takes neighbour j, j + 32, ...).
__global__ void k_bfs_warp(const int *__restrict__ front, int fsize, const int *__restrict__ col,
                           int d, int *level, int *next, int *count) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (i < fsize) {
    int v = front[i];
    for (int j = lane; j < d; j += 32) {
      int u = col[(size_t)v * d + j];
      if (level[u] == -1 && atomicCAS(&level[u], -1, 1) == -1) next[atomicAdd(count, 1)] = u;
    }
  }
}

// Vertex-scan expansion (no queue): thread per vertex; frontier vertices (level 0)
// mark their unvisited neighbours with level 1 (plain stores).
__global__ void k_bfs_scan(int n, const int *__restrict__ col, int d, int *level) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && level[v] == 0) {
    for (int j = 0; j < d; ++j) {
      int u = col[(size_t)v * d + j];
      if (level[u] == -1) level[u] = 1;
    }
  }
}

static void fam_bfs(Eval &e) {
  struct G { int lg_n, d; } graphs[] = {{16, 8}, {20, 16}, {22, 8}};
  for (G gr : graphs) {
    int n = 1 << gr.lg_n, d = gr.d;
    bool built = false;
    for (int frac : {64, 4}) {
      std::vector<int> front;
      long long expect = -1;
      for (int kind = 0; kind < 3; ++kind) {
        const char *names[] = {"queue_thread_per_vertex", "queue_warp_per_vertex", "vertex_scan"};
        std::string ps = "n=" + p2(gr.lg_n) + " deg=" + std::to_string(d) + " frontier=1/" +
                         std::to_string(frac);
        if (!want(e, "bfs", names[kind], ps)) continue;
        int *col = e.i(0), *level = e.i(1), *fr = e.i(2), *next = e.i(3), *cnt = e.i(4);
        if (!built) {
          k_bfs_graph<<<4096, 256>>>(col, (size_t)n * d, n);
          CK_LAUNCH();
          CK(cudaDeviceSynchronize());
          built = true;
        }
        if (expect < 0) {  // host: frontier list and the number of vertices it discovers
          std::vector<char> seen(n, 0);
          for (int v = 0; v < n; ++v)
            if (bfs_front(v, frac)) front.push_back(v), seen[v] = 1;
          expect = 0;
          for (int v : front)
            for (int j = 0; j < d; ++j) {
              int u = bfs_nb((size_t)v * d + j, n);
              if (!seen[u]) seen[u] = 1, ++expect;
            }
          CK(cudaMemcpy(fr, front.data(), front.size() * sizeof(int), cudaMemcpyHostToDevice));
        }
        int fsize = int(front.size());
        auto pre = [&] {
          k_bfs_init<<<cdiv(n, 256), 256, 0, e.b.stream>>>(level, n, frac);
          CK(cudaMemsetAsync(cnt, 0, sizeof(int), e.b.stream));
        };
        auto chk = [&] {
          std::vector<int> lv = pull(level, 0, 1, n);
          long long ones = 0;
          for (int x : lv) ones += x == 1;
          REQUIRE(ones == expect, "bfs %s %s: %lld vertices discovered, expected %lld",
                  names[kind], ps.c_str(), ones, expect);
          if (kind < 2) {
            int c = pull1(cnt, 0);
            REQUIRE(c == expect, "bfs %s: queue holds %d, expected %lld", names[kind], c, expect);
          }
        };
        unsigned long long by = 4ull * fsize * d * 2 + 4ull * fsize;
        if (kind == 0) {
          unsigned g = cdiv(fsize, 256);
          row1(e, "bfs", names[kind], ps, k_bfs_thread, dim3(g), dim3(256), 0, 7, true,
               [&] { k_bfs_thread<<<g, 256, 0, e.b.stream>>>(fr, fsize, col, d, level, next, cnt); },
               by, 0, chk, pre);
        } else if (kind == 1) {
          unsigned g = cdiv((size_t)fsize * 32, 256);
          row1(e, "bfs", names[kind], ps, k_bfs_warp, dim3(g), dim3(256), 0, 7, true,
               [&] { k_bfs_warp<<<g, 256, 0, e.b.stream>>>(fr, fsize, col, d, level, next, cnt); },
               by, 0, chk, pre);
        } else {
          unsigned g = cdiv(n, 256);
          row1(e, "bfs", names[kind], ps, k_bfs_scan, dim3(g), dim3(256), 0, 7, true,
               [&] { k_bfs_scan<<<g, 256, 0, e.b.stream>>>(n, col, d, level); },
               by + 4ull * n, 0, chk, pre);
        }
      }
    }
  }
}

// ---------------------------------------------------------------- pchase

// Node k (128 bytes: one cache line) at word 32*k holds the index of the next node:
// next(k) = (1664525 k + 1013904223) mod N, a single cycle through all N = 2^m nodes
// (Hull-Dobell). Thread t starts at node t * (N / threads) % N and follows `steps` links.
__global__ void k_chase_init(unsigned *p, unsigned nodes) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < nodes;
       k += (size_t)gridDim.x * blockDim.x)
    p[k * 32] = (1664525u * unsigned(k) + 1013904223u) & (nodes - 1);
}

__global__ void k_chase(const unsigned *p, unsigned nodes, int steps, unsigned *out) {
  unsigned j = unsigned((size_t)threadIdx.x * (nodes / blockDim.x) % nodes);
  for (int s = 0; s < steps; ++s) j = p[(size_t)j * 32];
  out[threadIdx.x] = j;
}

static void fam_pchase(Eval &e) {
  struct F { const char *label; size_t bytes; int steps; } fps[] = {
      {"16KiB", size_t(16) << 10, 32768}, {"256KiB", size_t(256) << 10, 16384},
      {"4MiB", size_t(4) << 20, 8192},    {"32MiB", size_t(32) << 20, 8192},
      {"64MiB", size_t(64) << 20, 4096},  {"1GiB", size_t(1) << 30, 2048}};
  for (const F &f : fps) {
    unsigned nodes = unsigned(f.bytes / 128);
    bool ready = false;
    for (int threads : {1, 32}) {
      std::string ps = "footprint=" + std::string(f.label) + " steps=" + std::to_string(f.steps) +
                       " threads=" + std::to_string(threads);
      if (!want(e, "pchase", "chase_128B_nodes", ps)) continue;
      unsigned *p = e.u(0), *out = e.u(1);
      if (!ready) {
        k_chase_init<<<4096, 256>>>(p, nodes);
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        ready = true;
      }
      int steps = f.steps;
      row1(e, "pchase", "chase_128B_nodes", ps, k_chase, dim3(1), dim3(threads), 0, 5, true,
           [&] { k_chase<<<1, threads, 0, e.b.stream>>>(p, nodes, steps, out); },
           128ull * steps * threads, 0, [&] {
             std::vector<unsigned> h = pull(out, 0, 1, threads);
             for (int t = 0; t < threads; ++t) {
               unsigned j = unsigned((size_t)t * (nodes / threads) % nodes);
               for (int s = 0; s < steps; ++s) j = (1664525u * j + 1013904223u) & (nodes - 1);
               REQUIRE(h[t] == j, "pchase %s: thread %d ended at %u, expected %u", ps.c_str(), t,
                       h[t], j);
             }
           });
    }
  }
}

// ---------------------------------------------------------------- histogram

// Bin of byte i: uniform (hash), skewed (90% in 4 bins), or all equal (bin 7).
__host__ __device__ inline unsigned char hist_bin(size_t i, int dist) {
  unsigned h = hash32(unsigned(i) + 4242u);
  if (dist == 0) return h & 255;
  if (dist == 1) return (h & 255) < 230 ? (h >> 8) & 3 : (h >> 16) & 255;
  return 7;
}

__global__ void k_hist_data(unsigned char *p, size_t n, int dist) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = hist_bin(i, dist);
}

// Grid-stride loop, one global atomicAdd per byte.
__global__ void k_hist_global(const unsigned char *__restrict__ in, size_t n, unsigned *hist) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&hist[in[i]], 1u);
}

// Privatised: a 256-bin shared histogram per block, merged with 256 global atomics.
__global__ void k_hist_shared(const unsigned char *__restrict__ in, size_t n, unsigned *hist) {
  __shared__ unsigned s[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) s[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    atomicAdd(&s[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (s[b]) atomicAdd(&hist[b], s[b]);
}

static void fam_histogram(Eval &e) {
  const char *dists[] = {"uniform", "skewed", "all_equal"};
  for (int lg : {20, 24}) {
    size_t n = size_t(1) << lg;
    for (int dist = 0; dist < 3; ++dist) {
      std::vector<unsigned> ref;
      for (int sh = 0; sh < 2; ++sh) {
        const char *nm = sh ? "shared_atomics" : "global_atomics";
        std::string ps = "n=" + p2(lg) + " bytes " + dists[dist] + " bins=256";
        if (!want(e, "histogram", nm, ps)) continue;
        unsigned char *in = (unsigned char *)e.buf[0];
        unsigned *hist = e.u(1);
        if (ref.empty()) {
          k_hist_data<<<4096, 256>>>(in, n, dist);
          CK_LAUNCH();
          CK(cudaDeviceSynchronize());
          ref.assign(256, 0);
          for (size_t i = 0; i < n; ++i) ++ref[hist_bin(i, dist)];
        }
        unsigned g = e.b.sm_count * 8;
        auto pre = [&] { CK(cudaMemsetAsync(hist, 0, 256 * sizeof(unsigned), e.b.stream)); };
        auto chk = [&] {
          std::vector<unsigned> h = pull(hist, 0, 1, 256);
          for (int b = 0; b < 256; ++b)
            REQUIRE(h[b] == ref[b], "histogram %s %s: bin %d = %u, expected %u", nm, ps.c_str(), b,
                    h[b], ref[b]);
        };
        if (sh)
          row1(e, "histogram", nm, ps, k_hist_shared, dim3(g), dim3(256), 0, 7, true,
               [&] { k_hist_shared<<<g, 256, 0, e.b.stream>>>(in, n, hist); }, n, 0, chk, pre);
        else
          row1(e, "histogram", nm, ps, k_hist_global, dim3(g), dim3(256), 0, 7, true,
               [&] { k_hist_global<<<g, 256, 0, e.b.stream>>>(in, n, hist); }, n, 0, chk, pre);
      }
    }
  }
}

// ---------------------------------------------------------------- gather

// Embedding lookup: 64-float rows; thread t copies float4 (t % 16) of output row t / 16
// from table row idx[t / 16].
__global__ void k_gather_rows(const float4 *__restrict__ table, const unsigned *__restrict__ idx,
                              float4 *__restrict__ out, size_t rows) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (t < rows * 16) out[t] = table[(size_t)idx[t / 16] * 16 + (t % 16)];
}

// Scalar gather out[i] = in[idx[i]].
__global__ void k_gather1(const float *__restrict__ in, const unsigned *__restrict__ idx,
                          float *__restrict__ out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

// Scatter through a permutation: out[(a*i + c) mod 2^28] = in[i].
__global__ void k_scatter_perm(const float *__restrict__ in, float *__restrict__ out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[(1664525u * unsigned(i) + 1013904223u) & ((1u << 28) - 1)] = in[i];
}

// idx[i]: mode 0 local (within the 1024-element window of i), mode 1 random below `range`.
__host__ __device__ inline unsigned gidx(size_t i, int mode, unsigned range) {
  unsigned h = hash32(unsigned(i) * 747796405u + 1u);
  return mode == 0 ? unsigned(i & ~size_t(1023)) + (h & 1023u) : h & (range - 1);
}

__global__ void k_gidx(unsigned *idx, size_t n, int mode, unsigned range) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    idx[i] = gidx(i, mode, range);
}

static void fam_gather(Eval &e) {
  const unsigned seed = 31;
  bool filled = false;
  auto fill = [&] {
    if (!filled) fill_small(e.f(0), size_t(1) << 28, seed);
    filled = true;
  };
  // Embedding rows: tables of 2^16 rows (16 MiB) and 2^22 rows (1 GiB).
  for (int lg_tab : {16, 22}) {
    for (int lg_rows : {14, 18}) {
      std::string ps = "table=" + std::string(lg_tab == 16 ? "16MiB" : "1GiB") + " rows=" +
                       p2(lg_rows) + " row=256B";
      if (!want(e, "gather", "embedding_rows", ps)) continue;
      fill();
      size_t rows = size_t(1) << lg_rows;
      unsigned *idx = e.u(1);
      float *out = e.f(2);
      k_gidx<<<1024, 256>>>(idx, rows, 1, 1u << lg_tab);
      CK_LAUNCH();
      CK(cudaDeviceSynchronize());
      unsigned g = cdiv(rows * 16, 256);
      row1(e, "gather", "embedding_rows", ps, k_gather_rows, dim3(g), dim3(256), 0, 7, true,
           [&] {
             k_gather_rows<<<g, 256, 0, e.b.stream>>>((const float4 *)e.f(0), idx, (float4 *)out,
                                                      rows);
           },
           rows * (4 + 512ull), 0, [&] {
             check_f("gather embedding", out, rows * 64, [&](size_t k) {
               return (double)fval((size_t)gidx(k / 64, 1, 1u << lg_tab) * 64 + k % 64, seed);
             }, 0);
           });
    }
  }
  const size_t n = size_t(1) << 22;
  struct S { const char *name; int mode; unsigned range; } scal[] = {
      {"scalar_local_window", 0, 0}, {"scalar_random_64MiB", 1, 1u << 24},
      {"scalar_random_1GiB", 1, 1u << 28}};
  for (const S &s : scal) {
    std::string ps = "n=2^22";
    if (!want(e, "gather", s.name, ps)) continue;
    fill();
    unsigned *idx = e.u(1);
    float *out = e.f(2);
    k_gidx<<<1024, 256>>>(idx, n, s.mode, s.range);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    unsigned g = cdiv(n, 256);
    row1(e, "gather", s.name, ps, k_gather1, dim3(g), dim3(256), 0, 7, true,
         [&] { k_gather1<<<g, 256, 0, e.b.stream>>>(e.f(0), idx, out, n); }, 12ull * n, 0, [&] {
           check_f(std::string("gather ") + s.name, out, n,
                   [&](size_t i) { return (double)fval(gidx(i, s.mode, s.range), seed); }, 0);
         });
  }
  std::string ps = "n=2^22 into 1GiB";
  if (want(e, "gather", "scatter_permutation", ps)) {
    fill();
    float *out = e.f(2);
    unsigned g = cdiv(n, 256);
    row1(e, "gather", "scatter_permutation", ps, k_scatter_perm, dim3(g), dim3(256), 0, 7, true,
         [&] { k_scatter_perm<<<g, 256, 0, e.b.stream>>>(e.f(0), out, n); }, 8ull * n, 0, [&] {
           for (size_t i = 0; i < n; i += 8191) {
             float got = pull1(out, (1664525u * unsigned(i) + 1013904223u) & ((1u << 28) - 1));
             REQUIRE(got == fval(i, seed), "scatter: element %zu = %g", i, got);
           }
         });
  }
}
