// bench_gstamp.cu - when a cold gather's trips come back, trip by trip (raw data, no
// rows in calibration.csv): how long the launch's first touches of an L2-sized buffer
// keep its warps waiting on DRAM, including the draws that find a granule another warp
// has asked for and that is still on its way.
//
// k_gstamp: bench_gfoot's uniform gathers (every lane its own random word of an n-word
// buffer, __umulhi(x, n), 4 independent loads a trip, `#pragma unroll 1`), 32 trips; at
// the end of each trip every thread stores its running sum (the store waits for the
// trip's loads) and lane 0 of each warp then reads clock64 into stamps[warp][trip].
// Launch: w = 8 or 32 warps per SM on every SM (1 or 4 blocks of 256 threads per SM),
// carve-out preference 0, footprints 256 KiB, 1, 4 and 16 MiB, the memset flush before
// each repetition. Side table: per case and trip, the median, p10 and p90 over the warps
// of the cycles since the loop began, and of that trip alone.
// GSTAMP_SET=lanes: the second sweep (rows `gather_ta`), k_gstamp with only the first
// a = 1, 2, 4 or 32 lanes of each warp gathering (the others store 0), footprints 4,
// 16 and 32 MiB, 8 and 32 warps per SM: a few lanes a warp drawing into a cold buffer,
// as a sparse frontier's gathers do.
//
// usage: [GSTAMP_SET=lanes] bench_gstamp OUT.csv SIDE.csv [device]
#include "common.cuh"

static const int kTrips = 32;

__global__ void __launch_bounds__(256) k_gstamp(const int *p, unsigned n, int *sink,
                                                long long *stamps, unsigned active) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x, w = g >> 5;
  const bool on = (threadIdx.x & 31) < active;
  unsigned x = hash32(g + 0x9e3779b9u);
  unsigned acc = 0;
  long long t0 = clock64();
  if ((threadIdx.x & 31) == 0) stamps[(size_t)w * (kTrips + 1)] = t0;
#pragma unroll 1
  for (int k = 0; k < kTrips; ++k) {
    unsigned v[4] = {0, 0, 0, 0};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      x = x * 1664525u + 1013904223u;
      if (on) v[j] = (unsigned)p[__umulhi(x, n)];
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) acc += v[j];
    sink[g] = (int)acc;  // waits for the trip's loads
    long long t = clk();
    if ((threadIdx.x & 31) == 0) stamps[(size_t)w * (kTrips + 1) + k + 1] = t;
  }
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "gstamp_trips.csv",
                               "params,trip,cum_med,cum_p10,cum_p90,trip_med,trip_p10,"
                               "trip_p90\n");
  const int SMS = b.sm_count;
  const size_t nmax = size_t(1) << 22;  // 16 MiB of int
  int *p, *sink;
  long long *stamps;
  CK(cudaMalloc(&p, nmax * 4));
  CK(cudaMemset(p, 1, nmax * 4));
  const size_t maxthreads = (size_t)SMS * 1024;
  CK(cudaMalloc(&sink, maxthreads * 4));
  CK(cudaMalloc(&stamps, sizeof(long long) * (maxthreads / 32) * (kTrips + 1)));
  CK(cudaFuncSetAttribute((const void *)k_gstamp,
                          cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  std::vector<long long> hs((maxthreads / 32) * (kTrips + 1));
  std::vector<int> hk(maxthreads);
  const bool lanes = getenv("GSTAMP_SET") && !strcmp(getenv("GSTAMP_SET"), "lanes");
  struct Case {
    int bpsm, f, a;
  };
  std::vector<Case> cases;
  for (int bpsm : {1, 4})
    if (lanes) {
      for (int f : {4096, 16384, 32768})
        for (int a : {1, 2, 4, 32}) cases.push_back({bpsm, f, a});
    } else {
      for (int f : {256, 1024, 4096, 16384}) cases.push_back({bpsm, f, 32});
    }
  const size_t nneed = size_t(1) << 23;  // 32 MiB of int for the lanes sweep
  if (lanes) {
    CK(cudaFree(p));
    CK(cudaMalloc(&p, nneed * 4));
    CK(cudaMemset(p, 1, nneed * 4));
  }
  for (const Case &c : cases) {
    {
      const int bpsm = c.bpsm, f = c.f, a = c.a;
      const unsigned n = (unsigned)((size_t)f * 1024 / 4);
      const int grid = SMS * bpsm, block = 256, warps = grid * block / 32;
      Row r;
      r.family = "gstamp";
      r.name = lanes ? "gather_ta" : "gather_t";
      char ps[128];
      if (lanes)
        snprintf(ps, sizeof ps, "fp=%dK w=%d L=4 a=%d trips=%d", f, 8 * bpsm, a, kTrips);
      else
        snprintf(ps, sizeof ps, "fp=%dK w=%d L=4 trips=%d", f, 8 * bpsm, kTrips);
      r.params = ps;
      row_shape(r, k_gstamp, dim3(grid), dim3(block), 0);
      r.bytes = (unsigned long long)grid * block / 32 * a * kTrips * 4 * 4;
      r.t = time_case(b, 5, true, [&] {
        k_gstamp<<<grid, block, 0, b.stream>>>(p, n, sink, stamps, (unsigned)a);
      });
      emit(b, r);
      CK(cudaMemcpy(hk.data(), sink, sizeof(int) * grid * block, cudaMemcpyDeviceToHost));
      const unsigned want = (unsigned)(kTrips * 4) * 0x01010101u;
      for (int t = 0; t < grid * block; ++t) {
        const unsigned w_t = (t & 31) < a ? want : 0u;
        REQUIRE((unsigned)hk[t] == w_t, "%s thread %d: %u != %u", ps, t, (unsigned)hk[t], w_t);
      }
      CK(cudaMemcpy(hs.data(), stamps, sizeof(long long) * warps * (kTrips + 1),
                    cudaMemcpyDeviceToHost));
      for (int k = 1; k <= kTrips; ++k) {
        std::vector<double> cum(warps), one(warps);
        for (int w = 0; w < warps; ++w) {
          const long long *s = &hs[(size_t)w * (kTrips + 1)];
          cum[w] = (double)(s[k] - s[0]);
          one[w] = (double)(s[k] - s[k - 1]);
        }
        std::sort(cum.begin(), cum.end());
        std::sort(one.begin(), one.end());
        auto q = [&](const std::vector<double> &v, double f) {
          return v[(size_t)(f * (v.size() - 1))];
        };
        fprintf(side, "\"%s\",%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n", ps, k, median_of(cum),
                q(cum, 0.1), q(cum, 0.9), median_of(one), q(one, 0.1), q(one, 0.9));
      }
      fflush(side);
    }
  }
  fclose(side);
  bench_close(b);
  return 0;
}
