// bench_eval.cu - the H200 evaluation set: classic kernels written from public
// algorithm descriptions (stencils, sparse matrix-vector products, BFS, k-means,
// n-body, scans, a radix-sort pass, GEMMs, softmax, layer norm, attention,
// histograms, transposes, convolutions, pointer chases, reductions, pipelines,
// streams, graphs, elementwise kernels, gathers, barriers). Nothing in the model
// is set from these rows. README.md beside this file describes every family.
// Same timing method and CSV columns as bench_own.cu.
//
// usage: bench_eval OUT.csv [device] [--family NAME]
//        bench_eval --list [--family NAME]      (rows only; needs no GPU)
#include "common.cuh"

#include <cuda_fp16.h>
#include <mma.h>

#include <chrono>

// ---------------------------------------------------------------- shared helpers

// Small-integer input value in {-2, -1, 0, 1, 2}: sums of products stay exact in fp32.
__host__ __device__ inline float fval(size_t i, unsigned seed) {
  return float(int(hash32(unsigned(i) * 0x9e3779b9u + seed) % 5u) - 2);
}

// Uniform input value in [0, 1).
__host__ __device__ inline float uval(size_t i, unsigned seed) {
  return float(hash32(unsigned(i) + seed * 0x85ebca6bu) & 0xffffu) * (1.0f / 65536);
}

__global__ void k_fill_small(float *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = fval(i, seed);
}

__global__ void k_fill_unit(float *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = uval(i, seed);
}

__global__ void k_fill_half(__half *p, size_t n, unsigned seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = __float2half(fval(i, seed));
}

// p[i] = i & 3 (scan and reduction inputs: closed-form sums).
__global__ void k_fill_and3(unsigned *p, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = unsigned(i & 3);
}

static void fill_small(float *p, size_t n, unsigned seed) {
  k_fill_small<<<4096, 256>>>(p, n, seed);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}
static void fill_unit(float *p, size_t n, unsigned seed) {
  k_fill_unit<<<4096, 256>>>(p, n, seed);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}
static void fill_half(__half *p, size_t n, unsigned seed) {
  k_fill_half<<<4096, 256>>>(p, n, seed);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}
static void fill_and3(unsigned *p, size_t n) {
  k_fill_and3<<<4096, 256>>>(p, n);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}

// Copy `count` elements spaced `step` apart from d[first] to the host.
template <typename T>
static std::vector<T> pull(const T *d, size_t first, size_t step, size_t count) {
  std::vector<T> h(count);
  if (count == 0) return h;
  if (step == 1) {
    CK(cudaMemcpy(h.data(), d + first, count * sizeof(T), cudaMemcpyDeviceToHost));
  } else {
    CK(cudaMemcpy2D(h.data(), sizeof(T), d + first, step * sizeof(T), sizeof(T), count,
                    cudaMemcpyDeviceToHost));
  }
  return h;
}

template <typename T>
static T pull1(const T *d, size_t i) {
  T v;
  CK(cudaMemcpy(&v, d + i, sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

// Check d[i] against want(i) at up to 512 indices spread over [0, n) (want NaN: skip)
// within tol * (1 + |want|).
static void check_f(const std::string &what, const float *d, size_t n,
                    const std::function<double(size_t)> &want, double tol) {
  size_t count = std::min<size_t>(512, n), step = n / count;
  std::vector<float> h = pull(d, 0, step, count);
  for (size_t k = 0; k < count; ++k) {
    double w = want(k * step);
    if (std::isnan(w)) continue;
    REQUIRE(fabs(h[k] - w) <= tol * (1 + fabs(w)), "%s: out[%zu] = %.9g, expected %.9g",
            what.c_str(), k * step, h[k], w);
  }
}

// ---------------------------------------------------------------- the harness

static const int kBufs = 8;
static const size_t kBufBytes = (size_t(1) << 30) + (size_t(1) << 20);  // 1 GiB + slack

struct Eval {
  Bench b;
  bool list = false;
  std::string only;
  int rows = 0;
  char *buf[kBufs] = {};
  std::chrono::steady_clock::time_point t0;
  float *f(int k) const { return (float *)buf[k]; }
  unsigned *u(int k) const { return (unsigned *)buf[k]; }
  int *i(int k) const { return (int *)buf[k]; }
};

static bool fam_on(const Eval &e, const char *fam) { return e.only.empty() || e.only == fam; }

// True when the row is to be measured; in --list mode prints it and returns false.
static bool want(Eval &e, const char *fam, const std::string &name, const std::string &params) {
  if (!fam_on(e, fam)) return false;
  if (e.list) {
    printf("%s,%s,%s\n", fam, name.c_str(), params.c_str());
    ++e.rows;
    return false;
  }
  return true;
}

static Row mkrow(const char *fam, const std::string &name, const std::string &params) {
  Row r;
  r.family = fam;
  r.name = name;
  r.params = params;
  return r;
}

static void put(Eval &e, const Row &r) {
  emit(e.b, r);
  ++e.rows;
}

// One single-kernel row: shape from `kernel`, time `launch`, run `check`, emit.
template <typename K>
static void row1(Eval &e, const char *fam, const std::string &name, const std::string &params,
                 K kernel, dim3 grid, dim3 block, size_t dyn, int reps, bool cold,
                 const std::function<void()> &launch, unsigned long long bytes,
                 unsigned long long flops, const std::function<void()> &check,
                 const std::function<void()> &pre = nullptr) {
  Row r = mkrow(fam, name, params);
  row_shape(r, kernel, grid, block, dyn);
  r.t = time_case(e.b, reps, cold, launch, pre);
  CK(cudaDeviceSynchronize());
  if (check) check();
  r.bytes = bytes;
  r.flops = flops;
  put(e, r);
}

// A row that times several kernels: grid_x = the blocks of all launches together,
// block/regs/static_smem from the main kernel, blocks_per_sm = -1.
template <typename K>
static void rowN(Eval &e, const char *fam, const std::string &name, const std::string &params,
                 K main_kernel, long long total_blocks, dim3 block, size_t dyn, int reps,
                 bool cold, const std::function<void()> &launch, unsigned long long bytes,
                 unsigned long long flops, const std::function<void()> &check,
                 const std::function<void()> &pre = nullptr) {
  Row r = mkrow(fam, name, params);
  row_shape(r, main_kernel, dim3(1), block, dyn);
  r.grid_x = total_blocks;
  r.grid_y = 1;
  r.blocks_per_sm = -1;
  r.t = time_case(e.b, reps, cold, launch, pre);
  CK(cudaDeviceSynchronize());
  if (check) check();
  r.bytes = bytes;
  r.flops = flops;
  put(e, r);
}

static std::string p2(int lg) { return "2^" + std::to_string(lg); }
static unsigned cdiv(size_t a, size_t b) { return unsigned((a + b - 1) / b); }

#include "eval_grid.cuh"
#include "eval_sparse.cuh"
#include "eval_dense.cuh"
#include "eval_flow.cuh"

struct Family {
  const char *name;
  void (*run)(Eval &);
};

static const Family kFamilies[] = {
    {"stencil2d", fam_stencil2d},     {"stencil3d_7pt", fam_stencil3d_7},
    {"stencil3d_27pt", fam_stencil3d_27}, {"conv2d", fam_conv2d},
    {"conv_sep", fam_conv_sep},       {"transpose", fam_transpose},
    {"spmv_csr", fam_spmv_csr},       {"spmv_ell", fam_spmv_ell},
    {"bfs", fam_bfs},                 {"pchase", fam_pchase},
    {"histogram", fam_histogram},     {"gather", fam_gather},
    {"gemm_naive", fam_gemm_naive},   {"gemm_tiled", fam_gemm_tiled},
    {"gemm_regblock", fam_gemm_regblock}, {"gemm_wmma", fam_gemm_wmma},
    {"softmax", fam_softmax},         {"layernorm", fam_layernorm},
    {"attention", fam_attention},     {"kmeans", fam_kmeans},
    {"nbody", fam_nbody},             {"matvec", fam_matvec},
    {"scan", fam_scan},               {"radix", fam_radix},
    {"reduce", fam_reduce},           {"pipeline", fam_pipeline},
    {"streams", fam_streams},         {"graph", fam_graph},
    {"elementwise", fam_elementwise}, {"barrier", fam_barrier},
};

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s OUT.csv [device] [--family NAME]\n"
          "       %s --list [--family NAME]\n"
          "families:",
          argv0, argv0);
  for (const Family &f : kFamilies) fprintf(stderr, " %s", f.name);
  fprintf(stderr, "\n");
}

int main(int argc, char **argv) {
  Eval e;
  const char *out = nullptr;
  int dev = 0, positional = 0;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--list")) {
      e.list = true;
    } else if (!strcmp(argv[a], "--family")) {
      if (a + 1 >= argc) {
        fprintf(stderr, "%s: --family needs a family name\n", argv[0]);
        usage(argv[0]);
        return 2;
      }
      e.only = argv[++a];
    } else if (argv[a][0] == '-') {
      fprintf(stderr, "%s: unknown option '%s'\n", argv[0], argv[a]);
      usage(argv[0]);
      return 2;
    } else if (positional == 0) {
      out = argv[a];
      ++positional;
    } else if (positional == 1) {
      char *end = nullptr;
      long d = strtol(argv[a], &end, 10);
      if (*end || d < 0) {
        fprintf(stderr, "%s: device '%s' is not a non-negative integer\n", argv[0], argv[a]);
        return 2;
      }
      dev = int(d);
      ++positional;
    } else {
      fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[a]);
      usage(argv[0]);
      return 2;
    }
  }
  if (!e.only.empty()) {
    bool known = false;
    for (const Family &f : kFamilies) known |= e.only == f.name;
    if (!known) {
      fprintf(stderr, "%s: --family: no family '%s'\n", argv[0], e.only.c_str());
      usage(argv[0]);
      return 2;
    }
  }
  if (e.list) {
    printf("family,name,params\n");
    for (const Family &f : kFamilies) f.run(e);
    fprintf(stderr, "%d rows\n", e.rows);
    return 0;
  }
  if (!out) {
    usage(argv[0]);
    return 2;
  }
  e.t0 = std::chrono::steady_clock::now();
  bench_open(e.b, out, dev);
  fprintf(stderr, "bench_eval on %s (%d SMs)\n", e.b.prop.name, e.b.sm_count);
  for (int k = 0; k < kBufs; ++k) {
    CK(cudaMalloc(&e.buf[k], kBufBytes));
    CK(cudaMemset(e.buf[k], 0, kBufBytes));
  }
  for (const Family &f : kFamilies) {
    if (!fam_on(e, f.name)) continue;
    auto t = std::chrono::steady_clock::now();
    int before = e.rows;
    f.run(e);
    CK(cudaDeviceSynchronize());
    auto now = std::chrono::steady_clock::now();
    fprintf(stderr, "== %s: %d rows in %.2f s (total %.1f s)\n", f.name, e.rows - before,
            std::chrono::duration<double>(now - t).count(),
            std::chrono::duration<double>(now - e.t0).count());
  }
  for (int k = 0; k < kBufs; ++k) CK(cudaFree(e.buf[k]));
  bench_close(e.b);
  fprintf(stderr, "bench_eval: done, %d rows in %.1f s\n", e.rows,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - e.t0).count());
  return 0;
}
