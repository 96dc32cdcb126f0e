// bench_own.cu - validation families beyond the shared calibration set: special
// functions, FP64, INT32, conversions, atomics, global access patterns, matrix
// transpose, a 2D stencil, host/device copies and more concurrency cases.
// README.md beside this file describes every family (launch shape, per-thread
// work). Same timing method and CSV columns as bench_shared.cu.
//
// usage: bench_own OUT.csv [device]
#include "common.cuh"
#include "kernels.cuh"

#include <cuda_fp16.h>

// ---------------------------------------------------------------- ALU kernels
// Each runs ILP independent dependency chains of `iters` steps per thread and
// writes one value per thread, like k_fma.

// sfu: x = __sinf(x) per step (FMUL by 1/(2 pi) + MUFU.SIN).
template <int ILP>
__global__ void k_sinf(float *out, int iters) {
  float x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = 0.5f + threadIdx.x * 1e-4f + j * 0.1f;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = __sinf(x[j]);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// sfu: x = __expf(-x) per step (FMUL by -log2(e) + MUFU.EX2); converges to 0.567.
template <int ILP>
__global__ void k_expf(float *out, int iters) {
  float x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = 0.5f + threadIdx.x * 1e-4f + j * 0.1f;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = __expf(-x[j]);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// fp64: x = fma(x, a, b) per step (one DFMA).
template <int ILP>
__global__ void k_dfma(double *out, int iters, double a, double b) {
  double x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = threadIdx.x * 1e-3 + j;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = fma(x[j], a, b);
  }
  double s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// int32: x = x * a + b per step (one IMAD; a, b are kernel arguments, so no folding).
template <int ILP>
__global__ void k_imad(unsigned *out, int iters, unsigned a, unsigned b) {
  unsigned x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = threadIdx.x + 977u * j;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = x[j] * a + b;
  }
  unsigned s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s ^= x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// int32: x = (x + b) ^ c per step (IADD3 then LOP3: two ALU ops that cannot fuse).
template <int ILP>
__global__ void k_iadd_xor(unsigned *out, int iters, unsigned b, unsigned c) {
  unsigned x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = threadIdx.x + 977u * j;
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = (x[j] + b) ^ c;
  }
  unsigned s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s ^= x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// conversion: i = float2int_rn(x); x = int2float_rn(i + 1) per step (F2I, IADD, I2F).
template <int ILP>
__global__ void k_cvt(float *out, int iters) {
  float x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = float(threadIdx.x + 1000 * j);
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < ILP; ++j) x[j] = __int2float_rn(__float2int_rn(x[j]) + 1);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += x[j];
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// ---------------------------------------------------------------- atomics

// Every thread adds 1.0f to the same global word.
__global__ void k_atomic_one(float *addr, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(addr, 1.0f);
}

// Every thread adds 1.0f to its warp's global word (32 threads per address).
__global__ void k_atomic_warp(float *cnt, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&cnt[i >> 5], 1.0f);
}

// Every thread adds 1.0f to its own global word (distinct, coalesced addresses).
__global__ void k_atomic_distinct(float *cnt, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&cnt[i], 1.0f);
}

// Shared-memory atomics: `iters` atomicAdd(1) per thread to word (threadIdx.x & mask)
// of a 256-word array (mask 0: one word per block; 255: one word per thread).
__global__ void k_smem_atomic(unsigned *out, int iters, unsigned mask) {
  __shared__ unsigned s[256];
  s[threadIdx.x] = 0;
  __syncthreads();
  unsigned a = threadIdx.x & mask;
  for (int k = 0; k < iters; ++k) atomicAdd(&s[a], 1u);
  __syncthreads();
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s[threadIdx.x];
}

// As k_smem_atomic, but each thread adds 1 + (threadIdx.x & vmask) (vmask = 0 at run
// time): the compiler cannot prove the operand uniform, so it emits one ATOMS.ADD
// per lane instead of the warp-aggregated ATOMS.POPC.INC of the constant-1 form.
__global__ void k_smem_atomic_add(unsigned *out, int iters, unsigned mask, unsigned vmask) {
  __shared__ unsigned s[256];
  s[threadIdx.x] = 0;
  __syncthreads();
  unsigned a = threadIdx.x & mask, v = 1u + (threadIdx.x & vmask);
  for (int k = 0; k < iters; ++k) atomicAdd(&s[a], v);
  __syncthreads();
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s[threadIdx.x];
}

// ---------------------------------------------------------------- global access

// Copy reading one element past each thread's index: out[i] = in[i + 1].
__global__ void k_copy_misaligned(const float *__restrict__ in, float *__restrict__ out,
                                  size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];
}

// One float2 (8-byte load and store) per thread.
__global__ void k_copy2(const float2 *__restrict__ in, float2 *__restrict__ out, size_t n2) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n2) out[i] = in[i];
}

// idx[i] = hash32(i) & mask: uniform random indices into a power-of-two buffer.
__global__ void k_make_indices(unsigned *idx, size_t n, unsigned mask) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) idx[i] = hash32((unsigned)i) & mask;
}

// Random gather: out[i] = in[idx[i]] (idx and out coalesced, in random).
__global__ void k_gather(const float *__restrict__ in, const unsigned *__restrict__ idx,
                         float *__restrict__ out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

// Re-reads an L2-resident buffer `passes` times: each pass every thread loads
// float4 elements t, t+T, t+2T... (T = all threads) with ld.global.cg (L2 only).
__global__ void k_l2_reread(const float4 *__restrict__ in, float *__restrict__ out, size_t n4,
                            int passes) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t T = (size_t)gridDim.x * blockDim.x;
  float acc = 0;
  for (int p = 0; p < passes; ++p)
    for (size_t i = t; i < n4; i += T) {
      float4 v = __ldcg(in + i);
      acc += v.x + v.y + v.z + v.w;
    }
  out[t] = acc;
}

// Read-only sum: one float4 per thread, a warp shuffle sum, one float per warp written.
__global__ void k_read_sum(const float4 *__restrict__ in, float *__restrict__ out, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  float s = 0;
  if (i < n4) {
    float4 v = in[i];
    s = (v.x + v.y) + (v.z + v.w);
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) out[i >> 5] = s;
}

// ---------------------------------------------------------------- transpose, stencil

static const int kTile = 32, kRows = 8;  // 32x32 tiles, 32x8 threads, 4 elements each

// Naive transpose: coalesced reads, writes strided by n (each thread 4 elements).
__global__ void k_transpose_naive(float *__restrict__ out, const float *__restrict__ in, int n) {
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(size_t)x * n + (y + j)] = in[(size_t)(y + j) * n + x];
}

// Tiled transpose through shared memory; PAD = 0 gives 32-way bank conflicts on the
// column reads of the tile, PAD = 1 none. Both global sides coalesced.
template <int PAD>
__global__ void k_transpose_tiled(float *__restrict__ out, const float *__restrict__ in, int n) {
  __shared__ float tile[kTile][kTile + PAD];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(size_t)(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 5-point stencil on an n x n grid (interior points only): one point per thread.
__global__ void k_stencil5(const float *__restrict__ in, float *__restrict__ out, int n, float c0,
                           float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1) {
    size_t i = (size_t)y * n + x;
    out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
  }
}

// ---------------------------------------------------------------- families

static const unsigned kPeriod = 1000003;
static const float kScale = 1.0f / 1024;

// Shape of the ALU families: 4 full waves of 256-thread blocks at 8 blocks/SM.
static int alu_grid(const Bench &b) { return b.sm_count * 8 * 4; }

// One ALU row: time `launch` (9 repetitions, no flush), fill the shape and counts.
template <typename K>
static Row alu_row(Bench &b, K kernel, const char *family, const char *name, const char *params,
                   unsigned long long flops, const std::function<void()> &launch,
                   int out_bytes = 4) {
  Row r;
  r.family = family; r.name = name; r.params = params;
  row_shape(r, kernel, dim3(alu_grid(b)), dim3(256), 0);
  r.t = time_case(b, 9, false, launch);
  r.bytes = (unsigned long long)out_bytes * alu_grid(b) * 256;
  r.flops = flops;
  return r;
}

// sfu, fp64, int32, cvt families.
static void run_alu(Bench &b, void *out) {
  const int grid = alu_grid(b), bs = 256;
  const unsigned long long threads = (unsigned long long)grid * bs;
  float *fo = (float *)out;
  double *dout = (double *)out;
  unsigned *uo = (unsigned *)out;
  const int sfu_iters = 1024;

  emit(b, alu_row(b, k_sinf<1>, "sfu", "sinf_ilp1", "iters=1024", threads * sfu_iters,
                  [&] { k_sinf<1><<<grid, bs, 0, b.stream>>>(fo, sfu_iters); }));
  emit(b, alu_row(b, k_sinf<4>, "sfu", "sinf_ilp4", "iters=1024", threads * sfu_iters * 4,
                  [&] { k_sinf<4><<<grid, bs, 0, b.stream>>>(fo, sfu_iters); }));
  {
    std::vector<float> h = to_host(fo, 4096);
    for (float v : h) REQUIRE(v >= 0.0f && v < 4.0f * 0.2f, "sinf_ilp4: out of range %g", v);
  }
  emit(b, alu_row(b, k_expf<1>, "sfu", "expf_ilp1", "iters=1024", threads * sfu_iters,
                  [&] { k_expf<1><<<grid, bs, 0, b.stream>>>(fo, sfu_iters); }));
  emit(b, alu_row(b, k_expf<4>, "sfu", "expf_ilp4", "iters=1024", threads * sfu_iters * 4,
                  [&] { k_expf<4><<<grid, bs, 0, b.stream>>>(fo, sfu_iters); }));
  {
    std::vector<float> h = to_host(fo, 4096);  // each chain converges to omega = 0.5671
    for (float v : h) REQUIRE(fabsf(v - 4 * 0.567143f) < 1e-3f, "expf_ilp4: got %g", v);
  }

  const int dit = 1024;
  const double da = 0.999999, db = 1e-6;  // converges to b/(1-a) = 1
  emit(b, alu_row(b, k_dfma<1>, "fp64", "dfma_ilp1", "iters=1024", 2 * threads * dit,
                  [&] { k_dfma<1><<<grid, bs, 0, b.stream>>>(dout, dit, da, db); }, 8));
  emit(b, alu_row(b, k_dfma<4>, "fp64", "dfma_ilp4", "iters=1024", 2 * threads * dit * 4,
                  [&] { k_dfma<4><<<grid, bs, 0, b.stream>>>(dout, dit, da, db); }, 8));
  {
    double got = 0, want = 0;
    CK(cudaMemcpy(&got, dout + 5, sizeof(double), cudaMemcpyDeviceToHost));  // thread 5
    for (int j = 0; j < 4; ++j) {
      double x = 5 * 1e-3 + j;
      for (int k = 0; k < dit; ++k) x = fma(x, da, db);
      want += x;
    }
    REQUIRE(fabs(got - want) <= 1e-12 * fabs(want), "dfma_ilp4: got %.17g want %.17g", got, want);
  }

  const int iit = 1024;
  const unsigned ia = 1664525u, ib = 1013904223u, ic = 0x9e3779b9u;
  auto int_want = [&](int ilp, unsigned tid, bool mad) {
    unsigned s = 0;
    for (int j = 0; j < ilp; ++j) {
      unsigned x = tid + 977u * j;
      for (int k = 0; k < iit; ++k) x = mad ? x * ia + ib : (x + ib) ^ ic;
      s ^= x;
    }
    return s;
  };
  emit(b, alu_row(b, k_imad<1>, "int32", "imad_ilp1", "iters=1024", 0,
                  [&] { k_imad<1><<<grid, bs, 0, b.stream>>>(uo, iit, ia, ib); }));
  emit(b, alu_row(b, k_imad<4>, "int32", "imad_ilp4", "iters=1024", 0,
                  [&] { k_imad<4><<<grid, bs, 0, b.stream>>>(uo, iit, ia, ib); }));
  {
    unsigned got = 0;
    CK(cudaMemcpy(&got, uo + 300, sizeof(unsigned), cudaMemcpyDeviceToHost));  // thread 44
    REQUIRE(got == int_want(4, 300 % 256, true), "imad_ilp4: got %u", got);
  }
  emit(b, alu_row(b, k_iadd_xor<1>, "int32", "iadd_xor_ilp1", "iters=1024", 0,
                  [&] { k_iadd_xor<1><<<grid, bs, 0, b.stream>>>(uo, iit, ib, ic); }));
  emit(b, alu_row(b, k_iadd_xor<4>, "int32", "iadd_xor_ilp4", "iters=1024", 0,
                  [&] { k_iadd_xor<4><<<grid, bs, 0, b.stream>>>(uo, iit, ib, ic); }));
  {
    unsigned got = 0;
    CK(cudaMemcpy(&got, uo + 300, sizeof(unsigned), cudaMemcpyDeviceToHost));
    REQUIRE(got == int_want(4, 300 % 256, false), "iadd_xor_ilp4: got %u", got);
  }

  const int cit = 512;
  emit(b, alu_row(b, k_cvt<1>, "cvt", "f2i_i2f_ilp1", "iters=512", 0,
                  [&] { k_cvt<1><<<grid, bs, 0, b.stream>>>(fo, cit); }));
  emit(b, alu_row(b, k_cvt<4>, "cvt", "f2i_i2f_ilp4", "iters=512", 0,
                  [&] { k_cvt<4><<<grid, bs, 0, b.stream>>>(fo, cit); }));
  {
    float got = 0;
    CK(cudaMemcpy(&got, fo + 7, sizeof(float), cudaMemcpyDeviceToHost));  // thread 7
    float want = 0;
    for (int j = 0; j < 4; ++j) want += float(7 + 1000 * j + cit);
    REQUIRE(got == want, "cvt_ilp4: got %g want %g", got, want);
  }
}

// atomic: global float atomics (one address, per warp, distinct) and shared atomics.
static void run_atomic(Bench &b, float *cnt, unsigned *uo) {
  const size_t n = size_t(1) << 22;
  const unsigned grid = unsigned(n / 256);
  struct Case {
    const char *name;
    void (*kernel)(float *, size_t);
    size_t words;
  } cases[] = {{"global_same_address", k_atomic_one, 1},
               {"global_per_warp", k_atomic_warp, n / 32},
               {"global_distinct", k_atomic_distinct, n}};
  for (const Case &c : cases) {
    Row r;
    r.family = "atomic"; r.name = c.name; r.params = "n=2^22 atomicAdd(float)";
    row_shape(r, c.kernel, dim3(grid), dim3(256), 0);
    r.t = time_case(
        b, 15, true, [&] { c.kernel<<<grid, 256, 0, b.stream>>>(cnt, n); },
        [&] { CK(cudaMemsetAsync(cnt, 0, c.words * sizeof(float), b.stream)); });
    std::vector<float> h = to_host(cnt, c.words);
    float want = float(n / c.words);
    for (size_t w = 0; w < c.words; ++w)
      REQUIRE(h[w] == want, "%s: word %zu = %g, expected %g", c.name, w, h[w], want);
    r.bytes = c.words == 1 ? 0 : 8ull * c.words;
    emit(b, r);
  }
  const int sgrid = b.sm_count * 8, iters = 256;
  for (int variable = 0; variable < 2; ++variable) {
    for (unsigned mask : {0u, 255u}) {
      Row r;
      r.family = "atomic";
      r.name = std::string(mask == 0 ? "shared_same_address" : "shared_distinct") +
               (variable ? "_add" : "");
      r.params = variable ? "iters=256 atomicAdd(u32 non-uniform value)" : "iters=256 atomicAdd(u32)";
      if (variable) {
        row_shape(r, k_smem_atomic_add, dim3(sgrid), dim3(256), 0);
        r.t = time_case(b, 9, false, [&] {
          k_smem_atomic_add<<<sgrid, 256, 0, b.stream>>>(uo, iters, mask, 0u);
        });
      } else {
        row_shape(r, k_smem_atomic, dim3(sgrid), dim3(256), 0);
        r.t = time_case(b, 9, false,
                        [&] { k_smem_atomic<<<sgrid, 256, 0, b.stream>>>(uo, iters, mask); });
      }
      std::vector<unsigned> h(256);
      CK(cudaMemcpy(h.data(), uo, 256 * sizeof(unsigned), cudaMemcpyDeviceToHost));
      for (unsigned t = 0; t < 256; ++t) {
        unsigned want = mask == 0 ? (t == 0 ? 256u * iters : 0u) : (unsigned)iters;
        REQUIRE(h[t] == want, "%s: s[%u] = %u, expected %u", r.name.c_str(), t, h[t], want);
      }
      r.bytes = 4ull * sgrid * 256;
      emit(b, r);
    }
  }
}

// access: misaligned copy, float2 copy, random gathers, L2 re-read, read-only sum.
static void run_access(Bench &b, float *A, float *B, float *C) {
  for (int lg : {24, 26}) {
    size_t n = size_t(1) << lg;
    std::string p = "n=2^" + std::to_string(lg);
    Row r;
    r.family = "access"; r.name = "copy_misaligned"; r.params = p;
    row_shape(r, k_copy_misaligned, dim3(unsigned(n / 256)), dim3(256), 0);
    r.t = time_case(b, 15, true, [&] {
      k_copy_misaligned<<<unsigned(n / 256), 256, 0, b.stream>>>(A, B, n);
    });
    check_spread("copy_misaligned", B, n, [](size_t i) { return pattern_at(i + 1, kPeriod, kScale); });
    r.bytes = 8ull * n;
    emit(b, r);

    Row r2;
    r2.family = "access"; r2.name = "copy_float2"; r2.params = p;
    size_t n2 = n / 2;
    row_shape(r2, k_copy2, dim3(unsigned(n2 / 256)), dim3(256), 0);
    CK(cudaMemset(B, 0, n * sizeof(float)));
    r2.t = time_case(b, 15, true, [&] {
      k_copy2<<<unsigned(n2 / 256), 256, 0, b.stream>>>((const float2 *)A, (float2 *)B, n2);
    });
    check_spread("copy_float2", B, n, [](size_t i) { return pattern_at(i, kPeriod, kScale); });
    r2.bytes = 8ull * n;
    emit(b, r2);
  }

  // Random gathers: 2^24 outputs from a 16 MiB (fits L2) or a 2 GiB buffer.
  const size_t n = size_t(1) << 24;
  unsigned *idx = (unsigned *)C;  // 64 MiB of indices in C
  float *gout = C + n;
  for (int lg_words : {22, 29}) {
    size_t m = size_t(1) << lg_words;
    k_make_indices<<<unsigned(n / 256), 256>>>(idx, n, unsigned(m - 1));
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    Row r;
    r.family = "access";
    r.name = lg_words == 22 ? "gather_l2" : "gather_dram";
    r.params = lg_words == 22 ? "n=2^24 from 16MiB" : "n=2^24 from 2GiB";
    row_shape(r, k_gather, dim3(unsigned(n / 256)), dim3(256), 0);
    r.t = time_case(b, 15, true,
                    [&] { k_gather<<<unsigned(n / 256), 256, 0, b.stream>>>(A, idx, gout, n); });
    check_spread(r.name.c_str(), gout, n, [&](size_t i) {
      return pattern_at(hash32((unsigned)i) & unsigned(m - 1), kPeriod, kScale);
    });
    r.bytes = 12ull * n;
    emit(b, r);
  }

  {  // L2 re-read: 16 MiB read 64 times by 1024 blocks of 256 threads (4 float4 per pass each)
    const size_t n4 = (size_t(16) << 20) / 16;
    const int passes = 64, grid = 1024;
    Row r;
    r.family = "access"; r.name = "l2_reread"; r.params = "16MiB x64 passes float4 ldcg";
    row_shape(r, k_l2_reread, dim3(grid), dim3(256), 0);
    r.t = time_case(b, 15, true, [&] {
      k_l2_reread<<<grid, 256, 0, b.stream>>>((const float4 *)A, B, n4, passes);
    });
    std::vector<float> h = to_host(B, (size_t)grid * 256);
    const size_t T = (size_t)grid * 256;
    for (size_t t = 0; t < T; t += 4099) {
      float acc = 0;
      for (int p = 0; p < passes; ++p)
        for (size_t i = t; i < n4; i += T) {
          float v[4];
          for (int c = 0; c < 4; ++c) v[c] = pattern_at(4 * i + c, kPeriod, kScale);
          acc += v[0] + v[1] + v[2] + v[3];
        }
      REQUIRE(fabsf(h[t] - acc) <= 1e-5f * fabsf(acc), "l2_reread: thread %zu got %g want %g",
              t, h[t], acc);
    }
    r.bytes = size_t(16) << 20;
    emit(b, r);
  }

  for (int lg : {26, 28}) {  // read-only sum of 2^lg floats
    size_t nf = size_t(1) << lg, n4 = nf / 4;
    Row r;
    r.family = "access"; r.name = "read_sum"; r.params = "n=2^" + std::to_string(lg);
    row_shape(r, k_read_sum, dim3(unsigned(n4 / 256)), dim3(256), 0);
    r.t = time_case(b, 15, true, [&] {
      k_read_sum<<<unsigned(n4 / 256), 256, 0, b.stream>>>((const float4 *)A, B, n4);
    });
    size_t warps = n4 / 32;
    std::vector<float> h = to_host(B, warps);
    for (size_t w = 0; w < warps; w += 1009) {
      double want = 0;
      for (size_t i = w * 128; i < (w + 1) * 128; ++i) want += pattern_at(i, kPeriod, kScale);
      REQUIRE(fabs(h[w] - want) <= 1e-5 * fabs(want) + 1e-3, "read_sum: warp %zu got %g want %g",
              w, h[w], want);
    }
    r.bytes = 4ull * nf;
    r.flops = nf;
    emit(b, r);
  }
}

// transpose: naive, tiled with bank conflicts, tiled padded (n = 4096 and 8192).
static void run_transpose(Bench &b, float *A, float *B) {
  for (int n : {4096, 8192}) {
    size_t nel = (size_t)n * n;
    dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
    struct Case {
      const char *name;
      void (*kernel)(float *, const float *, int);
    } cases[] = {{"naive", k_transpose_naive},
                 {"tiled_conflicts", k_transpose_tiled<0>},
                 {"tiled_padded", k_transpose_tiled<1>}};
    for (const Case &c : cases) {
      Row r;
      r.family = "transpose"; r.name = c.name; r.params = "n=" + std::to_string(n);
      row_shape(r, c.kernel, grid, block, 0);
      CK(cudaMemset(B, 0, nel * sizeof(float)));
      r.t = time_case(b, 15, true, [&] { c.kernel<<<grid, block, 0, b.stream>>>(B, A, n); });
      std::vector<float> h = to_host(B, nel);
      for (size_t k = 0; k < nel; k += 997) {
        size_t row = k / n, col = k % n;  // out[row][col] = in[col][row]
        float want = pattern_at(col * n + row, kPeriod, kScale);
        REQUIRE(h[k] == want, "transpose %s n=%d: out[%zu][%zu]=%g want %g", c.name, n, row, col,
                h[k], want);
      }
      r.bytes = 8ull * nel;
      emit(b, r);
    }
  }
}

// stencil: 5-point stencil on an 8192 x 8192 grid, blocks of 32x8.
static void run_stencil(Bench &b, float *A, float *B) {
  const int n = 8192;
  const float c0 = 0.5f, c1 = 0.125f;
  dim3 grid(n / 32, n / 8), block(32, 8);
  Row r;
  r.family = "stencil"; r.name = "5point_2d"; r.params = "n=8192 block=32x8";
  row_shape(r, k_stencil5, grid, block, 0);
  r.t = time_case(b, 15, true, [&] { k_stencil5<<<grid, block, 0, b.stream>>>(A, B, n, c0, c1); });
  std::vector<float> h = to_host(B, (size_t)n * n);
  for (size_t k = (size_t)n + 1; k < (size_t)n * (n - 1); k += 1013) {
    size_t x = k % n;
    if (x == 0 || x == (size_t)n - 1) continue;
    auto v = [&](size_t i) { return (double)pattern_at(i, kPeriod, kScale); };
    double want = c0 * v(k) + c1 * (v(k - 1) + v(k + 1) + v(k - n) + v(k + n));
    REQUIRE(fabs(h[k] - want) <= 1e-5 * fabs(want) + 1e-5, "stencil: out[%zu]=%g want %g", k, h[k],
            want);
  }
  r.bytes = 8ull * n * n;
  r.flops = 6ull * (n - 2) * (n - 2);
  emit(b, r);
}

// memcpy: pinned H2D and D2H, and D2D, 1 MiB .. 1 GiB.
static void run_memcpy(Bench &b, float *A, float *B) {
  const size_t max_bytes = size_t(1) << 30;
  float *h_src = nullptr, *h_dst = nullptr;
  CK(cudaMallocHost(&h_src, max_bytes));
  CK(cudaMallocHost(&h_dst, max_bytes));
  for (size_t i = 0, v = 7 % kPeriod; i < max_bytes / 4; ++i, v = v + 1 == kPeriod ? 0 : v + 1)
    h_src[i] = float(v) * kScale;  // == pattern_at(i + 7, kPeriod, kScale)
  struct Case {
    const char *name;
    cudaMemcpyKind kind;
  } cases[] = {{"h2d_pinned", cudaMemcpyHostToDevice},
               {"d2h_pinned", cudaMemcpyDeviceToHost},
               {"d2d", cudaMemcpyDeviceToDevice}};
  for (const Case &c : cases) {
    for (int mib : {1, 16, 256, 1024}) {
      size_t bytes = size_t(mib) << 20;
      void *dst = c.kind == cudaMemcpyHostToDevice ? (void *)B
                  : c.kind == cudaMemcpyDeviceToHost ? (void *)h_dst : (void *)B;
      const void *src = c.kind == cudaMemcpyHostToDevice ? (const void *)h_src : (const void *)A;
      Row r;
      r.family = "memcpy"; r.name = c.name; r.params = "bytes=" + std::to_string(mib) + "MiB";
      r.grid_x = 0; r.blocks_per_sm = -1;
      r.t = time_case(b, 9, false,
                      [&] { CK(cudaMemcpyAsync(dst, src, bytes, c.kind, b.stream)); });
      size_t nf = bytes / 4;
      for (size_t k = 0; k < nf; k += nf / 64 + 1) {  // check the copy
        float got;
        if (c.kind == cudaMemcpyDeviceToHost) got = h_dst[k];
        else CK(cudaMemcpy(&got, B + k, 4, cudaMemcpyDeviceToHost));
        float want = c.kind == cudaMemcpyHostToDevice ? pattern_at(k + 7, kPeriod, kScale)
                                                       : pattern_at(k, kPeriod, kScale);
        REQUIRE(got == want, "%s %d MiB: element %zu = %g, expected %g", c.name, mib, k, got,
                want);
      }
      r.bytes = c.kind == cudaMemcpyDeviceToDevice ? 2 * bytes : bytes;
      emit(b, r);
    }
  }
  CK(cudaFreeHost(h_src));
  CK(cudaFreeHost(h_dst));
}

// concurrent: two half-GPU kernels in two streams; a kernel overlapping an H2D copy.
static void run_concurrent(Bench &b, float *out, float *dbuf) {
  cudaStream_t s2;
  cudaEvent_t fork, join;
  CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  // Run a on b.stream and c on s2 between an event fork and join.
  auto two = [&](const std::function<void(cudaStream_t)> &a,
                 const std::function<void(cudaStream_t)> &c) {
    CK(cudaEventRecord(fork, b.stream));
    CK(cudaStreamWaitEvent(s2, fork, 0));
    a(b.stream);
    c(s2);
    CK_LAUNCH();
    CK(cudaEventRecord(join, s2));
    CK(cudaStreamWaitEvent(b.stream, join, 0));
  };
  const size_t dyn = dyn_smem_for_bpsm(b.prop, 1);
  allow_dyn_smem(k_fma<4>, dyn);
  const int half = b.sm_count / 2;
  float *o1 = out, *o2 = out + (1 << 20);

  auto halfk = [&](float *o) {
    return [&, o](cudaStream_t s) { k_fma<4><<<half, 256, dyn, s>>>(o, 8192, kFmaA, kFmaB); };
  };
  Row r;
  r.family = "concurrent"; r.name = "half_alone";
  r.params = std::to_string(half) + "x256 1bpsm fma_ilp4 iters=8192";
  row_shape(r, k_fma<4>, dim3(half), dim3(256), dyn);
  r.flops = 2ull * half * 256 * 8192 * 4;
  r.t = time_case(b, 7, false, [&] { halfk(o1)(b.stream); });
  emit(b, r);
  Row m = r;
  m.grid_x = 2 * half; m.blocks_per_sm = -1; m.flops *= 2;
  m.name = "half2_serial"; m.params = "two half-GPU kernels same stream";
  m.t = time_case(b, 7, false, [&] { halfk(o1)(b.stream); halfk(o2)(b.stream); });
  emit(b, m);
  m.name = "half2_streams"; m.params = "two half-GPU kernels two streams";
  m.t = time_case(b, 7, false, [&] { two(halfk(o1), halfk(o2)); });
  emit(b, m);

  // Kernel (all SMs, ~1.3 ms) and a 64 MiB pinned H2D copy.
  const int kit = 262144;
  const size_t cbytes = size_t(64) << 20;
  float *h = nullptr;
  CK(cudaMallocHost(&h, cbytes));
  for (size_t i = 0; i < cbytes / 4; ++i) h[i] = float(i & 1023);
  auto kern = [&](cudaStream_t s) {
    k_fma<4><<<b.sm_count, 256, dyn, s>>>(o1, kit, kFmaA, kFmaB);
  };
  auto copy = [&](cudaStream_t s) { CK(cudaMemcpyAsync(dbuf, h, cbytes, cudaMemcpyHostToDevice, s)); };
  r = Row();
  r.family = "concurrent"; r.name = "ovl_kernel_alone";
  r.params = std::to_string(b.sm_count) + "x256 1bpsm fma_ilp4 iters=262144";
  row_shape(r, k_fma<4>, dim3(b.sm_count), dim3(256), dyn);
  r.flops = 2ull * b.sm_count * 256 * kit * 4;
  r.t = time_case(b, 7, false, [&] { kern(b.stream); });
  emit(b, r);
  Row c = Row();
  c.family = "concurrent"; c.name = "ovl_h2d_alone"; c.params = "64MiB pinned H2D";
  c.grid_x = 0; c.blocks_per_sm = -1; c.bytes = cbytes;
  c.t = time_case(b, 7, false, [&] { copy(b.stream); });
  emit(b, c);
  m = r;
  m.blocks_per_sm = -1; m.bytes = cbytes;
  m.name = "ovl_serial"; m.params = "kernel then 64MiB H2D same stream";
  m.t = time_case(b, 7, false, [&] { kern(b.stream); copy(b.stream); });
  emit(b, m);
  m.name = "ovl_streams"; m.params = "kernel and 64MiB H2D two streams";
  m.t = time_case(b, 7, false, [&] { two(kern, copy); });
  emit(b, m);
  float got = 0;
  CK(cudaMemcpy(&got, dbuf + 1025, 4, cudaMemcpyDeviceToHost));
  REQUIRE(got == 1.0f, "ovl copy: got %g", got);

  CK(cudaFreeHost(h));
  CK(cudaStreamDestroy(s2));
  CK(cudaEventDestroy(fork));
  CK(cudaEventDestroy(join));
}

// Run every family of this file and write OUT.csv.
int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  fprintf(stderr, "bench_own on %s (%d SMs)\n", b.prop.name, b.sm_count);

  const size_t big = size_t(1) << 29;  // 2 GiB of floats each (gather_dram reads 2 GiB)
  float *A, *B, *C;
  CK(cudaMalloc(&A, (big + 64) * sizeof(float)));
  CK(cudaMalloc(&B, big * sizeof(float)));
  CK(cudaMalloc(&C, big * sizeof(float)));
  fill_pattern(A, big + 64, kPeriod, kScale);

  run_alu(b, B);
  run_atomic(b, B, (unsigned *)C);
  run_access(b, A, B, C);
  run_transpose(b, A, B);
  run_stencil(b, A, B);
  run_memcpy(b, A, B);
  run_concurrent(b, B, C);

  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  bench_close(b);
  fprintf(stderr, "bench_own: done\n");
  return 0;
}
