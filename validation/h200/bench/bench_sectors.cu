// bench_sectors.cu - partial-sector accesses completed by other instructions of the
// same warp, or of other warps (family `sectors`). Each thread handles K consecutive
// elements of E bytes (E in {4, 8}, K * E <= 32) with K separate scalar loads and
// K separate scalar stores (inline PTX ld.global / st.global, so the compiler cannot
// fuse them into a vector access); each warp instruction then touches up to 32
// sectors and uses E bytes of every K * E. Baselines: the same bytes with one
// vector access per thread (LDG.64 / LDG.128, two LDG.128 for 32 bytes). Cases:
//
//   copy_scalar / copy_vector    K loads then K stores (out[j] = in[j] ^ salt)
//   load_scalar / load_vector    K loads, their sum stored once per thread
//   store_scalar / store_vector  K stores of a constant (salt), no loads
//   copy_spread / store_spread   K = 32 / E elements per thread, G consecutive threads
//                                interleaved: element i of thread t is
//                                (t / G) * G * K + i * G + t % G, so one warp
//                                instruction touches 32 / G sectors (G <= 8) and
//                                the K instructions of the G threads complete them
//   copy_far                     K loads/stores as a loop over i with __syncthreads()
//                                and `work` dependent FMAs between element i and i+1
//   copy_pass / store_pass       K kernel launches, launch i handles element i of every
//                                thread (the partial writes of one sector are whole
//                                grids apart: the other parts may have left the L2)
//   store_partial                one launch of copy_pass's stores for element 0 only:
//                                E bytes of every K * E written, never completed
//   copy_trans / store_trans     blocks of K warps, warp w handles element w of the
//                                32 groups of its block (lane = group): every warp
//                                instruction touches 32 sectors partially and the K
//                                warps of the block complete them
//
// Sizes: `dram` = 256 MiB in + 256 MiB out, the 1 GiB scratch written before every
// repetition (cold L2); `l2` = 8 MiB in + 8 MiB out, not flushed, each launch runs
// the 8 MiB R = 16 times over (grid R times as large, thread t works on t mod the
// 8 MiB's threads), so the time is L2-side. README.md beside this file describes
// the rows; columns and timing as bench_mlp.cu (median of 7 after 2 warm-ups).
//
// usage: bench_sectors OUT.csv [device]
#include "common.cuh"

typedef unsigned long long u64;
typedef unsigned int u32;

// Scalar global accesses that the compiler keeps as written (one LDG/STG each).
__device__ __forceinline__ u32 ld_s(const u32 *p) {
  u32 v;
  asm volatile("ld.global.u32 %0, [%1];" : "=r"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ u64 ld_s(const u64 *p) {
  u64 v;
  asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p));
  return v;
}
__device__ __forceinline__ void st_s(u32 *p, u32 v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_s(u64 *p, u64 v) {
  asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// Value of in[j] (device fill and host mirror).
template <typename T>
__host__ __device__ __forceinline__ T in_val(size_t j) {
  return (T)(j * 2654435761ull + 7ull);
}

template <typename T>
__global__ void k_fill(T *p, size_t n) {
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < n;
       j += (size_t)gridDim.x * blockDim.x)
    p[j] = in_val<T>(j);
}

// Element i of thread t with G threads interleaved (G = 1: t * K + i).
template <int K>
__device__ __forceinline__ size_t elem(size_t t, int i, unsigned lg) {
  size_t G = size_t(1) << lg;
  return ((t >> lg) << lg) * K + (size_t)i * G + (t & (G - 1));
}

enum Mode { COPY = 0, LOADS = 1, STORES = 2 };

// Scalar kernel: thread t (mod tmask + 1) handles elements elem(t, 0..K-1).
template <typename T, int K, int M>
__global__ void k_scalar(const T *__restrict__ in, T *out, size_t tmask, unsigned lg, T salt) {
  size_t t = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) & tmask;
  T v[K];
  if (M != STORES) {
#pragma unroll
    for (int i = 0; i < K; ++i) v[i] = ld_s(in + elem<K>(t, i, lg));
  }
  if (M == LOADS) {
    T s = 0;
#pragma unroll
    for (int i = 0; i < K; ++i) s += v[i];
    st_s(out + t, (T)(s ^ salt));
  } else {
#pragma unroll
    for (int i = 0; i < K; ++i) st_s(out + elem<K>(t, i, lg), M == STORES ? salt : (T)(v[i] ^ salt));
  }
}

// Vector kernel: thread t handles the same K * E bytes as one (or two) vector access.
// salt2 is the salt repeated over 8 bytes (E = 4: both halves).
template <typename T, int K, int M>
__global__ void k_vector(const T *in, T *out, size_t tmask, u64 salt2) {
  constexpr int B = K * (int)sizeof(T);
  static_assert(B == 8 || B == 16 || B == 32, "vector of 8, 16 or 32 bytes");
  size_t t = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) & tmask;
  constexpr int W = B / 8;  // 8-byte words
  u64 w[W];
  if (M != STORES) {
    if (B == 8) {
      w[0] = reinterpret_cast<const u64 *>(in)[t];
    } else {
      const ulonglong2 *p = reinterpret_cast<const ulonglong2 *>(in) + t * (B / 16);
#pragma unroll
      for (int h = 0; h < B / 16; ++h) {
        ulonglong2 q = p[h];
        w[2 * h] = q.x;
        w[2 * h + 1] = q.y;
      }
    }
  }
  if constexpr (M == LOADS) {
    T s = 0;
#pragma unroll
    for (int k = 0; k < W; ++k) {
      if (sizeof(T) == 4)
        s += (T)(u32)w[k] + (T)(u32)(w[k] >> 32);
      else
        s += (T)w[k];
    }
    out[t] = (T)(s ^ (T)salt2);
  } else {
#pragma unroll
    for (int k = 0; k < W; ++k) w[k] = M == STORES ? salt2 : (w[k] ^ salt2);
    if (B == 8) {
      reinterpret_cast<u64 *>(out)[t] = w[0];
    } else {
      ulonglong2 *p = reinterpret_cast<ulonglong2 *>(out) + t * (B / 16);
#pragma unroll
      for (int h = 0; h < B / 16; ++h) p[h] = make_ulonglong2(w[2 * h], w[2 * h + 1]);
    }
  }
}

// Far apart: element i loaded, `work` dependent FMAs, a barrier, element i stored,
// then element i + 1. The FMA chain stays in (0.5, 2] so the guarded branch never
// changes a value, but the compiler cannot drop it.
template <typename T, int K>
__global__ void k_far(const T *__restrict__ in, T *out, size_t tmask, int work, T salt) {
  size_t t = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) & tmask;
  float x = 1.0f;
  for (int i = 0; i < K; ++i) {
    size_t j = elem<K>(t, i, 0);
    T v = ld_s(in + j);
    x = fmaf(x, 0.5f, (float)(v & 1) * 0.25f + 0.5f);
    for (int k = 0; k < work; ++k) x = fmaf(x, 0.999f, 0.001f);
    __syncthreads();
    if (x < 0.0f) v = 0;
    st_s(out + j, (T)(v ^ salt));
  }
}

// One pass of K: element `i` of every thread (copy, or store of salt when !copy).
template <typename T, int K, bool C>
__global__ void k_pass(const T *__restrict__ in, T *out, size_t tmask, int i, T salt) {
  size_t t = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) & tmask;
  size_t j = elem<K>(t, i, 0);
  st_s(out + j, C ? (T)(ld_s(in + j) ^ salt) : salt);
}

// Transpose-like: block of 32 * K threads, warp w, lane l; group g = block * 32 + l
// (mod the groups of the data), element g * K + w.
template <typename T, int K, bool C>
__global__ void k_trans(const T *__restrict__ in, T *out, size_t gmask, T salt) {
  size_t g = (blockIdx.x * (size_t)32 + (threadIdx.x & 31)) & gmask;
  size_t j = g * K + (threadIdx.x >> 5);
  st_s(out + j, C ? (T)(ld_s(in + j) ^ salt) : salt);
}

// ---------------------------------------------------------------------------------
// Host side.

struct Ctx {
  Bench b;
  void *in = nullptr, *out = nullptr;
  unsigned salt = 0;
};

static const size_t kDram = size_t(256) << 20, kL2 = size_t(8) << 20;
static const int kL2Rep = 16;

// Check out against want(j) on three chunks of 4096 elements (start, middle, end of n).
template <typename T>
static void check(const char *what, const T *d, size_t n, const std::function<T(size_t)> &want) {
  const size_t c = std::min<size_t>(4096, n);
  const size_t firsts[3] = {0, (n / 2) / 4096 * 4096, n - c};
  std::vector<T> h(c);
  for (size_t f : firsts) {
    CK(cudaMemcpy(h.data(), d + f, c * sizeof(T), cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < c; ++k) {
      T w = want(f + k);
      REQUIRE(h[k] == w, "%s: out[%zu] = %llu, expected %llu", what, f + k,
              (unsigned long long)h[k], (unsigned long long)w);
    }
  }
}

static const char *mode_name(int m) { return m == COPY ? "copy" : m == LOADS ? "load" : "store"; }

// Launch shape of the data: n elements, `per` elements per thread, `rep` passes.
struct Shape {
  size_t n, threads, tmask;
  unsigned grid;
  int block;
};
static Shape shape_of(size_t bytes, int E, int per, int rep, int block) {
  Shape s;
  s.n = bytes / E;
  s.threads = s.n / per;
  s.tmask = s.threads - 1;  // powers of two throughout
  s.block = block;
  s.grid = (unsigned)(s.threads * rep / block);
  return s;
}

static std::string params_of(int E, int K, size_t bytes, int extra_G, int work) {
  std::string p = "E=" + std::to_string(E) + " K=" + std::to_string(K);
  if (extra_G >= 0) p += " G=" + std::to_string(1 << extra_G);
  if (work >= 0) p += " work=" + std::to_string(work);
  p += bytes == kDram ? " ws=dram" : " ws=l2";
  return p;
}

// Timing + row for one launch closure.
template <typename Kern>
static Row timed(Ctx &c, const char *name, const std::string &params, Kern kernel, Shape s,
                 bool cold, unsigned long long bytes, const std::function<void()> &launch) {
  Row r;
  r.family = "sectors";
  r.name = name;
  r.params = params;
  row_shape(r, kernel, dim3(s.grid), dim3(s.block), 0);
  r.t = time_case(c.b, 7, cold, launch);
  r.bytes = bytes;
  emit(c.b, r);
  return r;
}

template <typename T, int K>
static void run_scalar_vector(Ctx &c, size_t bytes) {
  const int E = sizeof(T);
  const bool cold = bytes == kDram;
  const int rep = cold ? 1 : kL2Rep;
  const T *in = (const T *)c.in;
  T *out = (T *)c.out;
  Shape s = shape_of(bytes, E, K, rep, 256);
  std::string p = params_of(E, K, bytes, -1, -1);
  unsigned long long nb = (unsigned long long)bytes * rep;
  // scalar copy, loads, stores
  for (int m = 0; m < 3; ++m) {
    T salt = (T)(++c.salt * 0x01000193u);
    std::string name = std::string(mode_name(m)) + "_scalar";
    auto kern = m == COPY ? k_scalar<T, K, COPY> : m == LOADS ? k_scalar<T, K, LOADS>
                                                              : k_scalar<T, K, STORES>;
    unsigned long long by = m == COPY ? 2 * nb : m == LOADS ? nb + nb / K : nb;
    timed(c, name.c_str(), p, kern, s, cold, by,
          [&] { kern<<<s.grid, s.block, 0, c.b.stream>>>(in, out, s.tmask, 0, salt); });
    if (m == LOADS)
      check<T>(name.c_str(), out, s.threads, [&](size_t t) {
        T a = 0;
        for (int i = 0; i < K; ++i) a += in_val<T>(t * K + i);
        return (T)(a ^ salt);
      });
    else
      check<T>(name.c_str(), out, s.n,
               [&](size_t j) { return m == STORES ? salt : (T)(in_val<T>(j) ^ salt); });
  }
  if constexpr (K * sizeof(T) >= 8) {
  for (int m = 0; m < 3; ++m) {
    u32 s32 = ++c.salt * 0x01000193u;
    u64 salt2 = E == 4 ? ((u64)s32 << 32 | s32) : (u64)s32 * 0x100000001b3ull;
    T salt = (T)salt2;
    std::string name = std::string(mode_name(m)) + "_vector";
    auto kern = m == COPY ? k_vector<T, K, COPY> : m == LOADS ? k_vector<T, K, LOADS>
                                                              : k_vector<T, K, STORES>;
    unsigned long long by = m == COPY ? 2 * nb : m == LOADS ? nb + nb / K : nb;
    timed(c, name.c_str(), p, kern, s, cold, by,
          [&] { kern<<<s.grid, s.block, 0, c.b.stream>>>(in, out, s.tmask, salt2); });
    if (m == LOADS)
      check<T>(name.c_str(), out, s.threads, [&](size_t t) {
        T a = 0;
        for (int i = 0; i < K; ++i) a += in_val<T>(t * K + i);
        return (T)(a ^ salt);
      });
    else
      check<T>(name.c_str(), out, s.n,
               [&](size_t j) { return m == STORES ? salt : (T)(in_val<T>(j) ^ salt); });
  }
  }
}

// copy_spread / store_spread: K = 32 / E, G = 1..32 threads interleaved.
template <typename T, int K>
static void run_spread(Ctx &c, size_t bytes) {
  const int E = sizeof(T);
  const bool cold = bytes == kDram;
  const int rep = cold ? 1 : kL2Rep;
  const T *in = (const T *)c.in;
  T *out = (T *)c.out;
  Shape s = shape_of(bytes, E, K, rep, 256);
  unsigned long long nb = (unsigned long long)bytes * rep;
  for (unsigned lg = 0; lg <= 5; ++lg)
    for (int m = 0; m < 3; m += 2) {
      T salt = (T)(++c.salt * 0x01000193u);
      std::string name = std::string(mode_name(m)) + "_spread";
      auto kern = m == COPY ? k_scalar<T, K, COPY> : k_scalar<T, K, STORES>;
      timed(c, name.c_str(), params_of(E, K, bytes, (int)lg, -1), kern, s, cold,
            m == COPY ? 2 * nb : nb,
            [&] { kern<<<s.grid, s.block, 0, c.b.stream>>>(in, out, s.tmask, lg, salt); });
      check<T>(name.c_str(), out, s.n,
               [&](size_t j) { return m == STORES ? salt : (T)(in_val<T>(j) ^ salt); });
    }
}

// copy_far, copy_pass, store_pass, copy_trans, store_trans.
template <typename T, int K>
static void run_apart(Ctx &c, size_t bytes) {
  const int E = sizeof(T);
  const bool cold = bytes == kDram;
  const int rep = cold ? 1 : kL2Rep;
  const T *in = (const T *)c.in;
  T *out = (T *)c.out;
  unsigned long long nb = (unsigned long long)bytes * rep;
  auto copy_want = [&](T salt) {
    return std::function<T(size_t)>([=](size_t j) { return (T)(in_val<T>(j) ^ salt); });
  };
  auto store_want = [&](T salt) { return std::function<T(size_t)>([=](size_t) { return salt; }); };
  Shape s = shape_of(bytes, E, K, rep, 256);
  for (int work : {0, 256}) {
    T salt = (T)(++c.salt * 0x01000193u);
    auto kern = k_far<T, K>;
    timed(c, "copy_far", params_of(E, K, bytes, -1, work), kern, s, cold, 2 * nb,
          [&] { kern<<<s.grid, s.block, 0, c.b.stream>>>(in, out, s.tmask, work, salt); });
    check<T>("copy_far", out, s.n, copy_want(salt));
  }
  for (int m = 0; m < 3; m += 2) {
    T salt = (T)(++c.salt * 0x01000193u);
    auto kern = m == COPY ? k_pass<T, K, true> : k_pass<T, K, false>;
    const char *name = m == COPY ? "copy_pass" : "store_pass";
    Row r = timed(c, name, params_of(E, K, bytes, -1, -1), kern, s, cold, m == COPY ? 2 * nb : nb,
                  [&] {
                    for (int i = 0; i < K; ++i)
                      kern<<<s.grid, s.block, 0, c.b.stream>>>(in, out, s.tmask, i, salt);
                  });
    (void)r;
    check<T>(name, out, s.n, m == COPY ? copy_want(salt) : store_want(salt));
  }
  {  // store_partial: only element 0 of every thread (E of every K * E bytes written)
    T salt = (T)(++c.salt * 0x01000193u);
    auto kern = k_pass<T, K, false>;
    timed(c, "store_partial", params_of(E, K, bytes, -1, -1), kern, s, cold, nb / K,
          [&] { kern<<<s.grid, s.block, 0, c.b.stream>>>(in, out, s.tmask, 0, salt); });
    const size_t cnt = std::min<size_t>(4096, s.threads);
    std::vector<T> h(cnt * K);
    CK(cudaMemcpy(h.data(), out, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < cnt; ++t)
      REQUIRE(h[t * K] == salt, "store_partial: out[%zu] = %llu, expected %llu", t * K,
              (unsigned long long)h[t * K], (unsigned long long)salt);
  }
  // transpose-like: one element per thread, 32 * K threads per block
  Shape st = shape_of(bytes, E, 1, rep, 32 * K);
  size_t gmask = st.n / K - 1;
  for (int m = 0; m < 3; m += 2) {
    T salt = (T)(++c.salt * 0x01000193u);
    auto kern = m == COPY ? k_trans<T, K, true> : k_trans<T, K, false>;
    const char *name = m == COPY ? "copy_trans" : "store_trans";
    timed(c, name, params_of(E, K, bytes, -1, -1), kern, st, cold, m == COPY ? 2 * nb : nb,
          [&] { kern<<<st.grid, st.block, 0, c.b.stream>>>(in, out, gmask, salt); });
    check<T>(name, out, st.n, m == COPY ? copy_want(salt) : store_want(salt));
  }
}

template <typename T>
static void fill(Ctx &c, size_t bytes) {
  k_fill<T><<<4096, 256>>>((T *)c.in, bytes / sizeof(T));
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}

int main(int argc, char **argv) {
  Ctx c;
  bench_open_args(c.b, argc, argv);
  CK(cudaMalloc(&c.in, kDram));
  CK(cudaMalloc(&c.out, kDram));
  for (size_t bytes : {kDram, kL2}) {
    fill<u32>(c, bytes);
    run_scalar_vector<u32, 1>(c, bytes);
    run_scalar_vector<u32, 2>(c, bytes);
    run_scalar_vector<u32, 4>(c, bytes);
    run_scalar_vector<u32, 8>(c, bytes);
    run_spread<u32, 8>(c, bytes);
    run_apart<u32, 2>(c, bytes);
    run_apart<u32, 4>(c, bytes);
    run_apart<u32, 8>(c, bytes);
    fill<u64>(c, bytes);
    run_scalar_vector<u64, 1>(c, bytes);
    run_scalar_vector<u64, 2>(c, bytes);
    run_scalar_vector<u64, 4>(c, bytes);
    run_spread<u64, 4>(c, bytes);
    run_apart<u64, 2>(c, bytes);
    run_apart<u64, 4>(c, bytes);
  }
  CK(cudaFree(c.in));
  CK(cudaFree(c.out));
  bench_close(c.b);
  return 0;
}
