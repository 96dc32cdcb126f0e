// bench_tlb.cu - random gathers over buffers from 64 MiB to 8 GiB (family `tlb`): where
// the pages a random access can land on outgrow what the GPU's address translation keeps,
// and what that costs in throughput and in latency.
//
// Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip issues L
// independent 4-byte loads (unrolled) and adds them up at the trip's end. The addresses
// come from a 64-bit LCG per group of c lanes (Knuth's MMIX constants): a group draws one
// random 128-byte line of the buffer per load and its lanes read consecutive words of it
// (c = 1: every lane its own line; c = 32: the warp reads one whole line). Buffers of
// 2^24 .. 2^31 ints (64 MiB .. 8 GiB), the 1 GiB memset flush before every repetition.
//   thr  64 warps per SM (two blocks of 1024 on every SM), L = 4, c = 1, 64 trips
//   line 64 warps per SM, L = 4, c = 32, 256 trips
//   lat  one warp per SM, L = 1, c = 1, 256 trips (each trip waits for its slowest lane)
// Rows: event time (median of 5 after 2 warm-ups); the side table tlb_cycles.csv has the
// clock64 cycles per trip of each warp's loop (median, p10, p90 over warps).
//
// usage: bench_tlb OUT.csv CYCLES.csv [device]
#include "common.cuh"

template <int L>
__global__ void __launch_bounds__(1024, 2)
    k_tlb(const int *p, unsigned long long lmask, int trips, int c, int *out, long long *cyc) {
  const int lane = threadIdx.x & 31;
  const unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned off = (unsigned)(lane % c);
  unsigned long long x = hash32(gw * 32u + (unsigned)(lane / c) + 0x9e3779b9u) * 0x9E3779B97F4A7C15ull;
  unsigned acc = 0;
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < trips; ++k) {
    unsigned v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      v[j] = (unsigned)p[((x >> 24) & lmask) * 32u + off];
    }
#pragma unroll
    for (int j = 0; j < L; ++j) acc += v[j];
  }
  __syncwarp();
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)acc;
  if (lane == 0) cyc[gw] = t1 - t0;
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "tlb_cycles.csv",
                               "family,name,params,blocks,warps,trips,cyc_med,cyc_p10,"
                               "cyc_p90,cyc_per_trip\n");
  const int SMS = b.sm_count;
  const size_t nmax = size_t(1) << 31;  // 8 GiB of int
  int *p, *out;
  long long *cyc;
  CK(cudaMalloc(&p, nmax * 4));
  CK(cudaMemset(p, 1, nmax * 4));  // every int 0x01010101
  const size_t maxthreads = (size_t)SMS * 2048;
  CK(cudaMalloc(&out, maxthreads * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * maxthreads / 32));
  CK(cudaFuncSetAttribute((const void *)k_tlb<1>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  CK(cudaFuncSetAttribute((const void *)k_tlb<4>, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  struct Kind {
    const char *name;
    int w, L, c, trips;
  };
  const Kind kinds[3] = {{"thr", 64, 4, 1, 64}, {"line", 64, 4, 32, 256}, {"lat", 1, 1, 1, 256}};
  std::vector<long long> hc(maxthreads / 32);
  for (const Kind &kd : kinds)
    for (int lg = 24; lg <= 31; ++lg) {
      const size_t n = size_t(1) << lg;
      const unsigned long long lmask = n / 32 - 1;
      const int block = kd.w <= 32 ? 32 * kd.w : 1024;
      const int grid = kd.w <= 32 ? SMS : 2 * SMS;
      const int warps = grid * block / 32;
      auto k = kd.L == 1 ? k_tlb<1> : k_tlb<4>;
      Row r;
      r.family = "tlb";
      r.name = std::string("gather_") + kd.name;
      char ps[128];
      snprintf(ps, sizeof ps, "n=2^%d w=%d L=%d c=%d trips=%d", lg, kd.w, kd.L, kd.c, kd.trips);
      r.params = ps;
      row_shape(r, k, dim3(grid), dim3(block), 0);
      r.bytes = (unsigned long long)warps * 32 * kd.trips * kd.L * 4;
      r.t = time_case(b, 5, true,
                      [&] { k<<<grid, block, 0, b.stream>>>(p, lmask, kd.trips, kd.c, out, cyc); });
      emit(b, r);
      // every int is 0x01010101: the sum of a lane is trips * L of them (mod 2^32)
      std::vector<int> h(32);
      CK(cudaMemcpy(h.data(), out, 32 * 4, cudaMemcpyDeviceToHost));
      const unsigned want = (unsigned)(0x01010101u * (unsigned)(kd.trips * kd.L));
      for (int l = 0; l < 32; ++l)
        REQUIRE((unsigned)h[l] == want, "%s: lane %d sum %u, want %u", ps, l, (unsigned)h[l], want);
      CK(cudaMemcpy(hc.data(), cyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
      std::vector<double> v(hc.begin(), hc.begin() + warps);
      std::sort(v.begin(), v.end());
      double med = median_of(v), p10 = v[(size_t)(0.1 * (warps - 1))],
             p90 = v[(size_t)(0.9 * (warps - 1))];
      fprintf(side, "%s,%s,%s,%d,%d,%d,%.0f,%.0f,%.0f,%.1f\n", r.family.c_str(), r.name.c_str(),
              ps, grid, warps, kd.trips, med, p10, p90, med / kd.trips);
    }
  fclose(side);
  bench_close(b);
  return 0;
}
