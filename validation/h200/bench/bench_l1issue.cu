// bench_l1issue.cu - L1-hit loads against the issue slots beside them (family
// `l1issue`): how an SM's L1 data path (a line a clock) and its schedulers' issue slots
// share the time of a loop that needs both. bench_lform varies the address arithmetic
// and the value's use a form at a time; this keeps the loads as they are and adds issue
// slots one at a time, so the rows go from the L1's line a clock to the schedulers'
// slots through the point where both are needed equally (the naive SGEMM's k step sits
// near it: run21/naive).
//
// k_l1i<FORM, E>: each trip of a `#pragma unroll 1` loop issues NLD = 8 coalesced 4-byte
// loads (ld.global.f32 in volatile asm: LDG.E), load u reading line u + 1 of the warp's
// own row of 9 lines (lane l word l; 64 rows, 72 KiB, carve-out 0: every timed load hits
// L1), and adds each value into E of 8 accumulators (acc[(u + e) % 8] += v, e < E: E
// FADDs a load, none of them a chain of more than E a trip). FORM:
//   imm    the loads at immediate offsets from the row's pointer (E = 1, 2, 3, 4, 5, 6,
//          8, 10, 12)
//   wide   each load's address its own: the row's base plus ((lane + 32 (u + 1)) & mask)
//          words, mask all ones at run time (E = 1, 2, 3, 4, 5, 8). In the SASS (run42)
//          nvcc computes the 8 masked offsets once (LOP3, IMAD.WIDE.U32) and adds each
//          to the base in the loop (IADD3, IADD3.X a load), into one register pair that
//          the load's value then takes: the loads go one at a time
//   pair   imm's loads, each beside a warp-uniform load of word u of the row's line 0 at
//          an immediate offset whose value is added too (the naive SGEMM's broadcast A
//          beside its line of B; E = 1, 2, 3, 4, 6, 8)
// The row's pointer steps by `zero` (0 at run time) each trip so that nothing is hoisted
// out of the loop. Blocks of 256
// threads, 16, 32, 64 warps per SM (2, 4, 8 blocks per SM, grid SMs x blocks;
// __launch_bounds__(256, 8): at most 32 registers), 1024 trips. Every output of 1024
// threads spread over the grid is checked against a host recomputation (exact: the values
// are multiples of 1/2 and the sums stay below 2^24). l1issue_cycles.csv: the clock64
// cycles of each block's loop (thread 0), median, min, max over blocks, and SM cycles a
// load from the event time.
//
// usage: bench_l1issue OUT.csv CYCLES.csv [device]
//        L1ISSUE_PROFILE=1 bench_l1issue OUT.csv CYCLES.csv [device]: one launch of every
//        variant at 64 warps per SM, untimed (for ncu)
#include "common.cuh"
#include <utility>

static const int NLD = 8;
static const int NACC = 8;
static const int kRowFloats = (NLD + 1) * 32;  // a warp's row: 9 lines

template <int OFF>
__device__ __forceinline__ float ld_imm(const float *p) {
  float v;
  asm volatile("ld.global.f32 %0, [%1+%2];" : "=f"(v) : "l"(p), "n"(OFF * 4));
  return v;
}

enum Form { IMM, WIDE, PAIR };

__device__ __forceinline__ float ld_at(const float *p) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

template <int FORM, int E, size_t... U>
__device__ __forceinline__ void trip(const float *q, const float *rowp, int lane, int mask,
                                     float *acc, std::index_sequence<U...>) {
  float v[NLD];
  if (FORM == WIDE)
    ((v[U] = ld_at(rowp + ((lane + ((int)U + 1) * 32) & mask))), ...);
  else
    ((v[U] = ld_imm<((int)U + 1) * 32>(q)), ...);
  if (FORM == PAIR) {
    const float *qa = q - lane;  // the row's line 0: one word for the warp
    float a[NLD];
    ((a[U] = ld_imm<(int)U>(qa)), ...);
#pragma unroll
    for (int u = 0; u < NLD; ++u) v[u] += a[u];
  }
#pragma unroll
  for (int u = 0; u < NLD; ++u)
#pragma unroll
    for (int e = 0; e < E; ++e) acc[(u + e) % NACC] += v[u];
}

template <int FORM, int E>
__global__ void __launch_bounds__(256, 8) k_l1i(const float *x, int trips, int zero, int mask,
                                                float *out, long long *cyc, int *smid) {
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const float *rowp = x + (int)(g % 64) * kRowFloats;
  const float *q = rowp + lane;
  float acc[NACC];
#pragma unroll
  for (int u = 0; u < NACC; ++u) acc[u] = 0.f;
  long long t0 = clock64();
#pragma unroll 1
  for (int j = 0; j < trips; ++j) {
    trip<FORM, E>(q, rowp, lane, mask, acc, std::make_index_sequence<NLD>{});
    q += zero;  // 0 at run time: keeps the trip's loads in the loop
    rowp += zero;
  }
  long long t1 = clock64();
  float s = 0.f;
#pragma unroll
  for (int u = 0; u < NACC; ++u) s += acc[u];
  out[blockIdx.x * (long long)blockDim.x + tid] = s;
  stamp_block(cyc, smid, t0, t1);
}

typedef void (*kern_t)(const float *, int, int, int, float *, long long *, int *);

struct Var {
  const char *form;
  int f, e;
  kern_t k;
};

#define KV(F, FN, E) {FN, F, E, k_l1i<F, E>}
static const Var kVars[] = {
    KV(IMM, "imm", 1),   KV(IMM, "imm", 2),   KV(IMM, "imm", 3),   KV(IMM, "imm", 4),
    KV(IMM, "imm", 5),   KV(IMM, "imm", 6),   KV(IMM, "imm", 8),   KV(IMM, "imm", 10),
    KV(IMM, "imm", 12),  KV(WIDE, "wide", 1), KV(WIDE, "wide", 2), KV(WIDE, "wide", 3),
    KV(WIDE, "wide", 4), KV(WIDE, "wide", 5), KV(WIDE, "wide", 8), KV(PAIR, "pair", 1),
    KV(PAIR, "pair", 2), KV(PAIR, "pair", 3), KV(PAIR, "pair", 4), KV(PAIR, "pair", 6),
    KV(PAIR, "pair", 8)};
#undef KV

// Host recomputation of thread t's output (every partial sum is exact).
static float want_of(int F, int E, int trips, long long t) {
  const long long g = t >> 5;
  const int lane = (int)(t & 31);
  const long long row = (g % 64) * kRowFloats;
  float acc[NACC] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int j = 0; j < trips; ++j)
    for (int u = 0; u < NLD; ++u)
      for (int e = 0; e < E; ++e)
        acc[(u + e) % NACC] += pattern_at(row + lane + (u + 1) * 32, 4, 0.5f) +
                               (F == PAIR ? pattern_at(row + u, 4, 0.5f) : 0.f);
  float s = 0.f;
  for (int u = 0; u < NACC; ++u) s += acc[u];
  return s;
}

static const int kReps = 9;
static const int kTrips = 1024;

int main(int argc, char **argv) {
  Bench b;
  FILE *cycf = bench_open_side(b, argc, argv, "CYCLES.csv", kRequestCyclesHeader);
  const int sms = b.sm_count;
  const int maxBlocks = sms * 8;
  const double clock_mhz = dev_attr(cudaDevAttrClockRate, 0) / 1000.0;
  Stamps st(maxBlocks);
  long long *cyc = st.cyc;
  int *smid = st.smid;
  const size_t xn = size_t(64) * kRowFloats;  // 64 rows of 9 lines: 72 KiB
  float *x, *out;
  CK(cudaMalloc(&x, xn * sizeof(float)));
  CK(cudaMalloc(&out, (size_t)maxBlocks * 256 * sizeof(float)));
  fill_pattern(x, xn, 4, 0.5f);
  if (getenv("L1ISSUE_PROFILE")) {
    for (const Var &v : kVars) {
      CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout,
                              0));
      v.k<<<sms * 8, 256, 0, b.stream>>>(x, kTrips, 0, -1, out, cyc, smid);
      CK_LAUNCH();
      CK(cudaStreamSynchronize(b.stream));
    }
  }
  for (const Var &v : kVars) {
    if (getenv("L1ISSUE_PROFILE")) break;
    CK(cudaFuncSetAttribute((const void *)v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    for (int W : {16, 32, 64}) {
      const int bt = 256, grid = sms * (W / 8);
      Row r;
      r.family = "l1issue";
      r.name = std::string(v.form) + "_fadd" + std::to_string(v.e);
      r.params = std::string("form=") + v.form + " e=" + std::to_string(v.e) +
                 " warps=" + std::to_string(W) +
                 " trips=" + std::to_string(kTrips);
      row_shape(r, v.k, dim3(grid), dim3(bt), 0);
      r.t = time_case(b, kReps, false,
                      [&] { v.k<<<grid, bt, 0, b.stream>>>(x, kTrips, 0, -1, out, cyc, smid); });
      const long long loads = (long long)kTrips * NLD;
      r.bytes = (unsigned long long)grid * bt * loads * 4 * (v.f == PAIR ? 2 : 1);
      r.flops = (unsigned long long)grid * bt * loads * v.e;
      emit(b, r);
      emit_request_cycles(cycf, r, cyc, smid, grid, kTrips, (double)W * loads, clock_mhz);
      const std::string what = r.name + " W=" + std::to_string(W);
      check_spread(what.c_str(), out, (size_t)grid * bt,
                   [&](size_t i) { return want_of(v.f, v.e, kTrips, (long long)i); });
    }
  }
  CK(cudaFree(x));
  CK(cudaFree(out));
  fclose(cycf);
  bench_close(b);
  return 0;
}
