// bench_carve.cu - how many blocks an SM holds at once under a shared-memory carve-out
// preference (raw data, no rows in calibration.csv): the driver's configuration against
// the runtime's occupancy answer and cuda_occupancy.h's rule (docs/occupancy.md).
//
// k_resident<S>: S bytes of static shared memory a block (0, 1, 4 or 12 KiB, the 1 KiB
// the driver reserves a block on top). Thread 0 of each block reads %smid, adds one to
// that SM's count of blocks running, raises the SM's peak to the count, waits 40 us by
// %globaltimer, then takes one off; the grid is 40 blocks per SM, more than any SM can
// hold, so every SM reaches the most blocks it holds at once. Blocks of 32, 64, 128 and
// 256 threads; the carve-out preference (cudaFuncAttributePreferredSharedMemoryCarveout)
// left at the default (-1) or set to 0, 1, 3, 4, 7, 10, 25, 50 or 100 percent.
// Side table carve_held.csv, one row a case: threads, static smem, preference, the
// runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor, and over the SMs the median
// and the largest peak of blocks held at once (OUT.csv holds the device line alone).
//
// usage: bench_carve OUT.csv SIDE.csv [device]
#include "common.cuh"

template <int S>
__global__ void k_resident(int *cur, int *peak, unsigned long long wait_ns, int *sink) {
  __shared__ int buf[S > 0 ? S / 4 : 1];
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    int now = atomicAdd(&cur[sm], 1) + 1;
    atomicMax(&peak[sm], now);
    unsigned long long t0 = gtimer(), t;
    do {
      t = gtimer();
    } while (t - t0 < wait_ns);
    atomicSub(&cur[sm], 1);
  }
  if (S > 0) {
    buf[threadIdx.x % (S > 0 ? S / 4 : 1)] = threadIdx.x;
    __syncthreads();
    if (buf[(threadIdx.x + 1) % (S > 0 ? S / 4 : 1)] == -1) sink[0] = 1;  // never
  }
}

template <int S>
static void run_case(Bench &b, FILE *side, int threads, int pref, int *cur, int *peak, int *sink) {
  const void *fn = (const void *)k_resident<S>;
  CK(cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, pref));
  int occ = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k_resident<S>, threads, 0));
  const int sms = b.sm_count;
  CK(cudaMemset(cur, 0, sms * sizeof(int)));
  CK(cudaMemset(peak, 0, sms * sizeof(int)));
  k_resident<S><<<sms * 40, threads, 0, b.stream>>>(cur, peak, 40000ull, sink);
  CK_LAUNCH();
  CK(cudaStreamSynchronize(b.stream));
  std::vector<int> h(sms);
  CK(cudaMemcpy(h.data(), peak, sms * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<double> v(h.begin(), h.end());
  int most = *std::max_element(h.begin(), h.end());
  fprintf(side, "threads=%d smem=%d pref=%d,%d,%d,%d,%d,%g,%d\n", threads, S, pref, threads, S,
          pref, occ, median_of(v), most);
  fflush(side);
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "carve_held.csv",
                               "params,threads,static_smem,pref,runtime_occupancy,held_median,"
                               "held_max\n");
  int *cur, *peak, *sink;
  CK(cudaMalloc(&cur, b.sm_count * sizeof(int)));
  CK(cudaMalloc(&peak, b.sm_count * sizeof(int)));
  CK(cudaMalloc(&sink, sizeof(int)));
  const int prefs[] = {-1, 0, 1, 3, 4, 7, 10, 25, 50, 100};
  const int thr[] = {32, 64, 128, 256};
  for (int t : thr)
    for (int p : prefs) {
      run_case<0>(b, side, t, p, cur, peak, sink);
      run_case<1024>(b, side, t, p, cur, peak, sink);
      run_case<4096>(b, side, t, p, cur, peak, sink);
      run_case<12288>(b, side, t, p, cur, peak, sink);
    }
  CK(cudaFree(cur));
  CK(cudaFree(peak));
  CK(cudaFree(sink));
  fclose(side);
  bench_close(b);
  return 0;
}
