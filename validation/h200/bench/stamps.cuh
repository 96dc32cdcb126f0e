// stamps.cuh - per-block stamps of one instrumented launch (bench_turnover,
// bench_stage): thread 0 of each block writes clock64, %globaltimer and %smid at the
// block's start, lane 0 of each warp an atomicMax of clock64 after its last store; the
// host reduces them to the side table's block life (last warp's end - first thread's
// start, SM clock cycles), the start-to-start period of blocks on one SM, the mean
// blocks resident per SM, per-SM spans and the SM clock (clock64 against %globaltimer
// across each SM's starts). Include after common.cuh.
#ifndef GPUPERF_BENCH_STAMPS_CUH
#define GPUPERF_BENCH_STAMPS_CUH

#include "common.cuh"

static const size_t kStampBlocks = size_t(1) << 20;  // blocks a stamped launch may have

__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Stamp buffers (device): start clock, end clock (max over warps), start globaltimer, SM.
struct BlockStamps {
  long long *st;
  unsigned long long *en, *gt;
  unsigned *sm;
};

__device__ __forceinline__ unsigned stamp_block() { return blockIdx.y * gridDim.x + blockIdx.x; }
__device__ __forceinline__ unsigned stamp_thread() {
  return threadIdx.y * blockDim.x + threadIdx.x;
}

// In a kernel templated on `bool S` with a `BlockStamps ts` argument: the block's start
// (its first thread) and, after each warp's last store, the warp's end (atomicMax).
#define STAMP_START                                                                 \
  if (S && stamp_thread() == 0) {                                                  \
    ts.st[stamp_block()] = clk();                                                   \
    ts.gt[stamp_block()] = gtimer();                                                \
    ts.sm[stamp_block()] = smid();                                                  \
  }
#define STAMP_END                                                                   \
  if (S && (stamp_thread() & 31) == 0)                                              \
    atomicMax(&ts.en[stamp_block()], (unsigned long long)clk());


// Device buffers for kStampBlocks blocks, and their release.
static inline void stamps_alloc(BlockStamps &ts) {
  CK(cudaMalloc(&ts.st, kStampBlocks * 8));
  CK(cudaMalloc(&ts.en, kStampBlocks * 8));
  CK(cudaMalloc(&ts.gt, kStampBlocks * 8));
  CK(cudaMalloc(&ts.sm, kStampBlocks * 4));
}
static inline void stamps_free(BlockStamps &ts) {
  CK(cudaFree(ts.st));
  CK(cudaFree(ts.en));
  CK(cudaFree(ts.gt));
  CK(cudaFree(ts.sm));
}

// The side table's header line.
static inline void stamps_header(FILE *side) {
  fprintf(side, "family,name,params,blocks,block_threads,blocks_per_sm,occ_used,median_us,"
                "stamp_us,sms,blocks_sm_mean,blocks_sm_min,blocks_sm_max,life_mean,life_med,"
                "life_p10,life_p90,life_first_med,life_steady_med,period_mean,resident_mean,"
                "sm_span_mean,sm_span_max,sm_ghz,start_spread_us,trips,cycles_per_trip,"
                "inflight_bytes_sm\n");
}

// Statistics of one stamped launch of `blocks` blocks; `trips` > 0 adds cycles per trip.
static void emit_stamps(FILE *side, const BlockStamps &ts, const Row &r, long long blocks,
                        long long occ, double stamp_us, long long trips,
                        long long inflight_bytes_sm) {
  std::vector<long long> st(blocks);
  std::vector<unsigned long long> en(blocks), gt(blocks);
  std::vector<unsigned> sm(blocks);
  CK(cudaMemcpy(st.data(), ts.st, blocks * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(en.data(), ts.en, blocks * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gt.data(), ts.gt, blocks * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(sm.data(), ts.sm, blocks * 4, cudaMemcpyDeviceToHost));
  int nsm = 0;
  for (long long i = 0; i < blocks; ++i) nsm = std::max(nsm, (int)sm[i] + 1);
  std::vector<std::vector<long long>> per(nsm);
  for (long long i = 0; i < blocks; ++i) per[sm[i]].push_back(i);
  std::vector<double> life, life_first, life_steady, period, resident, span, ghz, bps;
  life.reserve(blocks);
  unsigned long long g0 = ~0ull, g1 = 0;
  for (long long i = 0; i < blocks; ++i) {
    life.push_back(double((long long)en[i] - st[i]));
    g0 = std::min(g0, gt[i]);
    g1 = std::max(g1, gt[i]);
  }
  int seen = 0;
  for (int s = 0; s < nsm; ++s) {
    std::vector<long long> &v = per[s];
    if (v.empty()) continue;
    ++seen;
    std::sort(v.begin(), v.end(), [&](long long x, long long y) { return st[x] < st[y]; });
    long long n = (long long)v.size(), smin = st[v[0]], smax = st[v[n - 1]];
    long long emax = 0;
    double lsum = 0;
    for (long long k = 0; k < n; ++k) {
      long long i = v[k];
      emax = std::max(emax, (long long)en[i]);
      lsum += life[i];
      (k < occ ? life_first : life_steady).push_back(life[i]);
    }
    bps.push_back(double(n));
    span.push_back(double(emax - smin));
    resident.push_back(lsum / double(emax - smin));
    if (n > 1) period.push_back(double(smax - smin) / double(n - 1));
    double dg = double(gt[v[n - 1]] - gt[v[0]]);
    if (dg > 20000) ghz.push_back(double(smax - smin) / dg);
  }
  auto pct = [](std::vector<double> v, double p) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, size_t(p * (v.size() - 1) + 0.5))];
  };
  auto mean = [](const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / v.size();
  };
  double lmed = pct(life, 0.5);
  fprintf(side,
          "%s,%s,%s,%lld,%lld,%lld,%lld,%.3f,%.3f,%d,%.1f,%.0f,%.0f,%.1f,%.0f,%.0f,%.0f,%.0f,"
          "%.0f,%.2f,%.3f,%.0f,%.0f,%.4f,%.2f,%lld,%.2f,%lld\n",
          r.family.c_str(), r.name.c_str(), r.params.c_str(), blocks, r.block_x * r.block_y,
          r.blocks_per_sm, occ, r.t.median_us, stamp_us, seen, mean(bps), pct(bps, 0.0),
          pct(bps, 1.0), mean(life), lmed, pct(life, 0.1), pct(life, 0.9), pct(life_first, 0.5),
          pct(life_steady, 0.5), mean(period), mean(resident), mean(span), pct(span, 1.0),
          pct(ghz, 0.5), (g1 - g0) / 1e3, trips, trips > 0 ? lmed / trips : 0.0,
          inflight_bytes_sm);
  fflush(side);
}

// Time a row (`launch(false)`), then one stamped launch (`launch(true)`).
static void run_stamped_row(Bench &b, const BlockStamps &ts, FILE *side, Row &r, bool cold,
                            long long blocks, long long occ,
                            const std::function<void(bool)> &launch, long long trips = 0,
                            long long inflight = 0) {
  r.t = time_case(b, 7, cold, [&] { launch(false); });
  emit(b, r);
  if (blocks > (long long)kStampBlocks) return;
  CK(cudaMemsetAsync(ts.en, 0, blocks * 8, b.stream));
  if (cold) flush_l2(b);
  CK(cudaEventRecord(b.ev0, b.stream));
  launch(true);
  CK_LAUNCH();
  CK(cudaEventRecord(b.ev1, b.stream));
  CK(cudaEventSynchronize(b.ev1));
  float ms = 0;
  CK(cudaEventElapsedTime(&ms, b.ev0, b.ev1));
  emit_stamps(side, ts, r, blocks, occ, ms * 1e3, trips, inflight);
}

#endif
