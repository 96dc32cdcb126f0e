// bench_loopchain.cu - loops whose every trip loads one element and runs an arithmetic
// body on it, with few warps per SM (family `loopchain`): what one trip costs a warp
// when the load is an L1 hit, when it is the first touch of its sector or line on the
// SM (an L2 hit), with dependent and independent FP32 bodies and a MUFU.RSQ.
//
// k_lc<VEC, NC, UNI, BODY>: every thread runs `warm` untimed trips, then T = 4096 timed
// trips (both loops `#pragma unroll 1`), trip j loading element
//   e = (j * S + lane) & mask   (UNI 0: coalesced, S = 32 * stride)
//   e = (j * stride)   & mask   (UNI 1: warp-uniform, every lane one address)
// of x (float, VEC 1, or float4, VEC 4), as a plain dereference (NC 0: LDG.E) or with
// __ldg (NC 1: LDG.E.CONSTANT). Every warp of every SM walks the same elements (as the
// naive n-body walks pos[j]). Footprints:
//   fp=l1     mask = 16 KiB of elements - 1, `warm` trips cover it once: timed trips are
//             L1 hits;
//   fp=first  mask wide (no wrap), warm 0: every element is touched the first time on
//             the SM; x stays in L2 (written before, not flushed: 64 KiB .. 2 MiB).
// v = the element (VEC 4: (x + y) + (z + w)), then the body:
//   k0    acc += v
//   d4    u = v; 4 x u = fmaf(u, 0.5, 0.75) (dependent); acc += u
//   d13   the same with 13 FFMA
//   d4r   d4, then r = rsqrtf(u) (MUFU.RSQ with its denormal guard); acc += r
//   d13r  d13, then rsqrtf; acc += r
//   i13   13 independent accumulators a_k = fmaf(v, c_k, a_k)
// k_nb<UNR>: the n-body body_acc of eval_dense.cuh (float4 pos, __restrict__, every lane
// one address), `passes` passes over m bodies (fp=first: m = 4096, one pass; fp=l1:
// m = 512, one warm pass, then 8), the j loop `#pragma unroll 1` (UNR 1) or left to
// nvcc (UNR 0: nvcc unrolls it by 4 as in k_nbody_naive).
// Launch: W warps per SM as B blocks of 32 W / B threads per SM (grid sms x B, no shared
// memory, carve-out preference 0: the largest L1); each block records its %smid and the
// side table gives the most blocks any SM held. Thread 0 of each block reads clock64
// around the timed loop: loopchain_cycles.csv has the median, min, max over blocks and
// per trip. Every thread's result is checked against a host recomputation (relative
// 1e-3: rsqrtf is MUFU.RSQ on the device).
//
// usage: bench_loopchain OUT.csv CYCLES.csv [device]
#include "common.cuh"

static FILE *g_cyc;
static const int kReps = 5;
static const int kTrips = 4096;
static const size_t kElems = size_t(1) << 20;  // elements of x (float4: 16 MiB)

__host__ __device__ inline float lc_x(size_t i) { return float(i % 7) * 0.25f; }

template <int VEC>
struct Lv;
template <>
struct Lv<1> {
  typedef float T;
  static __device__ __forceinline__ float val(float p) { return p; }
};
template <>
struct Lv<4> {
  typedef float4 T;
  static __device__ __forceinline__ float val(float4 p) {
    return __fadd_rn(__fadd_rn(p.x, p.y), __fadd_rn(p.z, p.w));
  }
};

template <int NC, typename T>
__device__ __forceinline__ T lc_ld(const T *p) {
  if constexpr (NC) return __ldg(p);
  else return *p;
}

enum { B_K0, B_D4, B_D13, B_D4R, B_D13R, B_I13, B_N };
static const char *kBodyName[B_N] = {"k0", "d4", "d13", "d4r", "d13r", "i13"};
static const int kBodyDep[B_N] = {0, 4, 13, 4, 13, 0};
static const int kBodyRsq[B_N] = {0, 0, 0, 1, 1, 0};

struct Acc {
  float a[13];
};

template <int BODY>
__host__ __device__ __forceinline__ void lc_body(float v, Acc &s) {
  if constexpr (BODY == B_I13) {
#pragma unroll
    for (int k = 0; k < 13; ++k) s.a[k] = fmaf(v, 0.125f * float(k + 1), s.a[k]);
  } else {
    constexpr int D = BODY == B_D4 || BODY == B_D4R ? 4 : BODY == B_K0 ? 0 : 13;
    float u = v;
#pragma unroll
    for (int k = 0; k < D; ++k) u = fmaf(u, 0.5f, 0.75f);
    if constexpr (BODY == B_D4R || BODY == B_D13R) {
#ifdef __CUDA_ARCH__
      u = rsqrtf(u);
#else
      u = 1.0f / sqrtf(u);
#endif
    }
    s.a[0] = s.a[0] + u;
  }
}

template <int VEC, int NC, int UNI, int BODY>
__global__ void __launch_bounds__(1024)
    k_lc(const typename Lv<VEC>::T *__restrict__ x, unsigned stride, unsigned mask, int warm,
         int trips, float *out, long long *cyc, int *smid) {
  typedef typename Lv<VEC>::T T;
  const unsigned lane = threadIdx.x & 31;
  const unsigned step = UNI ? stride : 32 * stride, off = UNI ? 0 : lane;
  Acc s;
#pragma unroll
  for (int k = 0; k < 13; ++k) s.a[k] = 0.f;
#pragma unroll 1
  for (int j = 0; j < warm; ++j) {
    T p = lc_ld<NC>(x + ((unsigned(j) * step + off) & mask));
    lc_body<BODY>(Lv<VEC>::val(p), s);
  }
  long long t0 = clock64();
#pragma unroll 1
  for (int j = warm; j < warm + trips; ++j) {
    T p = lc_ld<NC>(x + ((unsigned(j) * step + off) & mask));
    lc_body<BODY>(Lv<VEC>::val(p), s);
  }
  long long t1 = clock64();
  float r = 0.f;
#pragma unroll
  for (int k = 0; k < 13; ++k) r += s.a[k];
  out[blockIdx.x * blockDim.x + threadIdx.x] = r;
  if (threadIdx.x == 0) {
    cyc[blockIdx.x] = t1 - t0;
    int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = id;
  }
}

// host mirror of k_lc for one lane
static float lc_want(int vec, int uni, int body, unsigned stride, unsigned mask, int total,
                     unsigned lane) {
  const unsigned step = uni ? stride : 32 * stride, off = uni ? 0 : lane;
  Acc s;
  for (int k = 0; k < 13; ++k) s.a[k] = 0.f;
  for (int j = 0; j < total; ++j) {
    size_t e = (unsigned(j) * step + off) & mask;
    float v = vec == 1 ? lc_x(e)
                       : (lc_x(4 * e) + lc_x(4 * e + 1)) + (lc_x(4 * e + 2) + lc_x(4 * e + 3));
    switch (body) {
      case B_K0: lc_body<B_K0>(v, s); break;
      case B_D4: lc_body<B_D4>(v, s); break;
      case B_D13: lc_body<B_D13>(v, s); break;
      case B_D4R: lc_body<B_D4R>(v, s); break;
      case B_D13R: lc_body<B_D13R>(v, s); break;
      default: lc_body<B_I13>(v, s); break;
    }
  }
  float r = 0.f;
  for (int k = 0; k < 13; ++k) r += s.a[k];
  return r;
}

// ---------------------------------------------------------------- n-body body
__host__ __device__ __forceinline__ float3 nb_body(float4 bi, float4 bj, float3 a) {
  float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
  float d2 = r.x * r.x + r.y * r.y + r.z * r.z + 0.01f;
#ifdef __CUDA_ARCH__
  float inv = rsqrtf(d2);
#else
  float inv = 1.0f / sqrtf(d2);
#endif
  float s = bj.w * inv * inv * inv;
  a.x += r.x * s;
  a.y += r.y * s;
  a.z += r.z * s;
  return a;
}

template <int UNR>
__device__ __forceinline__ float3 nb_pass(const float4 *__restrict__ pos, int m, float4 bi,
                                          float3 a) {
  if constexpr (UNR == 1) {
#pragma unroll 1
    for (int j = 0; j < m; ++j) a = nb_body(bi, pos[j], a);
  } else {
    for (int j = 0; j < m; ++j) a = nb_body(bi, pos[j], a);
  }
  return a;
}

template <int UNR>
__global__ void __launch_bounds__(1024)
    k_nb(const float4 *__restrict__ pos, int m, int warm_passes, int passes, float4 *out,
         long long *cyc, int *smid) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 bi = pos[i & (m - 1)];
  float3 a = make_float3(0, 0, 0);
  for (int r = 0; r < warm_passes; ++r) a = nb_pass<UNR>(pos, m, bi, a);
  long long t0 = clock64();
  for (int r = 0; r < passes; ++r) a = nb_pass<UNR>(pos, m, bi, a);
  long long t1 = clock64();
  out[i] = make_float4(a.x, a.y, a.z, 0.f);
  if (threadIdx.x == 0) {
    cyc[blockIdx.x] = t1 - t0;
    int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = id;
  }
}

static float4 nb_pos(int j) {
  return make_float4(float(j % 13) * 0.25f, float(j % 7) * 0.5f, float(j % 5) * 0.125f,
                     1.0f + float(j % 3));
}

// ---------------------------------------------------------------- harness
static void emit_side(const Row &r, long long blocks, long long trips, const Cycles &c,
                      const int *d_smid, int sms) {
  const SmSpread sp = sm_spread(d_smid, blocks);
  const int most = sp.most, used = sp.used;
  (void)sms;
  double p = c.median / trips;
  fprintf(g_cyc, "%s,%s,%s,%lld,%lld,%.0f,%.0f,%.0f,%.3f,%d,%d\n", r.family.c_str(),
          r.name.c_str(), r.params.c_str(), blocks, trips, c.median, c.min, c.max, p, most, used);
  fflush(g_cyc);
  fprintf(stderr, "      %-22s %-44s %9.2f cyc/trip (min %.0f max %.0f) most %d used %d\n",
          r.name.c_str(), r.params.c_str(), p, c.min / trips, c.max / trips, most, used);
}

struct LcK {
  int vec, nc, uni, body;
  const void *fn;
};

template <int VEC, int NC, int UNI, int BODY>
static LcK mk() {
  return LcK{VEC, NC, UNI, BODY, (const void *)k_lc<VEC, NC, UNI, BODY>};
}

template <int VEC, int NC, int UNI>
static void add_bodies(std::vector<LcK> &v) {
  v.push_back(mk<VEC, NC, UNI, B_K0>());
  v.push_back(mk<VEC, NC, UNI, B_D4>());
  v.push_back(mk<VEC, NC, UNI, B_D13>());
  v.push_back(mk<VEC, NC, UNI, B_D4R>());
  v.push_back(mk<VEC, NC, UNI, B_D13R>());
  v.push_back(mk<VEC, NC, UNI, B_I13>());
}

static std::string lc_name(const LcK &k) {
  return std::string("lc_f") + std::to_string(k.vec) + (k.nc ? "_nc" : "_pl") +
         (k.uni ? "_uni_" : "_coal_") + kBodyName[k.body];
}

struct Ctx {
  Bench *b;
  float *x, *out;
  long long *cyc;
  int *smid;
  int sms;
};

static void run_lc(Ctx &c, const LcK &k, bool l1, unsigned stride, int W, int B) {
  Bench &b = *c.b;
  const int bt = 32 * W / B;
  const unsigned esz = 4u * k.vec;
  const unsigned per_trip = k.uni ? stride : 32 * stride;  // elements the index advances
  unsigned mask, warm;
  if (l1) {
    const unsigned fe = 16384 / esz;  // 16 KiB of elements
    mask = fe - 1;
    warm = std::max(1u, fe / per_trip);
  } else {
    mask = (unsigned)((kElems * 4 / esz) - 1);  // elements of x minus 1: no wrap
    warm = 0;
  }
  Row r;
  r.family = "loopchain";
  r.name = lc_name(k);
  r.params = "warps=" + std::to_string(W) + " bpsm=" + std::to_string(B) +
             (l1 ? " fp=l1" : " fp=first") + " stride=" + std::to_string(stride) +
             " trips=" + std::to_string(kTrips);
  const dim3 grid(c.sms * B), block(bt);
  CK(cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  r.grid_x = grid.x;
  r.block_x = bt;
  r.dyn_smem = 0;
  cudaFuncAttributes a;
  CK(cudaFuncGetAttributes(&a, k.fn));
  r.regs = a.numRegs;
  r.static_smem = (long long)a.sharedSizeBytes;
  int nb = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k.fn, bt, 0));
  r.blocks_per_sm = nb;
  const void *xp = c.x;
  int wi = (int)warm, ti = kTrips;
  float *op = c.out;
  long long *cp = c.cyc;
  int *sp = c.smid;
  void *args[8] = {(void *)&xp, (void *)&stride, (void *)&mask, (void *)&wi,
                   (void *)&ti, (void *)&op, (void *)&cp, (void *)&sp};
  r.t = time_case(b, kReps, false, [&] {
    CK(cudaLaunchKernel(k.fn, grid, block, args, 0, b.stream));
  });
  r.bytes = 0;
  r.flops = (unsigned long long)grid.x * bt * kTrips *
            ((k.vec == 4 ? 3 : 0) + 1 + kBodyDep[k.body] + (k.body == B_I13 ? 13 : 0) +
             kBodyRsq[k.body]);
  emit(b, r);
  emit_side(r, grid.x, kTrips, block_cycles(c.cyc, grid.x), c.smid, c.sms);
  std::vector<float> h = to_host(c.out, (size_t)grid.x * bt);
  const int lanes = k.uni ? 1 : 32;
  float want[32];
  for (int l = 0; l < lanes; ++l)
    want[l] = lc_want(k.vec, k.uni, k.body, stride, mask, (int)warm + kTrips, l);
  for (size_t t = 0; t < h.size(); ++t) {
    float w = want[k.uni ? 0 : t % 32];
    REQUIRE(std::fabs(h[t] - w) <= 1e-3f * std::fabs(w) + 1e-3f, "%s %s: out[%zu] = %.9g, want %.9g",
            r.name.c_str(), r.params.c_str(), t, h[t], w);
  }
}

static void run_nb(Ctx &c, float4 *pos, int unr, bool l1, int W, int B) {
  Bench &b = *c.b;
  const int bt = 32 * W / B;
  const int m = l1 ? 512 : 4096, warm = l1 ? 1 : 0, passes = l1 ? 8 : 1;
  const void *fn = unr == 1 ? (const void *)k_nb<1> : (const void *)k_nb<0>;
  Row r;
  r.family = "loopchain";
  r.name = unr == 1 ? "nbody_u1" : "nbody_auto";
  r.params = "warps=" + std::to_string(W) + " bpsm=" + std::to_string(B) +
             (l1 ? " fp=l1" : " fp=first") + " m=" + std::to_string(m) +
             " passes=" + std::to_string(passes);
  const dim3 grid(c.sms * B), block(bt);
  CK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  r.grid_x = grid.x;
  r.block_x = bt;
  cudaFuncAttributes a;
  CK(cudaFuncGetAttributes(&a, fn));
  r.regs = a.numRegs;
  r.static_smem = (long long)a.sharedSizeBytes;
  int nb = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, fn, bt, 0));
  r.blocks_per_sm = nb;
  const float4 *pp = pos;
  int mi = m, wi = warm, pi = passes;
  float4 *op = (float4 *)c.out;
  long long *cp = c.cyc;
  int *sp = c.smid;
  void *args[7] = {(void *)&pp, (void *)&mi, (void *)&wi, (void *)&pi,
                   (void *)&op, (void *)&cp, (void *)&sp};
  r.t = time_case(b, kReps, false, [&] {
    CK(cudaLaunchKernel(fn, grid, block, args, 0, b.stream));
  });
  r.bytes = 0;
  r.flops = 20ull * grid.x * bt * m * passes;
  emit(b, r);
  emit_side(r, grid.x, (long long)m * passes, block_cycles(c.cyc, grid.x), c.smid, c.sms);
  // check 64 threads
  const size_t nt = (size_t)grid.x * bt;
  std::vector<float4> h(nt);
  CK(cudaMemcpy(h.data(), c.out, nt * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int q = 0; q < 64; ++q) {
    size_t t = (q * 7919ull) % nt;
    float4 bi = nb_pos((int)(t & (m - 1)));
    float3 acc = make_float3(0, 0, 0), mag = make_float3(0, 0, 0);
    for (int rr = 0; rr < warm + passes; ++rr)
      for (int j = 0; j < m; ++j) {
        float3 z = nb_body(bi, nb_pos(j), make_float3(0, 0, 0));
        acc = nb_body(bi, nb_pos(j), acc);
        mag.x += std::fabs(z.x), mag.y += std::fabs(z.y), mag.z += std::fabs(z.z);
      }
    const float got[3] = {h[t].x, h[t].y, h[t].z}, w[3] = {acc.x, acc.y, acc.z},
                tol[3] = {mag.x, mag.y, mag.z};
    for (int d = 0; d < 3; ++d)
      REQUIRE(std::fabs(got[d] - w[d]) <= 1e-4f * tol[d] + 1e-2f,
              "%s %s: thread %zu comp %d = %.9g, want %.9g", r.name.c_str(), r.params.c_str(),
              t, d, got[d], w[d]);
  }
}

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(b, argc, argv, "CYCLES.csv",
                          "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
                          "cycles_per_trip,max_blocks_per_sm,sms_used\n");
  Ctx c;
  c.b = &b;
  c.sms = b.sm_count;
  CK(cudaMalloc(&c.x, kElems * 4 * sizeof(float)));
  fill_pattern(c.x, kElems * 4, 7, 0.25f);  // x[i] = (i % 7) * 0.25 = lc_x(i)
  CK(cudaMalloc(&c.out, (size_t)c.sms * 4 * 1024 * sizeof(float4)));
  CK(cudaMalloc(&c.cyc, (size_t)c.sms * 16 * sizeof(long long)));
  CK(cudaMalloc(&c.smid, (size_t)c.sms * 16 * sizeof(int)));

  std::vector<LcK> ks;
  add_bodies<1, 0, 1>(ks);
  add_bodies<1, 1, 1>(ks);
  add_bodies<4, 0, 1>(ks);
  add_bodies<4, 1, 1>(ks);
  add_bodies<1, 0, 0>(ks);
  add_bodies<1, 1, 0>(ks);
  add_bodies<4, 0, 0>(ks);
  add_bodies<4, 1, 0>(ks);
  auto find = [&](int vec, int nc, int uni, int body) -> const LcK & {
    for (const LcK &k : ks)
      if (k.vec == vec && k.nc == nc && k.uni == uni && k.body == body) return k;
    REQUIRE(false, "no kernel %d %d %d %d", vec, nc, uni, body);
    return ks[0];
  };

  // (d) the n-body body first: the case that motivates the family
  {
    float4 *pos;
    CK(cudaMalloc(&pos, 4096 * sizeof(float4)));
    std::vector<float4> hp(4096);
    for (int j = 0; j < 4096; ++j) hp[j] = nb_pos(j);
    CK(cudaMemcpy(pos, hp.data(), hp.size() * sizeof(float4), cudaMemcpyHostToDevice));
    const int shapes[5][2] = {{1, 1}, {4, 1}, {8, 1}, {16, 1}, {16, 4}};
    for (int unr = 0; unr < 2; ++unr)
      for (int l1 = 0; l1 < 2; ++l1)
        for (int s = 0; s < 5; ++s) run_nb(c, pos, unr ? 1 : 0, l1, shapes[s][0], shapes[s][1]);
    CK(cudaFree(pos));
  }
  // (a) every kernel, fp l1 and first, 1 and 4 warps per SM, stride 1
  for (const LcK &k : ks)
    for (int l1 = 1; l1 >= 0; --l1)
      for (int W : {1, 4}) run_lc(c, k, l1, 1, W, 1);
  // (b) warps per SM
  {
    const int sel[4][4] = {{4, 1, 1, B_D13R}, {4, 1, 1, B_K0}, {1, 0, 0, B_D4}, {1, 1, 1, B_D13}};
    const int shapes[5][2] = {{2, 1}, {8, 1}, {16, 1}, {8, 2}, {16, 4}};
    for (int q = 0; q < 4; ++q)
      for (int l1 = 1; l1 >= 0; --l1)
        for (int s = 0; s < 5; ++s)
          run_lc(c, find(sel[q][0], sel[q][1], sel[q][2], sel[q][3]), l1, 1, shapes[s][0],
                 shapes[s][1]);
  }
  // (c) strides: a new sector or a new line every trip
  {
    const int sel[3][4] = {{1, 1, 1, B_K0}, {1, 1, 1, B_D13R}, {4, 1, 1, B_K0}};
    for (int q = 0; q < 3; ++q)
      for (unsigned st : {2u, 8u, 32u})
        for (int l1 = 1; l1 >= 0; --l1)
          for (int W : {1, 4}) run_lc(c, find(sel[q][0], sel[q][1], sel[q][2], sel[q][3]), l1, st, W, 1);
  }

  CK(cudaFree(c.x));
  CK(cudaFree(c.out));
  CK(cudaFree(c.cyc));
  CK(cudaFree(c.smid));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
