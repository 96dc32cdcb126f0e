// bench_imadw.cu - what an IMAD.WIDE costs beside L1-hit loads (raw data only, no
// family). run14/addr and run38/lform left it open: a load whose 64-bit address is an
// IMAD.WIDE of its own takes about 2.2 SM cycles where one at an immediate offset takes
// 1.08 (run14/addr, 64 warps per SM), while the `misalign` loops, whose SASS steps the
// pointer with an IMAD.WIDE before each of its 16 loads (run19/misalign), take 1.12 a
// load; and ptxas hoisted the multiply of bench_lform's mad.wide rows out of the loop.
//
// k_iw<L, W, FEED, MUL>: 32 warps per SM (132 x 4 blocks of 256 threads, at most 64
// registers: no spills); warp g reads row g % 64 of x (64 rows of 9 lines of 32 floats,
// 72 KiB: L1 hits after the first trip, carve-out 0). Each trip of a `#pragma unroll 1`
// loop of T trips:
//   L = 8 coalesced 4-byte loads (load u: line u + 1 of the row), each added into one of 8
//     accumulators (FADD); FEED 0: at immediate offsets from the row's pointer; FEED 1:
//     each at the address mad.wide.u32(index, m, base) of its own (m = 4 at run time, the
//     index varying with the trip by a run-time zero), an IMAD.WIDE.U32 a load;
//   UNI 1: each load beside a warp-uniform load of word u of the row's line 0 and one
//     FFMA (the naive SGEMM's k step, as bench_lform's `pair`); UNI 2: the warp-uniform
//     loads alone, each added into an accumulator;
//   W independent integer chains, one step each a trip: MUL 0 mad.wide.u32(j + k, m, w_k)
//     (a 64-bit accumulator: IMAD.WIDE.U32), MUL 1 mad.lo.u32(j + k, m, w_k) (IMAD);
//     their values are not addresses and go to the output once after the loop.
// imadw.csv: per variant the event time (median of 5 after 2 warm-ups) and the SM cycles
// of one warp's trip over the 32 warps of an SM, from clock64 of each block's loop
// (median over blocks) and from the event time at the SM clock the bench reads
// (cudaDevAttrClockRate). IMADW_PROFILE=1: each variant launched once, untimed (ncu).
// The float sums are checked against a host recomputation; the integer chains are
// folded into the output so that none is dead.
//
// usage: bench_imadw OUT.csv [device]
#include "common.cuh"

#include <cstdint>

static const int kRowFloats = 9 * 32;
static const int kRows = 64;
static const int kTrips = 2048;
static const int kThreads = 256;
static const int kBlocksPerSm = 4;

__host__ __device__ inline float iw_x(int i) { return float(i % 7) * 0.125f; }

template <int L, int W, int FEED, int MUL, int UNI>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    k_iw(const float *x, int trips, unsigned m, unsigned zmask, float *out, unsigned *iout,
         long long *cyc) {
  const int tid = threadIdx.x, lane = tid & 31;
  const long long g = (blockIdx.x * (long long)blockDim.x + tid) >> 5;
  const unsigned row0 = unsigned(g % kRows) * kRowFloats + lane;
  const float *q = x + row0;
  const float *r = x + (row0 - lane);  // the row's line 0: a warp-uniform word a load
  const unsigned long long base = (unsigned long long)(uintptr_t)x;
  float acc[8];
  unsigned long long w64[W > 0 ? W : 1];
  unsigned w32[W > 0 ? W : 1];
#pragma unroll
  for (int u = 0; u < 8; ++u) acc[u] = 0.f;
#pragma unroll
  for (int k = 0; k < (W > 0 ? W : 1); ++k) {
    w64[k] = (unsigned long long)(k + tid);
    w32[k] = unsigned(k + tid);
  }
  long long t0 = clock64();
#pragma unroll 1
  for (int j = 0; j < trips; ++j) {
    const unsigned z = unsigned(j) & zmask;  // 0 at run time
#pragma unroll
    for (int u = 0; u < L; ++u) {
      float v;
      if (UNI == 2) {  // the warp-uniform load alone
        acc[u & 7] += r[u];
        continue;
      }
      if (FEED) {
        unsigned long long a;
        unsigned idx = row0 + unsigned(u + 1) * 32u + z;
        asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(a) : "r"(idx), "r"(m), "l"(base));
        v = *(const float *)(uintptr_t)a;
      } else {
        v = q[(u + 1) * 32];
      }
      if (UNI == 1)  // beside a warp-uniform load, one FFMA: the naive SGEMM's k step
        acc[u & 7] = fmaf(v, r[u], acc[u & 7]);
      else
        acc[u & 7] += v;
    }
#pragma unroll
    for (int k = 0; k < W; ++k) {
      if (MUL == 0)
        asm("mad.wide.u32 %0, %1, %2, %0;" : "+l"(w64[k]) : "r"(unsigned(j + k)), "r"(m));
      else
        asm("mad.lo.u32 %0, %1, %2, %0;" : "+r"(w32[k]) : "r"(unsigned(j + k)), "r"(m));
    }
    q += z;
    r += z;
  }
  long long t1 = clock64();
  float s = 0.f;
  unsigned h = 0u;
#pragma unroll
  for (int u = 0; u < 8; ++u) s += acc[u];
#pragma unroll
  for (int k = 0; k < W; ++k) h ^= MUL == 0 ? unsigned(w64[k] ^ (w64[k] >> 32)) : w32[k];
  out[blockIdx.x * (long long)blockDim.x + tid] = s;
  iout[blockIdx.x * (long long)blockDim.x + tid] = h;
  if (tid == 0) cyc[blockIdx.x] = t1 - t0;
}

typedef void (*kern_t)(const float *, int, unsigned, unsigned, float *, unsigned *, long long *);

struct Var {
  const char *name;
  int loads, ops, feed, mul, uni;
  kern_t k;
};

#define IV(N, L, W, F, M) {N, L, W, F, M, 0, k_iw<L, W, F, M, 0>}
#define UV(N, L, W, U) {N, L, W, 0, 0, U, k_iw<L, W, 0, 0, U>}
static const Var kVars[] = {
    IV("wide8", 0, 8, 0, 0),        IV("wide16", 0, 16, 0, 0),
    IV("imad8", 0, 8, 0, 1),        IV("imad16", 0, 16, 0, 1),
    IV("ld8", 8, 0, 0, 0),          IV("ld8_wide4", 8, 4, 0, 0),
    IV("ld8_wide8", 8, 8, 0, 0),    IV("ld8_wide16", 8, 16, 0, 0),
    IV("ld8_imad8", 8, 8, 0, 1),    IV("ld8_imad16", 8, 16, 0, 1),
    IV("ld8_feed", 8, 0, 1, 0),     IV("ld8_feed_wide8", 8, 8, 1, 0),
    UV("pair8", 8, 0, 1),           UV("pair8_wide4", 8, 4, 1),
    UV("pair8_wide8", 8, 8, 1),     UV("uni8", 8, 0, 2),
    UV("uni8_wide8", 8, 8, 2),
};

// The host's sum of one thread's loads (the same float additions in the same order).
static float host_sum(const Var &v, long long g, int lane, int trips) {
  float acc[8] = {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f};
  const int row0 = int(g % kRows) * kRowFloats + lane;
  for (int j = 0; j < trips; ++j)
    for (int u = 0; u < v.loads; ++u) {
      const float w = iw_x(row0 - lane + u);
      if (v.uni == 2)
        acc[u & 7] += w;
      else if (v.uni == 1)
        acc[u & 7] = fmaf(iw_x(row0 + (u + 1) * 32), w, acc[u & 7]);
      else
        acc[u & 7] += iw_x(row0 + (u + 1) * 32);
    }
  float s = 0.f;
  for (int u = 0; u < 8; ++u) s += acc[u];
  return s;
}

int main(int argc, char **argv) {
  REQUIRE(argc == 2 || argc == 3, "usage: bench_imadw OUT.csv [device]");
  const int dev = argc == 3 ? atoi(argv[2]) : 0;
  const bool profile = getenv("IMADW_PROFILE") && atoi(getenv("IMADW_PROFILE")) == 1;
  CK(cudaSetDevice(dev));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  const int clock_khz = dev_attr(cudaDevAttrClockRate, dev);
  const int blocks = p.multiProcessorCount * kBlocksPerSm;
  const size_t threads = size_t(blocks) * kThreads;
  FILE *f = fopen(argv[1], "w");
  REQUIRE(f, "cannot write %s", argv[1]);
  fprintf(f, "# bench_imadw on %s, %d SMs, %d MHz, %d blocks of %d threads, %d trips\n", p.name,
          p.multiProcessorCount, clock_khz / 1000, blocks, kThreads, kTrips);
  fprintf(f, "variant,loads,int_ops,feed,op,uniform,regs,event_us,"
             "sm_cycles_per_warp_trip_clock64,sm_cycles_per_warp_trip_event\n");
  std::vector<float> hx(kRows * kRowFloats);
  for (size_t i = 0; i < hx.size(); ++i) hx[i] = iw_x(int(i));
  float *dx, *dout;
  unsigned *diout;
  long long *dcyc;
  CK(cudaMalloc(&dx, hx.size() * sizeof(float)));
  CK(cudaMalloc(&dout, threads * sizeof(float)));
  CK(cudaMalloc(&diout, threads * sizeof(unsigned)));
  CK(cudaMalloc(&dcyc, blocks * sizeof(long long)));
  CK(cudaMemcpy(dx, hx.data(), hx.size() * sizeof(float), cudaMemcpyHostToDevice));
  // time_case's stream and events; no scratch buffer: the data stays in L1 and no
  // case is timed after a flush
  Bench b;
  bench_stream(b);
  for (const Var &v : kVars) {
    long long regs, static_smem;
    auto launch = [&] {
      v.k<<<blocks, kThreads, 0, b.stream>>>(dx, kTrips, 4u, 0u, dout, diout, dcyc);
    };
    CK(cudaFuncSetAttribute(v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    kernel_attrs(v.k, &regs, &static_smem);
    if (profile) {
      launch();
      CK_LAUNCH();
      CK(cudaStreamSynchronize(b.stream));
      continue;
    }
    const Stats st = time_case(b, 5, false, launch);
    std::vector<float> out(threads);
    std::vector<long long> cyc(blocks);
    CK(cudaMemcpy(out.data(), dout, threads * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(cyc.data(), dcyc, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
    for (size_t t = 0; t < threads; t += 977) {
      float want = host_sum(v, (long long)(t >> 5), int(t & 31), kTrips);
      REQUIRE(fabsf(out[t] - want) <= 1e-3f * fabsf(want) + 1e-3f, "%s thread %zu: %g, want %g",
              v.name, t, out[t], want);
    }
    std::vector<double> per;
    for (long long c : cyc) per.push_back(double(c));
    const double warps = double(kThreads / 32 * kBlocksPerSm);
    const double c64 = median_of(per) / (double(kTrips) * warps);
    const double us = st.median_us;
    const double ev = us * (clock_khz / 1000.0) / (double(kTrips) * warps);
    fprintf(f, "%s,%d,%d,%d,%s,%s,%d,%.3f,%.4f,%.4f\n", v.name, v.loads, v.ops, v.feed,
            v.mul ? "mad.lo.u32" : "mad.wide.u32",
            v.uni == 2 ? "only" : (v.uni == 1 ? "beside" : "none"), int(regs), us, c64, ev);
    fflush(f);
  }
  fclose(f);
  CK(cudaFree(dx));
  CK(cudaFree(dout));
  CK(cudaFree(diout));
  CK(cudaFree(dcyc));
  CK(cudaEventDestroy(b.ev0));
  CK(cudaEventDestroy(b.ev1));
  CK(cudaStreamDestroy(b.stream));
  return 0;
}
