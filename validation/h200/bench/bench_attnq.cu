// bench_attnq.cu - a thread per row looping over the rows of a small key table (family
// `attnq`): every trip loads one key row of d floats that every lane of the warp reads at
// the same address, folds it into a dot product with the thread's own q[d] (registers),
// then (bodies below) an exp and an update of an output vector o[d] held in registers.
// What one trip costs a warp when the trip is a long dependent FMA chain beside d
// warp-uniform loads, with 1 to 8 warps per SM.
//
// k_aq<D, VEC, NACC, BODY, SRC>: q[c] = (((tid + c) % 4) + 1) / 64, then `warm` untimed
// trips and T = 1024 timed ones (both `#pragma unroll 1`); trip j reads key row
//   r = (j * stride) & mask
// of K (and for the bodies with an update, the same row of V): D floats as D LDG.E (VEC 1)
// or D/4 LDG.E.128 (VEC 4), through const __restrict__ pointers (LDG.E.CONSTANT), or from
// shared memory (SRC 1: the block copies 32 rows of K and V into dynamic shared memory
// once before the loops; LDS / LDS.128 at one address per warp).
//   s = q . k   NACC 1: one accumulator, D dependent FFMA; NACC 2, 4: D/NACC each, summed
//   dot   tot += s
//   dotv  o[c] = fmaf(s, v[c], o[c])                      (D independent FFMA)
//   exp1  p = __expf(s - 4); o[c] = fmaf(p, v[c], o[c])    (one MUFU.EX2)
//   soft  the online softmax of a fused attention: mn = fmaxf(m, s), corr = __expf(m - mn),
//         p = __expf(s - mn), l = l * corr + p, o[c] = o[c] * corr + p * v[c], m = mn
// Footprints (SRC 0):
//   fp=l1  mask + 1 = 16 KiB of K rows (and as much of V), the warm trips cover them once:
//          the timed trips are L1 hits;
//   fp=l2  no wrap, warm 0: every row is the SM's first touch of it; K and V stay in L2
//          (written before, not flushed).
// Launch: W warps per SM as B blocks of 32 W / B threads (grid sms x B), carve-out
// preference 0 for SRC 0 (the largest L1). Thread 0 of each block reads clock64 around
// the timed loop: attnq_cycles.csv has the median, min, max over blocks and per trip.
// Every thread's result (tot + l + sum o) is checked against a host recomputation
// (relative 1e-3 of its magnitude: __expf is MUFU.EX2 on the device).
//
// usage: bench_attnq OUT.csv CYCLES.csv [device]
#include "common.cuh"

static FILE *g_cyc;
static const int kReps = 5;
static const int kTrips = 1024;
static const size_t kFloats = size_t(1) << 20;  // floats of K and of V (4 MiB each)
static const int kSmemRows = 32;

enum { B_DOT, B_DOTV, B_EXP1, B_SOFT, B_N };
static const char *kBodyName[B_N] = {"dot", "dotv", "exp1", "soft"};

__host__ __device__ inline float aq_x(size_t i) { return float(i % 7) * 0.25f; }
__host__ __device__ inline float aq_q(unsigned tid, int c) {
  return float(((tid + unsigned(c)) % 4u) + 1u) * (1.0f / 64.0f);
}

__host__ __device__ __forceinline__ float aq_exp(float x) {
#ifdef __CUDA_ARCH__
  return __expf(x);
#else
  return expf(x);
#endif
}

template <int D, int NACC>
__host__ __device__ __forceinline__ float aq_dot(const float *q, const float *k) {
  float a[NACC];
#pragma unroll
  for (int u = 0; u < NACC; ++u) a[u] = q[u] * k[u];
#pragma unroll
  for (int c = NACC; c < D; ++c) a[c % NACC] = fmaf(q[c], k[c], a[c % NACC]);
  float s = a[0];
#pragma unroll
  for (int u = 1; u < NACC; ++u) s += a[u];
  return s;
}

struct St {
  float tot, m, l;
};

template <int D, int NACC, int BODY>
__host__ __device__ __forceinline__ void aq_trip(const float *q, const float *k, const float *v,
                                                 float *o, St &st) {
  const float s = aq_dot<D, NACC>(q, k);
  if constexpr (BODY == B_DOT) {
    st.tot += s;
  } else if constexpr (BODY == B_DOTV) {
#pragma unroll
    for (int c = 0; c < D; ++c) o[c] = fmaf(s, v[c], o[c]);
  } else if constexpr (BODY == B_EXP1) {
    const float p = aq_exp(s - 4.0f);
#pragma unroll
    for (int c = 0; c < D; ++c) o[c] = fmaf(p, v[c], o[c]);
  } else {
    const float mn = fmaxf(st.m, s), corr = aq_exp(st.m - mn), p = aq_exp(s - mn);
    st.l = st.l * corr + p;
#pragma unroll
    for (int c = 0; c < D; ++c) o[c] = o[c] * corr + p * v[c];
    st.m = mn;
  }
}

template <int D, int VEC>
__device__ __forceinline__ void aq_row(const float *__restrict__ p, float *k) {
  if constexpr (VEC == 4) {
    const float4 *p4 = reinterpret_cast<const float4 *>(p);
#pragma unroll
    for (int c = 0; c < D / 4; ++c) {
      float4 t = p4[c];
      k[4 * c] = t.x, k[4 * c + 1] = t.y, k[4 * c + 2] = t.z, k[4 * c + 3] = t.w;
    }
  } else {
#pragma unroll
    for (int c = 0; c < D; ++c) k[c] = p[c];
  }
}

// one trip: row (j * stride) & mask of K (and V) into k (and v), then the body
template <int D, int VEC, int NACC, int BODY>
__device__ __forceinline__ void aq_step(const float *__restrict__ K, const float *__restrict__ V,
                                        int j, unsigned stride, unsigned mask, const float *q,
                                        float *k, float *v, float *o, St &st) {
  const unsigned r = (unsigned(j) * stride) & mask;
  aq_row<D, VEC>(K + r * D, k);
  if constexpr (BODY != B_DOT) aq_row<D, VEC>(V + r * D, v);
  aq_trip<D, NACC, BODY>(q, k, v, o, st);
}

template <int D, int VEC, int NACC, int BODY, int SRC>
__global__ void __launch_bounds__(256, 1)
    k_aq(const float *__restrict__ K, const float *__restrict__ V, unsigned stride,
         unsigned mask, int warm, int trips, float *out, long long *cyc, int *smid) {
  extern __shared__ float4 aq_sm4[];
  float *sm = reinterpret_cast<float *>(aq_sm4);
  constexpr bool kUpd = BODY != B_DOT;
  const float *Kp = K, *Vp = V;
  if constexpr (SRC == 1) {
    for (int i = threadIdx.x; i < kSmemRows * D; i += blockDim.x) {
      sm[i] = K[i];
      if (kUpd) sm[kSmemRows * D + i] = V[i];
    }
    __syncthreads();
    Kp = sm;
    Vp = sm + kSmemRows * D;
  }
  float q[D], o[D], k[D], v[D];
#pragma unroll
  for (int c = 0; c < D; ++c) q[c] = aq_q(threadIdx.x, c), o[c] = 0.f;
  St st = {0.f, -1e30f, 0.f};
#pragma unroll 1
  for (int j = 0; j < warm; ++j)
    aq_step<D, VEC, NACC, BODY>(Kp, Vp, j, stride, mask, q, k, v, o, st);
  long long t0 = clock64();
#pragma unroll 1
  for (int j = warm; j < warm + trips; ++j)
    aq_step<D, VEC, NACC, BODY>(Kp, Vp, j, stride, mask, q, k, v, o, st);
  long long t1 = clock64();
  float res = st.tot + st.l;
#pragma unroll
  for (int c = 0; c < D; ++c) res += o[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = res;
  if (threadIdx.x == 0) {
    cyc[blockIdx.x] = t1 - t0;
    int id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = id;
  }
}

// host mirror of k_aq for one thread; *mag: a magnitude for the tolerance
template <int D, int NACC, int BODY>
static float aq_want_t(unsigned tid, unsigned stride, unsigned mask, int total, float *mag) {
  float q[D], o[D], k[D], v[D];
  for (int c = 0; c < D; ++c) q[c] = aq_q(tid, c), o[c] = 0.f;
  St st = {0.f, -1e30f, 0.f};
  for (int j = 0; j < total; ++j) {
    const unsigned r = (unsigned(j) * stride) & mask;
    for (int c = 0; c < D; ++c) k[c] = aq_x(size_t(r) * D + c), v[c] = k[c];
    aq_trip<D, NACC, BODY>(q, k, v, o, st);
  }
  float res = st.tot + st.l, m = std::fabs(st.tot) + std::fabs(st.l);
  for (int c = 0; c < D; ++c) res += o[c], m += std::fabs(o[c]);
  *mag = m;
  return res;
}

// ---------------------------------------------------------------- harness
struct AqK {
  int d, vec, nacc, body, src;
  const void *fn;
  float (*want)(unsigned, unsigned, unsigned, int, float *);
};

template <int D, int VEC, int NACC, int BODY, int SRC>
static AqK mk() {
  return AqK{D, VEC, NACC, BODY, SRC, (const void *)k_aq<D, VEC, NACC, BODY, SRC>,
             aq_want_t<D, NACC, BODY>};
}

struct Ctx {
  Bench *b;
  float *K, *V, *out;
  long long *cyc;
  int *smid;
  int sms;
  std::vector<AqK> ks;
};

static const AqK &find(Ctx &c, int d, int vec, int nacc, int body, int src) {
  for (const AqK &k : c.ks)
    if (k.d == d && k.vec == vec && k.nacc == nacc && k.body == body && k.src == src) return k;
  REQUIRE(false, "no kernel d%d f%d a%d %d s%d", d, vec, nacc, body, src);
  return c.ks[0];
}

static void emit_side(const Row &r, long long blocks, long long trips, const Cycles &cy,
                      const int *d_smid) {
  const SmSpread sp = sm_spread(d_smid, blocks);
  const int most = sp.most, used = sp.used;
  double p = cy.median / trips;
  fprintf(g_cyc, "%s,%s,%s,%lld,%lld,%.0f,%.0f,%.0f,%.3f,%d,%d\n", r.family.c_str(),
          r.name.c_str(), r.params.c_str(), blocks, trips, cy.median, cy.min, cy.max, p, most,
          used);
  fflush(g_cyc);
  fprintf(stderr, "      %-26s %-40s %9.2f cyc/trip (min %.0f max %.0f) most %d used %d\n",
          r.name.c_str(), r.params.c_str(), p, cy.min / trips, cy.max / trips, most, used);
}

// fp: 0 l1, 1 l2, 2 smem (the kernel's SRC must be 1)
static void run_aq(Ctx &c, const AqK &k, int fp, int W, int B) {
  Bench &b = *c.b;
  const int bt = 32 * W / B;
  const unsigned rowb = 4u * k.d, stride = 1;
  unsigned mask, warm;
  if (fp == 0) {
    mask = 16384 / rowb - 1;
    warm = mask + 1;
  } else if (fp == 1) {
    mask = (unsigned)(kFloats / k.d - 1);
    warm = 0;
  } else {
    mask = kSmemRows - 1;
    warm = kSmemRows;
  }
  const bool upd = k.body != B_DOT;
  const size_t dyn = fp == 2 ? (upd ? 2 : 1) * kSmemRows * rowb : 0;
  Row r;
  r.family = "attnq";
  r.name = std::string("aq_d") + std::to_string(k.d) + "_f" + std::to_string(k.vec) + "_a" +
           std::to_string(k.nacc) + "_" + kBodyName[k.body];
  r.params = "warps=" + std::to_string(W) + " bpsm=" + std::to_string(B) +
             (fp == 0 ? " fp=l1" : fp == 1 ? " fp=l2" : " fp=smem") +
             " trips=" + std::to_string(kTrips);
  const dim3 grid(c.sms * B), block(bt);
  if (fp != 2) CK(cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  r.grid_x = grid.x;
  r.block_x = bt;
  r.dyn_smem = (long long)dyn;
  cudaFuncAttributes a;
  CK(cudaFuncGetAttributes(&a, k.fn));
  r.regs = a.numRegs;
  r.static_smem = (long long)a.sharedSizeBytes;
  int nb = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k.fn, bt, dyn));
  r.blocks_per_sm = nb;
  REQUIRE(nb >= B, "%s: %d blocks of %d threads do not fit (%d)", r.name.c_str(), B, bt, nb);
  const float *kp = c.K, *vp = c.V;
  int wi = (int)warm, ti = kTrips;
  float *op = c.out;
  long long *cp = c.cyc;
  int *sp = c.smid;
  unsigned st = stride, mk = mask;
  void *args[9] = {(void *)&kp, (void *)&vp, (void *)&st, (void *)&mk, (void *)&wi,
                   (void *)&ti, (void *)&op, (void *)&cp, (void *)&sp};
  r.t = time_case(b, kReps, false, [&] {
    CK(cudaLaunchKernel(k.fn, grid, block, args, dyn, b.stream));
  });
  r.bytes = 0;
  const unsigned long long per = 2ull * k.d + (k.body == B_DOT ? 0 : k.body == B_SOFT ? 3ull * k.d : 2ull * k.d);
  r.flops = (unsigned long long)grid.x * bt * kTrips * per;
  emit(b, r);
  emit_side(r, grid.x, kTrips, block_cycles(c.cyc, grid.x), c.smid);
  std::vector<float> h = to_host(c.out, (size_t)grid.x * bt);
  float want[4], mag[4];
  for (unsigned t = 0; t < 4; ++t) want[t] = k.want(t, stride, mask, (int)warm + kTrips, &mag[t]);
  for (size_t t = 0; t < h.size(); ++t) {
    const unsigned tid = (unsigned)(t % bt) % 4;
    REQUIRE(std::fabs(h[t] - want[tid]) <= 1e-3f * mag[tid] + 1e-3f,
            "%s %s: out[%zu] = %.9g, want %.9g", r.name.c_str(), r.params.c_str(), t, h[t],
            want[tid]);
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
  CK(cudaMalloc(&c.K, kFloats * sizeof(float)));
  CK(cudaMalloc(&c.V, kFloats * sizeof(float)));
  fill_pattern(c.K, kFloats, 7, 0.25f);  // K[i] = V[i] = (i % 7) * 0.25 = aq_x(i)
  fill_pattern(c.V, kFloats, 7, 0.25f);
  CK(cudaMalloc(&c.out, (size_t)c.sms * 256 * sizeof(float)));
  CK(cudaMalloc(&c.cyc, (size_t)c.sms * 8 * sizeof(long long)));
  CK(cudaMalloc(&c.smid, (size_t)c.sms * 8 * sizeof(int)));

  // global sources: d x vec x {dot, soft}, one accumulator
  c.ks.push_back(mk<16, 1, 1, B_DOT, 0>());
  c.ks.push_back(mk<16, 1, 1, B_SOFT, 0>());
  c.ks.push_back(mk<16, 4, 1, B_DOT, 0>());
  c.ks.push_back(mk<16, 4, 1, B_SOFT, 0>());
  c.ks.push_back(mk<32, 1, 1, B_DOT, 0>());
  c.ks.push_back(mk<32, 1, 1, B_SOFT, 0>());
  c.ks.push_back(mk<32, 4, 1, B_DOT, 0>());
  c.ks.push_back(mk<32, 4, 1, B_SOFT, 0>());
  c.ks.push_back(mk<64, 1, 1, B_DOT, 0>());
  c.ks.push_back(mk<64, 1, 1, B_SOFT, 0>());
  c.ks.push_back(mk<64, 4, 1, B_DOT, 0>());
  c.ks.push_back(mk<64, 4, 1, B_SOFT, 0>());
  // 2 and 4 accumulators
  c.ks.push_back(mk<64, 1, 2, B_DOT, 0>());
  c.ks.push_back(mk<64, 1, 4, B_DOT, 0>());
  c.ks.push_back(mk<64, 4, 2, B_DOT, 0>());
  c.ks.push_back(mk<64, 4, 4, B_DOT, 0>());
  c.ks.push_back(mk<64, 4, 2, B_SOFT, 0>());
  c.ks.push_back(mk<64, 4, 4, B_SOFT, 0>());
  // the other bodies
  c.ks.push_back(mk<32, 4, 1, B_DOTV, 0>());
  c.ks.push_back(mk<32, 4, 1, B_EXP1, 0>());
  c.ks.push_back(mk<64, 4, 1, B_DOTV, 0>());
  c.ks.push_back(mk<64, 4, 1, B_EXP1, 0>());
  // shared memory
  c.ks.push_back(mk<32, 4, 1, B_DOT, 1>());
  c.ks.push_back(mk<32, 4, 1, B_SOFT, 1>());
  c.ks.push_back(mk<64, 4, 1, B_DOT, 1>());
  c.ks.push_back(mk<64, 4, 1, B_SOFT, 1>());
  c.ks.push_back(mk<64, 1, 1, B_DOT, 1>());
  c.ks.push_back(mk<64, 1, 1, B_SOFT, 1>());
  for (const AqK &k : c.ks)
    if (k.src == 1)
      CK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));

  // (a) d x vec x {dot, soft} x {l1, l2} x 1, 2, 4, 8 warps per SM (one block)
  for (int d : {64, 32, 16})
    for (int vec : {4, 1})
      for (int body : {B_SOFT, B_DOT})
        for (int fp : {0, 1})
          for (int W : {1, 2, 4, 8}) run_aq(c, find(c, d, vec, 1, body, 0), fp, W, 1);
  // (b) 2 and 4 accumulators, L1
  for (int vec : {4, 1})
    for (int nacc : {2, 4})
      for (int W : {1, 4}) run_aq(c, find(c, 64, vec, nacc, B_DOT, 0), 0, W, 1);
  for (int nacc : {2, 4})
    for (int W : {1, 4}) run_aq(c, find(c, 64, 4, nacc, B_SOFT, 0), 0, W, 1);
  // (c) dotv, exp1, L1
  for (int d : {64, 32})
    for (int body : {B_DOTV, B_EXP1})
      for (int W : {1, 2, 4, 8}) run_aq(c, find(c, d, 4, 1, body, 0), 0, W, 1);
  // (d) shared memory
  for (int d : {64, 32})
    for (int body : {B_SOFT, B_DOT})
      for (int W : {1, 2, 4, 8}) run_aq(c, find(c, d, 4, 1, body, 1), 2, W, 1);
  for (int body : {B_SOFT, B_DOT})
    for (int W : {1, 4}) run_aq(c, find(c, 64, 1, 1, body, 1), 2, W, 1);
  // (e) several blocks of 2 warps per SM
  for (int fp : {0, 2}) {
    const AqK &k = find(c, 64, 4, 1, B_SOFT, fp == 2 ? 1 : 0);
    run_aq(c, k, fp, 4, 2);
    run_aq(c, k, fp, 8, 4);
  }

  CK(cudaFree(c.K));
  CK(cudaFree(c.V));
  CK(cudaFree(c.out));
  CK(cudaFree(c.cyc));
  CK(cudaFree(c.smid));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
