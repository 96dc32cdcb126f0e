// bench_smem.cu - shared-memory-fed arithmetic (family `smem`): per-SM loops whose
// data stay in shared memory (nothing from global memory inside the timed loop).
//   lds      LDS throughput by width (32/64/128 bits per lane), conflict-free,
//            broadcast, 2- and 4-way conflicts, 4..64 warps per SM; 8 independent
//            volatile loads per trip, their words summed (IADD3)
//   ldsfma   one 32-bit conflict-free LDS per loaded word feeding F FMAs
//            (F = 1..32), ILP 1 (one load, one accumulator) or 4 (4 loads, 4
//            accumulators per trip), 8 or 32 warps per SM
//   outer    register-blocked outer product of a 16x16-thread block: per k step
//            a thread loads TM values of A (float4, 2 addresses per warp) and TN
//            of B (float4) and does TM*TN FMAs; KT = 8 k steps per tile; 0, 1 or
//            2 __syncthreads per tile; 1 or 2 blocks (8 or 16 warps) per SM
//   wmma     m16n16k16 fp16 in, fp32 accumulate: mma_sync on fragments held in
//            registers, or load_matrix_sync of A and B from shared memory before
//            every mma_sync; 1 accumulator (1 A, 1 B) or a 2x2 warp tile (2 A, 2
//            B, 4 mma per step); leading dimension 16 or 24 halfs; 4/8/16 warps
// Each case runs a single wave: grid = SMs x blocks per SM, pinned with dynamic
// shared memory. Besides the usual CSV (smem.csv), thread 0 of every block reads
// clock64() around the timed loop (after a barrier, up to a barrier); smem_cycles.csv
// gives the median over blocks, per trip, and the per-SM rates.
//
// usage: bench_smem OUT.csv CYCLES.csv [device]
#include "common.cuh"

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

// ---------------------------------------------------------------- helpers
__device__ __forceinline__ unsigned smem_addr(const void *p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

// Volatile LDS of V 32-bit words (V = 1, 2, 4) at shared byte address a: the
// loads are re-issued every trip even though the address does not change.
template <int V>
__device__ __forceinline__ void lds(unsigned a, unsigned *w);
template <>
__device__ __forceinline__ void lds<1>(unsigned a, unsigned *w) {
  asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(w[0]) : "r"(a));
}
template <>
__device__ __forceinline__ void lds<2>(unsigned a, unsigned *w) {
  asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(w[0]), "=r"(w[1]) : "r"(a));
}
template <>
__device__ __forceinline__ void lds<4>(unsigned a, unsigned *w) {
  asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
               : "r"(a));
}

// Thread 0 of the block records the cycles of the timed loop.
#define CLOCK_START()  \
  __syncthreads();     \
  long long t0_ = clock64();
#define CLOCK_STOP(cyc)                                          \
  __syncthreads();                                               \
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0_;

// ---------------------------------------------------------------- (a) lds
static const int kLdsWords = 4096;  // 16 KiB: 8 loads x 32 lanes x 4 words x stride 4
static const int kLdsLoads = 8;     // independent loads per trip

__host__ __device__ inline unsigned lds_value(unsigned i) { return i * 0x9E3779B1u; }

// Lane l reads V words at word (l * D) * V + j * 32 * D * V (load j), or, with
// bcast, at word j * V (all lanes one address). D = elements between lanes.
__host__ __device__ inline unsigned lds_word(int V, int D, int bcast, int lane, int j) {
  return bcast ? j * V : (lane * D) * V + j * 32 * D * V;
}

template <int V>
__global__ void __launch_bounds__(1024, 2)
    k_lds(unsigned *out, int iters, int D, int bcast, long long *cyc) {
  extern __shared__ unsigned s_lds[];
  for (int i = threadIdx.x; i < kLdsWords; i += blockDim.x) s_lds[i] = lds_value(i);
  int lane = threadIdx.x & 31;
  unsigned base = smem_addr(s_lds) + 4 * lds_word(V, D, bcast, lane, 0);
  unsigned step = 4 * (lds_word(V, D, bcast, lane, 1) - lds_word(V, D, bcast, lane, 0));
  unsigned acc = 0;
  CLOCK_START();
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int j = 0; j < kLdsLoads; ++j) {
      unsigned w[V];
      lds<V>(base + j * step, w);
#pragma unroll
      for (int c = 0; c < V; ++c) acc += w[c];
    }
  }
  CLOCK_STOP(cyc);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// ---------------------------------------------------------------- (b) ldsfma
static const int kFmaWords = 4096;  // 128 rows of 32 floats
#define WF(f) (1.0f + (f) / 64.0f)  // weight of FMA f (an FFMA immediate), exact in fp32

__host__ __device__ inline float fma_value(unsigned i) { return float(i % 8); }

// Trip k: ILP conflict-free loads (row (k * ILP + j) mod 128, lane's column), then
// F FMAs per loaded word, acc[j] = fmaf(v_j, WF(f), acc[j]).
template <int F, int ILP>
__global__ void __launch_bounds__(1024, 1) k_ldsfma(float *out, int iters, long long *cyc) {
  extern __shared__ float s_fma[];
  for (int i = threadIdx.x; i < kFmaWords; i += blockDim.x) s_fma[i] = fma_value(i);
  int lane = threadIdx.x & 31;
  unsigned base = smem_addr(s_fma) + 4 * lane;
  unsigned p = 0;  // byte offset of the trip's first row
  float acc[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) acc[j] = 0.f;
  CLOCK_START();
  for (int k = 0; k < iters; ++k) {
    float v[ILP];
#pragma unroll
    for (int j = 0; j < ILP; ++j) {
      unsigned w;
      lds<1>(base + p + j * 128, &w);
      v[j] = __uint_as_float(w);
    }
#pragma unroll
    for (int f = 0; f < F; ++f)
#pragma unroll
      for (int j = 0; j < ILP; ++j) acc[j] = fmaf(v[j], WF(f), acc[j]);
    p = (p + ILP * 128) & (4 * kFmaWords - 1);
  }
  CLOCK_STOP(cyc);
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += acc[j];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// Host mirror of k_ldsfma for one lane (every warp computes the same).
static float ldsfma_want(int F, int ILP, int iters, int lane) {
  float acc[4] = {0, 0, 0, 0};
  unsigned p = 0;
  for (int k = 0; k < iters; ++k) {
    float v[4];
    for (int j = 0; j < ILP; ++j) v[j] = fma_value((p + j * 128) / 4 + lane);
    for (int f = 0; f < F; ++f)
      for (int j = 0; j < ILP; ++j) acc[j] = fmaf(v[j], WF(f), acc[j]);
    p = (p + ILP * 128) & (4 * kFmaWords - 1);
  }
  float s = 0;
  for (int j = 0; j < ILP; ++j) s += acc[j];
  return s;
}

// ---------------------------------------------------------------- (c) outer
static const int kKT = 8;     // k steps per tile
static const int kBufs = 4;   // tile buffers in shared memory (trip t uses t & 3)

__host__ __device__ inline float outer_a(unsigned i) { return float(i % 4); }
__host__ __device__ inline float outer_b(unsigned i) { return float((i / 3) % 4); }

// Thread (tx, ty) = (tid % 16, tid / 16) of a 256-thread block; tile buffer t & tmask:
// As[k][ty * TM + i], Bs[k][tx * TN + j] (rows of 16 TM and 16 TN floats).
template <int TM, int TN, int SYNC>
__global__ void __launch_bounds__(256, 2)
    k_outer(float *out, int tiles, unsigned tmask, long long *cyc) {
  extern __shared__ float4 s_outer4[];
  const int LA = 16 * TM, LB = 16 * TN;
  float *As = (float *)s_outer4, *Bs = As + kBufs * kKT * LA;
  for (int i = threadIdx.x; i < kBufs * kKT * LA; i += blockDim.x) As[i] = outer_a(i);
  for (int i = threadIdx.x; i < kBufs * kKT * LB; i += blockDim.x) Bs[i] = outer_b(i);
  int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  float c[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) c[i][j] = 0.f;
  CLOCK_START();
  for (int t = 0; t < tiles; ++t) {
    if (SYNC >= 1) __syncthreads();
    const float *a = As + (t & tmask) * kKT * LA + ty * TM;
    const float *b = Bs + (t & tmask) * kKT * LB + tx * TN;
#pragma unroll
    for (int k = 0; k < kKT; ++k) {
      float ra[TM], rb[TN];
#pragma unroll
      for (int i = 0; i < TM / 4; ++i)
        *(float4 *)&ra[4 * i] = *(const float4 *)&a[k * LA + 4 * i];
#pragma unroll
      for (int j = 0; j < TN / 4; ++j)
        *(float4 *)&rb[4 * j] = *(const float4 *)&b[k * LB + 4 * j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) c[i][j] = fmaf(ra[i], rb[j], c[i][j]);
    }
    if (SYNC >= 2) __syncthreads();
  }
  CLOCK_STOP(cyc);
  float *o = out + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * TM * TN;
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) o[i * TN + j] = c[i][j];
}

// ---------------------------------------------------------------- (d) wmma
static const int kTiles = 8;  // 16x16 tiles of A and of B in shared memory

__host__ __device__ inline float wmma_a(unsigned i) { return float((i * 7) % 4); }
__host__ __device__ inline float wmma_b(unsigned i) { return float((i * 5 + 1) % 4); }

// A tile u: row-major, A(m, k) = sA[u * 16 * LDM + m * LDM + k]; B tile u:
// column-major, B(k, n) = sB[u * 16 * LDM + n * LDM + k]. NA = NB = 1 (ACC 1) or
// 2 (ACC 4). LOAD = 0: fragments a[i] = tile i, b[j] = tile j loaded once before
// the loop; LOAD = 1: a[i] = tile (2s + i) & tmask, b[j] likewise, loaded from
// shared memory at every step s.
template <int LOAD, int ACC, int LDM>
__global__ void __launch_bounds__(512, 1)
    k_wmma(float *out, int steps, unsigned tmask, long long *cyc) {
  const int N = ACC == 4 ? 2 : 1;
  extern __shared__ float4 s_wmma4[];
  half *sA = (half *)s_wmma4, *sB = sA + kTiles * 16 * LDM;
  for (int i = threadIdx.x; i < kTiles * 16 * LDM; i += blockDim.x) {
    sA[i] = __float2half(wmma_a(i));
    sB[i] = __float2half(wmma_b(i));
  }
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[N];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b[N];
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c[ACC];
#pragma unroll
  for (int i = 0; i < ACC; ++i) wmma::fill_fragment(c[i], 0.f);
  if (!LOAD) {
#pragma unroll
    for (int i = 0; i < N; ++i) {
      wmma::load_matrix_sync(a[i], sA + i * 16 * LDM, LDM);
      wmma::load_matrix_sync(b[i], sB + i * 16 * LDM, LDM);
    }
  }
  CLOCK_START();
  for (int s = 0; s < steps; ++s) {
    if (LOAD) {
#pragma unroll
      for (int i = 0; i < N; ++i) {
        wmma::load_matrix_sync(a[i], sA + ((2 * s + i) & tmask) * 16 * LDM, LDM);
        wmma::load_matrix_sync(b[i], sB + ((2 * s + i) & tmask) * 16 * LDM, LDM);
      }
    }
#pragma unroll
    for (int i = 0; i < N; ++i)
#pragma unroll
      for (int j = 0; j < N; ++j) wmma::mma_sync(c[i * N + j], a[i], b[j], c[i * N + j]);
  }
  CLOCK_STOP(cyc);
  int warp = threadIdx.x / 32, wpb = blockDim.x / 32;
#pragma unroll
  for (int i = 0; i < ACC; ++i)
    wmma::store_matrix_sync(out + ((size_t)(blockIdx.x * wpb + warp) * ACC + i) * 256, c[i], 16,
                            wmma::mem_row_major);
}

// Host mirror: C[idx] (16x16, row-major) of one warp.
static void wmma_want(int load, int acc, int ldm, int steps, unsigned tmask,
                      std::vector<float> &want) {
  int n = acc == 4 ? 2 : 1;
  want.assign((size_t)acc * 256, 0.f);
  // count[i][j][ta][tb]: steps whose A fragment i is tile ta and B fragment j tile tb
  std::vector<double> cnt((size_t)n * n * kTiles * kTiles, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (!load) {
        cnt[((i * n + j) * kTiles + i) * kTiles + j] = steps;
        continue;
      }
      for (int s = 0; s < steps; ++s)
        cnt[((i * n + j) * kTiles + ((2 * s + i) & tmask)) * kTiles + ((2 * s + j) & tmask)] += 1;
    }
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int ta = 0; ta < kTiles; ++ta)
        for (int tb = 0; tb < kTiles; ++tb) {
          double w = cnt[((i * n + j) * kTiles + ta) * kTiles + tb];
          if (w == 0) continue;
          for (int m = 0; m < 16; ++m)
            for (int q = 0; q < 16; ++q) {
              double d = 0;
              for (int k = 0; k < 16; ++k)
                d += (double)wmma_a(ta * 16 * ldm + m * ldm + k) *
                     wmma_b(tb * 16 * ldm + q * ldm + k);
              want[(size_t)(i * n + j) * 256 + m * 16 + q] += (float)(w * d);
            }
        }
}

// ---------------------------------------------------------------- driver
// Per-trip counts of one warp's instructions, for the per-SM rates.
struct PerTrip {
  double lds, fma, mma, bar;
};

static FILE *g_cyc = nullptr;

static void emit_cycles(const Row &r, int warps, long long trips, const Cycles &c,
                        const PerTrip &p) {
  double per = c.median / trips;
  double clk_mhz = c.median / r.t.median_us;
  fprintf(g_cyc, "%s,%s,%s,%d,%lld,%.0f,%.0f,%.0f,%.3f,%.1f,%g,%g,%g,%g,%.4f,%.4f,%.4f\n",
          r.family.c_str(), r.name.c_str(), r.params.c_str(), warps, trips, c.median, c.min,
          c.max, per, clk_mhz, p.lds, p.fma, p.mma, p.bar, warps * p.lds / per,
          warps * p.fma / per, warps * p.mma / per);
  fflush(g_cyc);
  fprintf(stderr, "      %-24s warps=%2d  %9.3f cyc/trip  lds/clk %.3f  fma/clk %.3f  mma/clk %.4f\n",
          r.name.c_str(), warps, per, warps * p.lds / per, warps * p.fma / per,
          warps * p.mma / per);
}

static const int kReps = 7;

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,warps_per_sm,trips,cycles_median,cycles_min,cycles_max,"
      "cycles_per_trip,clock_mhz_vs_event,lds_per_trip_warp,fma_per_trip_warp,"
      "mma_per_trip_warp,bar_per_trip_warp,lds_per_clk_sm,fma_per_clk_sm,"
      "mma_per_clk_sm\n");
  const int sms = b.sm_count;
  long long *cyc;
  CK(cudaMalloc(&cyc, 2 * sms * sizeof(long long)));
  const size_t out_floats = (size_t)2 * sms * 256 * 64;  // the largest output (outer 8x8)
  float *out;
  CK(cudaMalloc(&out, out_floats * sizeof(float)));
  size_t pin1 = dyn_smem_for_bpsm(b.prop, 1), pin2 = dyn_smem_for_bpsm(b.prop, 2);

  // (a) LDS throughput
  {
    typedef void (*kern_t)(unsigned *, int, int, int, long long *);
    const kern_t ks[3] = {k_lds<1>, k_lds<2>, k_lds<4>};
    const int vs[3] = {1, 2, 4};
    const char *modes[4] = {"free", "bcast", "conf2", "conf4"};
    const int ds[4] = {1, 1, 2, 4}, bc[4] = {0, 1, 0, 0};
    const int warps_l[5] = {4, 8, 16, 32, 64};
    for (int v = 0; v < 3; ++v) allow_dyn_smem(ks[v], pin1);
    for (int v = 0; v < 3; ++v)
      for (int m = 0; m < 4; ++m)
        for (int wi = 0; wi < 5; ++wi) {
          int W = warps_l[wi], bpsm = W > 32 ? 2 : 1, bt = 32 * W / bpsm, V = vs[v];
          size_t dyn = bpsm == 1 ? pin1 : pin2;
          // expected wavefronts per load: V * D (bcast: 1); ~2^18 per SM in all
          int wav = bc[m] ? 1 : V * ds[m];
          int iters = std::max(64, (1 << 18) / (W * kLdsLoads * wav));
          unsigned grid = sms * bpsm;
          Row r;
          r.family = "smem";
          r.name = "lds" + std::to_string(32 * V) + "_" + modes[m];
          r.params = "warps=" + std::to_string(W) + " iters=" + std::to_string(iters);
          row_shape(r, ks[v], dim3(grid), dim3(bt), dyn);
          REQUIRE(r.blocks_per_sm == bpsm, "%s: %lld blocks per SM, wanted %d", r.name.c_str(),
                  r.blocks_per_sm, bpsm);
          unsigned *o = (unsigned *)out;
          r.t = time_case(b, kReps, false, [&] {
            ks[v]<<<grid, bt, dyn, b.stream>>>(o, iters, ds[m], bc[m], cyc);
          });
          r.bytes = 0;
          r.flops = 0;
          emit(b, r);
          emit_cycles(r, W, iters, block_cycles(cyc, grid), PerTrip{kLdsLoads, 0, 0, 0});
          std::vector<unsigned> h((size_t)grid * bt);
          CK(cudaMemcpy(h.data(), o, h.size() * 4, cudaMemcpyDeviceToHost));
          for (size_t t = 0; t < h.size(); ++t) {
            int lane = (int)(t % bt) & 31;
            unsigned per = 0;
            for (int j = 0; j < kLdsLoads; ++j)
              for (int c = 0; c < V; ++c) per += lds_value(lds_word(V, ds[m], bc[m], lane, j) + c);
            unsigned want = per * (unsigned)iters;
            REQUIRE(h[t] == want, "%s warps=%d: out[%zu] = %u, expected %u", r.name.c_str(), W, t,
                    h[t], want);
          }
        }
  }

  // (b) LDS feeding FMAs
  {
    typedef void (*kern_t)(float *, int, long long *);
    const kern_t ks[2][6] = {
        {k_ldsfma<1, 1>, k_ldsfma<2, 1>, k_ldsfma<4, 1>, k_ldsfma<8, 1>, k_ldsfma<16, 1>,
         k_ldsfma<32, 1>},
        {k_ldsfma<1, 4>, k_ldsfma<2, 4>, k_ldsfma<4, 4>, k_ldsfma<8, 4>, k_ldsfma<16, 4>,
         k_ldsfma<32, 4>}};
    const int fs[6] = {1, 2, 4, 8, 16, 32}, ilps[2] = {1, 4}, warps_l[2] = {8, 32};
    for (int il = 0; il < 2; ++il)
      for (int f = 0; f < 6; ++f) allow_dyn_smem(ks[il][f], pin1);
    for (int il = 0; il < 2; ++il)
      for (int f = 0; f < 6; ++f)
        for (int wi = 0; wi < 2; ++wi) {
          int W = warps_l[wi], F = fs[f], I = ilps[il], bt = 32 * W;
          int iters = std::min(16384, std::max(128, (1 << 20) / (W * F * I)));
          unsigned grid = sms;
          Row r;
          r.family = "smem";
          r.name = "ldsfma_f" + std::to_string(F) + "_ilp" + std::to_string(I);
          r.params = "warps=" + std::to_string(W) + " iters=" + std::to_string(iters);
          row_shape(r, ks[il][f], dim3(grid), dim3(bt), pin1);
          REQUIRE(r.blocks_per_sm == 1, "%s: %lld blocks per SM", r.name.c_str(), r.blocks_per_sm);
          r.t = time_case(b, kReps, false, [&] {
            ks[il][f]<<<grid, bt, pin1, b.stream>>>(out, iters, cyc);
          });
          r.bytes = 0;
          r.flops = 2ull * grid * bt * iters * F * I;
          emit(b, r);
          emit_cycles(r, W, iters, block_cycles(cyc, grid), PerTrip{(double)I, (double)F * I, 0, 0});
          float want[32];
          for (int l = 0; l < 32; ++l) want[l] = ldsfma_want(F, I, iters, l);
          std::vector<float> h = to_host(out, (size_t)grid * bt);
          for (size_t t = 0; t < h.size(); ++t)
            REQUIRE(h[t] == want[t & 31], "%s warps=%d: out[%zu] = %g, expected %g",
                    r.name.c_str(), W, t, h[t], want[t & 31]);
        }
  }

  // (c) register-blocked outer product
  {
    typedef void (*kern_t)(float *, int, unsigned, long long *);
    const kern_t ks[2][3] = {{k_outer<4, 4, 0>, k_outer<4, 4, 1>, k_outer<4, 4, 2>},
                             {k_outer<8, 8, 0>, k_outer<8, 8, 1>, k_outer<8, 8, 2>}};
    const int tms[2] = {4, 8};
    for (int z = 0; z < 2; ++z)
      for (int sy = 0; sy < 3; ++sy) allow_dyn_smem(ks[z][sy], pin1);
    for (int z = 0; z < 2; ++z)
      for (int sy = 0; sy < 3; ++sy)
        for (int bpsm = 1; bpsm <= 2; ++bpsm) {
          int T = tms[z], W = 8 * bpsm;
          int tiles = (1 << 21) / (W * kKT * T * T);
          unsigned grid = sms * bpsm;
          size_t dyn = bpsm == 1 ? pin1 : pin2;
          Row r;
          r.family = "smem";
          r.name = "outer" + std::to_string(T) + "x" + std::to_string(T) + "_sync" +
                   std::to_string(sy);
          r.params = "warps=" + std::to_string(W) + " tiles=" + std::to_string(tiles) + " kt=8";
          row_shape(r, ks[z][sy], dim3(grid), dim3(256), dyn);
          REQUIRE(r.blocks_per_sm == bpsm, "%s: %lld blocks per SM, wanted %d", r.name.c_str(),
                  r.blocks_per_sm, bpsm);
          r.t = time_case(b, kReps, false, [&] {
            ks[z][sy]<<<grid, 256, dyn, b.stream>>>(out, tiles, kBufs - 1, cyc);
          });
          r.bytes = 0;
          r.flops = 2ull * grid * 256 * tiles * kKT * T * T;
          emit(b, r);
          // per tile (the trip): KT * (T/4 + T/4) LDS.128, KT * T * T FFMA, sy barriers
          emit_cycles(r, W, tiles, block_cycles(cyc, grid),
                      PerTrip{(double)kKT * T / 2, (double)kKT * T * T, 0, (double)sy});
          // host: c[i][j] of thread (tx, ty) = sum over buffers of count x sum_k A.B
          int LA = 16 * T, LB = 16 * T;
          std::vector<float> want((size_t)256 * T * T);
          for (int tid = 0; tid < 256; ++tid) {
            int tx = tid % 16, ty = tid / 16;
            for (int i = 0; i < T; ++i)
              for (int j = 0; j < T; ++j) {
                double s = 0;
                for (int u = 0; u < kBufs; ++u) {
                  double cnt = (tiles - u + kBufs - 1) / kBufs, d = 0;
                  for (int k = 0; k < kKT; ++k)
                    d += (double)outer_a(u * kKT * LA + k * LA + ty * T + i) *
                         outer_b(u * kKT * LB + k * LB + tx * T + j);
                  s += cnt * d;
                }
                want[(size_t)tid * T * T + i * T + j] = (float)s;
              }
          }
          std::vector<float> h = to_host(out, (size_t)grid * 256 * T * T);
          for (size_t e = 0; e < h.size(); ++e) {
            float w = want[e % want.size()];
            REQUIRE(h[e] == w, "%s warps=%d: out[%zu] = %g, expected %g", r.name.c_str(), W, e,
                    h[e], w);
          }
        }
  }

  // (d) WMMA
  {
    typedef void (*kern_t)(float *, int, unsigned, long long *);
    struct V {
      kern_t k;
      int load, acc, ldm;
    };
    const V vs[6] = {{k_wmma<0, 1, 16>, 0, 1, 16}, {k_wmma<0, 4, 16>, 0, 4, 16},
                     {k_wmma<1, 1, 16>, 1, 1, 16}, {k_wmma<1, 4, 16>, 1, 4, 16},
                     {k_wmma<1, 1, 24>, 1, 1, 24}, {k_wmma<1, 4, 24>, 1, 4, 24}};
    const int warps_l[3] = {4, 8, 16};
    for (int v = 0; v < 6; ++v) allow_dyn_smem(vs[v].k, pin1);
    for (int v = 0; v < 6; ++v)
      for (int wi = 0; wi < 3; ++wi) {
        int W = warps_l[wi], bt = 32 * W;
        int steps = std::max(2048, (1 << 17) / (W * vs[v].acc));
        unsigned grid = sms, tmask = kTiles - 1;
        Row r;
        r.family = "smem";
        r.name = std::string("wmma_") + (vs[v].load ? "lds" : "mma") + "_acc" +
                 std::to_string(vs[v].acc) + "_ldm" + std::to_string(vs[v].ldm);
        r.params = "warps=" + std::to_string(W) + " steps=" + std::to_string(steps);
        row_shape(r, vs[v].k, dim3(grid), dim3(bt), pin1);
        REQUIRE(r.blocks_per_sm == 1, "%s: %lld blocks per SM", r.name.c_str(), r.blocks_per_sm);
        r.t = time_case(b, kReps, false, [&] {
          vs[v].k<<<grid, bt, pin1, b.stream>>>(out, steps, tmask, cyc);
        });
        r.bytes = 0;
        r.flops = 2ull * 4096 * grid * W * steps * vs[v].acc;
        emit(b, r);
        int nf = vs[v].acc == 4 ? 2 : 1;
        emit_cycles(r, W, steps, block_cycles(cyc, grid),
                    PerTrip{vs[v].load ? 2.0 * nf : 0.0, 0, (double)vs[v].acc, 0});
        std::vector<float> want;
        wmma_want(vs[v].load, vs[v].acc, vs[v].ldm, steps, tmask, want);
        std::vector<float> h = to_host(out, (size_t)grid * W * vs[v].acc * 256);
        for (size_t e = 0; e < h.size(); ++e) {
          float w = want[e % want.size()];
          REQUIRE(h[e] == w, "%s warps=%d: out[%zu] = %g, expected %g", r.name.c_str(), W, e,
                  h[e], w);
        }
      }
  }

  CK(cudaFree(cyc));
  CK(cudaFree(out));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
