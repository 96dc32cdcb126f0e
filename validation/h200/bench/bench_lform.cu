// bench_lform.cu - what an L1-hit load costs an SM by the form of its address arithmetic,
// the kind of load and the arithmetic on its value (family `lform`). bench_addr
// (run14/addr) measured a 64-bit pointer add and an IMAD.WIDE a load with weak loads and
// one FADD each; the calibration rows disagree on what a load stepping by a constant
// costs: the naive SGEMM's B (a 64-bit add a step, LDG.E.CONSTANT) about 1.4 SM cycles a
// line, bench_reuse's own rows (an IMAD.WIDE.U32 a step, LDG.E.STRONG.SM, an FADD and
// an FFMA) about 2.2. This varies one thing at a time.
//
// k_lf<FORM, KIND, ARITH>: each trip of a `#pragma unroll 1` loop issues NLD = 8
// coalesced 4-byte loads, load u reading line u + 1 of the warp's own row of 9 lines
// (lane l word l; 64 rows, 72 KiB, carve-out 0: every timed load hits L1), their values
// summed into 4 accumulators (at most 32 registers: 64 warps fit an SM). The pointer
// starts at the row each trip and steps one line a load by
//   imm    no arithmetic: the loads at immediate offsets from the row's pointer
//   add64  add.s64 of a 64-bit step (128 bytes, a run-time value)
//   madwu  mad.wide.u32 of an unsigned step (32 floats) times 4 (`q += pitch`, pitch
//          unsigned: bench_reuse's k_own)
//   madws  mad.wide.s32 of a signed step
//   lea    an int index stepped by an add, its address base + (s64)idx * 4 (cvt, shl, add)
//   madi   the same index, its address mad.wide.s32 idx, 4, base (weak loads only; from
//          run39 on)
// with loads of KIND
//   weak   ld.global.f32      (LDG.E)
//   nc     ld.global.nc.f32   (LDG.E.CONSTANT: const __restrict__)
//   ca     ld.global.ca.f32   (bench_reuse's loads)
// each value used by ARITH
//   sum    acc[u % NACC] += v                                  (FADD)
//   sq     d = v - c; acc[u % NACC] = fmaf(d, d, acc[u % NACC])    (FADD, FFMA: k_own's)
//   pair   a = the row's word u (warp-uniform, an immediate offset from the row's
//          pointer), acc[u % NACC] = fmaf(a, v, acc[u % NACC])   (the naive SGEMM's k step)
//   none   no load: the address chain alone, its last pointer folded into an integer
//          (the arithmetic's own rate)
// The address instructions are inline PTX (not volatile: their results feed the loads),
// the loads volatile asm; the row's pointer steps by `zero` (0 at run time) each trip so
// that nothing is hoisted out of the loop. `none` folds the last pointer of the chain
// (lea, madi: every address, a LOP3 each, since each is computed from the index alone).
// Blocks of 256 threads, 16, 32, 64 warps per SM (2, 4, 8 blocks per SM, grid SMs x
// blocks; __launch_bounds__(256, 8): at most 32 registers), 1024 trips. Every output of 1024 threads spread
// over the grid is checked against a host recomputation (exact: the values are
// multiples of 1/16). lform_cycles.csv: the clock64 cycles of each block's loop (thread
// 0), median, min, max over blocks, per request of the SM.
//
// usage: bench_lform OUT.csv CYCLES.csv [device]
//        LFORM_PROFILE=1 bench_lform OUT.csv CYCLES.csv [device]: one launch of every
//        variant at 64 warps per SM, untimed (for ncu)
#include "common.cuh"
#include <utility>

static const int NLD = 8;
static const int NACC = 4;
static const int kRowFloats = (NLD + 1) * 32;  // a warp's row: 9 lines

enum Form { IMM, ADD64, MADWU, MADWS, LEA, MADI };
enum Kind { WEAK, NC, CA };
enum Arith { SUM, SQ, PAIR, NONE };

template <int KIND>
__device__ __forceinline__ float ldk(const float *p) {
  float v;
  if (KIND == WEAK)
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  else if (KIND == NC)
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
  else
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

template <int KIND, int OFF>
__device__ __forceinline__ float ldk_imm(const float *p) {
  float v;
  if (KIND == WEAK)
    asm volatile("ld.global.f32 %0, [%1+%2];" : "=f"(v) : "l"(p), "n"(OFF * 4));
  else if (KIND == NC)
    asm volatile("ld.global.nc.f32 %0, [%1+%2];" : "=f"(v) : "l"(p), "n"(OFF * 4));
  else
    asm volatile("ld.global.ca.f32 %0, [%1+%2];" : "=f"(v) : "l"(p), "n"(OFF * 4));
  return v;
}

__device__ __forceinline__ const float *op_add64(const float *p, long long step) {
  const float *r;
  asm("add.s64 %0, %1, %2;" : "=l"(r) : "l"(p), "l"(step));
  return r;
}
__device__ __forceinline__ const float *op_madwu(const float *p, unsigned s) {
  const float *r;
  asm("mad.wide.u32 %0, %1, 4, %2;" : "=l"(r) : "r"(s), "l"(p));
  return r;
}
__device__ __forceinline__ const float *op_madws(const float *p, int s) {
  const float *r;
  asm("mad.wide.s32 %0, %1, 4, %2;" : "=l"(r) : "r"(s), "l"(p));
  return r;
}
__device__ __forceinline__ const float *op_lea(const float *base, int idx) {
  const float *r;
  asm("{\n\t.reg .s64 t;\n\tcvt.s64.s32 t, %1;\n\tshl.b64 t, t, 2;\n\tadd.s64 %0, %2, t;\n\t}"
      : "=l"(r)
      : "r"(idx), "l"(base));
  return r;
}

// The next pointer of the chain (load u + 1 of the trip: line u + 1 of the row).
template <int FORM>
__device__ __forceinline__ const float *step_ptr(const float *p, const float *x, int &idx,
                                                 long long step, unsigned su, int ss) {
  if (FORM == ADD64) return op_add64(p, step);
  if (FORM == MADWU) return op_madwu(p, su);
  if (FORM == MADWS) return op_madws(p, ss);
  idx += ss;
  if (FORM == MADI) return op_madws(x, idx);  // base + (s64)idx * 4 in one multiply-add
  return op_lea(x, idx);
}

template <int FORM, int KIND, int ARITH, size_t... U>
__device__ __forceinline__ void trip(const float *x, const float *q, int idx0, long long step,
                                     unsigned su, int ss, float c, float *acc, unsigned &iacc,
                                     std::index_sequence<U...>) {
  float v[NLD];
  if (FORM == IMM) {
    if (ARITH != NONE) ((v[U] = ldk_imm<KIND, ((int)U + 1) * 32>(q)), ...);
  } else {
    const float *p = q;
    int idx = idx0;
    if (ARITH == NONE && (FORM == LEA || FORM == MADI)) {
      // each address is its own (the index steps): fold every one, or only the last is kept
      ((p = step_ptr<FORM>(p, x, idx, step, su, ss),
        iacc ^= (unsigned)(unsigned long long)p, (void)U),
       ...);
    } else if (ARITH == NONE) {
      ((p = step_ptr<FORM>(p, x, idx, step, su, ss), (void)U), ...);
      unsigned long long a = (unsigned long long)p;
      iacc ^= (unsigned)a ^ (unsigned)(a >> 32);
    } else {
      ((p = step_ptr<FORM>(p, x, idx, step, su, ss), v[U] = ldk<KIND>(p)), ...);
    }
  }
  if (ARITH == SUM) {
#pragma unroll
    for (int u = 0; u < NLD; ++u) acc[u % NACC] += v[u];
  } else if (ARITH == SQ) {
#pragma unroll
    for (int u = 0; u < NLD; ++u) {
      float d = v[u] - c;
      acc[u % NACC] = fmaf(d, d, acc[u % NACC]);
    }
  } else if (ARITH == PAIR) {
    const float *qa = q - (threadIdx.x & 31);  // the row's line 0: one word for the warp
    float a[NLD];
    ((a[U] = ldk_imm<KIND, (int)U>(qa)), ...);
#pragma unroll
    for (int u = 0; u < NLD; ++u) acc[u % NACC] = fmaf(a[u], v[u], acc[u % NACC]);
  }
}

template <int FORM, int KIND, int ARITH>
__global__ void __launch_bounds__(256, 8) k_lf(const float *x, int trips, long long step,
                                           unsigned su, int ss, int zero, float c, float *out,
                                           long long *cyc, int *smid) {
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  int idx0 = (int)(g % 64) * kRowFloats + lane;
  const float *q = x + idx0;
  float acc[NACC];
  unsigned iacc = 0u;
#pragma unroll
  for (int u = 0; u < NACC; ++u) acc[u] = 0.f;
  long long t0 = clock64();
#pragma unroll 1
  for (int j = 0; j < trips; ++j) {
    trip<FORM, KIND, ARITH>(x, q, idx0, step, su, ss, c, acc, iacc,
                            std::make_index_sequence<NLD>{});
    q += zero;  // 0 at run time: keeps the trip's loads and addresses in the loop
    idx0 += zero;
  }
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int u = 0; u < NACC; ++u) s += acc[u];
  out[blockIdx.x * (long long)blockDim.x + tid] = ARITH == NONE ? s + (float)(iacc & 1u) : s;
  if (tid == 0) {
    cyc[blockIdx.x] = t1 - t0;
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[blockIdx.x] = (int)id;
  }
}

typedef void (*kern_t)(const float *, int, long long, unsigned, int, int, float, float *,
                       long long *, int *);

struct Var {
  const char *form, *kind, *arith;
  int f, a;
  kern_t k;
};

#define KV(F, K, A, FN, KN, AN) {FN, KN, AN, F, A, k_lf<F, K, A>}
#define KINDS3(F, A, FN, AN) \
  KV(F, WEAK, A, FN, "weak", AN), KV(F, NC, A, FN, "nc", AN), KV(F, CA, A, FN, "ca", AN)
#define ARITH2(F, FN) KINDS3(F, SUM, FN, "sum"), KINDS3(F, SQ, FN, "sq")
static const Var kVars[] = {
    ARITH2(IMM, "imm"), ARITH2(ADD64, "add64"), ARITH2(MADWU, "madwu"), ARITH2(MADWS, "madws"),
    ARITH2(LEA, "lea"),
    KV(IMM, WEAK, PAIR, "imm", "weak", "pair"), KV(IMM, NC, PAIR, "imm", "nc", "pair"),
    KV(ADD64, WEAK, PAIR, "add64", "weak", "pair"), KV(ADD64, NC, PAIR, "add64", "nc", "pair"),
    KV(MADWU, WEAK, PAIR, "madwu", "weak", "pair"), KV(MADWU, NC, PAIR, "madwu", "nc", "pair"),
    KV(ADD64, WEAK, NONE, "add64", "none", "none"), KV(MADWU, WEAK, NONE, "madwu", "none", "none"),
    KV(MADWS, WEAK, NONE, "madws", "none", "none"), KV(LEA, WEAK, NONE, "lea", "none", "none"),
    KV(MADI, WEAK, SUM, "madi", "weak", "sum"), KV(MADI, WEAK, SQ, "madi", "weak", "sq"),
    KV(MADI, WEAK, PAIR, "madi", "weak", "pair"), KV(MADI, WEAK, NONE, "madi", "none", "none"),
};
#undef ARITH2
#undef KINDS3
#undef KV

static inline float xval(long long i) { return float(i % 4) * 0.5f; }

// Host recomputation of thread t's output (every partial sum is exact).
static float want_of(const Var &v, int trips, float c, long long t) {
  const long long g = t >> 5;
  const int lane = (int)(t & 31);
  const long long row = (g % 64) * kRowFloats;
  float acc[NACC] = {0, 0, 0, 0};
  if (v.a != NONE)
    for (int j = 0; j < trips; ++j)
      for (int u = 0; u < NLD; ++u) {
        const float val = xval(row + lane + (u + 1) * 32);
        if (v.a == SUM) {
          acc[u % NACC] += val;
        } else if (v.a == SQ) {
          const float d = val - c;
          acc[u % NACC] = fmaf(d, d, acc[u % NACC]);
        } else {
          acc[u % NACC] = fmaf(xval(row + u), val, acc[u % NACC]);
        }
      }
  float s = 0.f;
  for (int u = 0; u < NACC; ++u) s += acc[u];
  return s;  // NONE: the folds of an even number of trips cancel
}

static FILE *g_cyc = nullptr;
static const int kReps = 9;
static const int kTrips = 1024;  // even: the address folds cancel (want_of)

int main(int argc, char **argv) {
  Bench b;
  g_cyc = bench_open_side(
      b, argc, argv, "CYCLES.csv",
      "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
      "cycles_per_request,sm_cycles_per_load,max_blocks_per_sm,sms_used\n");
  const int sms = b.sm_count;
  const int maxBlocks = sms * 8;
  const double clock_mhz = dev_attr(cudaDevAttrClockRate, 0) / 1000.0;
  long long *cyc;
  int *smid;
  CK(cudaMalloc(&cyc, maxBlocks * sizeof(long long)));
  CK(cudaMalloc(&smid, maxBlocks * sizeof(int)));
  const size_t xn = size_t(64) * kRowFloats;  // 64 rows of 9 lines: 72 KiB
  float *x, *out;
  CK(cudaMalloc(&x, xn * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)maxBlocks * 256 * sizeof(float)));
  fill_pattern(x, xn, 4, 0.5f);
  const float c = 0.25f;
  int warps_l[3] = {16, 32, 64};
  if (getenv("LFORM_PROFILE")) {
    for (const Var &v : kVars) {
      CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout,
                              0));
      v.k<<<sms * 8, 256, 0, b.stream>>>(x, kTrips, 128LL, 32u, 32, 0, c, out, cyc, smid);
      CK_LAUNCH();
      CK(cudaStreamSynchronize(b.stream));
    }
    warps_l[0] = 0;  // nothing timed
  }
  for (const Var &v : kVars) {
    CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    for (int W : warps_l) {
      if (warps_l[0] == 0) break;
      const int bt = 256, nb = W / 8, grid = sms * nb;
      Row r;
      r.family = "lform";
      r.name = std::string(v.form) + "_" + v.kind + "_" + v.arith;
      r.params = std::string("form=") + v.form + " kind=" + v.kind + " arith=" + v.arith +
                 " warps=" + std::to_string(W) + " trips=" + std::to_string(kTrips);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false, [&] {
        v.k<<<grid, bt, 0, b.stream>>>(x, kTrips, 128LL, 32u, 32, 0, c, out, cyc, smid);
      });
      const long long loads = (long long)kTrips * NLD;
      const int per = v.a == PAIR ? 2 : (v.a == NONE ? 0 : 1);
      r.bytes = (unsigned long long)grid * bt * loads * 4 * per;
      r.flops = (unsigned long long)grid * bt * loads * (v.a == SQ ? 3 : (v.a == NONE ? 0 : 2));
      emit(b, r);
      Cycles cy = block_cycles(cyc, grid);
      const SmSpread sp = sm_spread(smid, grid);
      const double reqs = (double)W * loads;  // the SM's warp requests (or address chains' steps)
      const double sm_per = r.t.median_us * clock_mhz / reqs;
      fprintf(g_cyc, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.3f,%.3f,%d,%d\n", r.family.c_str(),
              r.name.c_str(), r.params.c_str(), grid, kTrips, cy.median, cy.min, cy.max,
              cy.median / reqs, sm_per, sp.most, sp.used);
      fflush(g_cyc);
      fprintf(stderr, "      %-18s W=%2d %7.3f SM cycles a load (event time)\n", r.name.c_str(), W,
              sm_per);
      const std::string what = r.name + " W=" + std::to_string(W);
      check_spread(what.c_str(), out, (size_t)grid * bt,
                   [&](size_t i) { return want_of(v, kTrips, c, (long long)i); });
    }
  }
  CK(cudaFree(x));
  CK(cudaFree(out));
  CK(cudaFree(cyc));
  CK(cudaFree(smid));
  fclose(g_cyc);
  bench_close(b);
  return 0;
}
