// bench_l1cap.cu - random gathers against the L1's size (family `l1cap`).
//
// The gathers of bench_scatter (a = 32 lanes, each its own random 128-byte line, one
// 4-byte word of it; L = 1 or 4 independent loads a trip, `#pragma unroll 1` loop,
// addresses from an LCG in registers), one block of 32 w threads per SM, with the
// block asking for `smem` KiB of dynamic shared memory that it never touches: the
// driver then gives the SM a shared-memory carve-out of at least smem + 1 KiB, and
// the L1 keeps what is left of the SM's 256 KiB. The preferred carve-out is 0 (as
// much L1 as the launch allows). `word`: 0 reads word 0 of each line (bench_scatter's
// lanes), 1 a random word of it (bench_depgather's).
//   ws=l2    n = 2^21 ints (8 MiB), warmed by a coalesced read before each launch
//   ws=dram  n = 2^26 ints (256 MiB), the L2 flushed before each launch
// Rows: event time (median of 5 after 2 warm-ups); the side table l1cap_cycles.csv has
// the clock64 cycles per trip of each warp's loop (median, p10, p90 over warps).
#include "common.cuh"

template <int L>
__global__ void __launch_bounds__(1024, 1)
    k_l1cap(const int *p, unsigned lmask, int trips, int word, int *out, long long *cyc) {
  const int lane = threadIdx.x & 31;
  const unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned x = hash32(gw * 32u + (unsigned)lane + 0x9e3779b9u);
  unsigned acc = 0;
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < trips; ++k) {
    unsigned v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) {
      x = x * 1664525u + 1013904223u;
      const unsigned off = word ? (x >> 3) & 31u : 0u;
      v[j] = (unsigned)p[(size_t)((x >> 9) & lmask) * 32u + off];
    }
#pragma unroll
    for (int j = 0; j < L; ++j) acc += v[j];
  }
  __syncwarp();
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)acc;
  if (lane == 0) cyc[gw] = t1 - t0;
}

typedef void (*L1capK)(const int *, unsigned, int, int, int *, long long *);

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "l1cap_cycles.csv",
                               "family,name,params,blocks,warps,trips,dyn_smem,"
                               "cyc_med,cyc_p10,cyc_p90,cyc_per_trip,cyc_per_load\n");
  const int SMS = b.sm_count;
  const int kWs[2] = {21, 26};
  const char *wsname[2] = {"l2", "dram"};
  const size_t nmax = size_t(1) << 26;
  int *p, *out;
  long long *cyc;
  CK(cudaMalloc(&p, nmax * 4));
  CK(cudaMemset(p, 1, nmax * 4));  // every int 0x01010101
  const size_t maxthreads = (size_t)SMS * 1024;
  CK(cudaMalloc(&out, maxthreads * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * maxthreads / 32));
  const int optin = b.prop.sharedMemPerBlockOptin;
  L1capK ks[2] = {k_l1cap<1>, k_l1cap<4>};
  for (L1capK k : ks) {
    CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    allow_dyn_smem(k, (size_t)optin);
  }
  std::vector<long long> hc(maxthreads / 32);
  std::vector<int> ho(maxthreads);
  // KiB of dynamic shared memory: up to the per-block opt-in (227 KiB on the H200)
  const int smems[7] = {0, 32, 64, 100, 132, 164, 196};
  for (int ws = 0; ws < 2; ++ws)
    for (int word = 0; word < 2; ++word)
      for (int L : {1, 4})
        for (int w : {8, 16, 32})
          for (int si = 0; si < 8; ++si) {
            const int skib = si < 7 ? smems[si] : optin / 1024;
            const size_t dyn = (size_t)skib * 1024;
            const size_t n = size_t(1) << kWs[ws];
            const unsigned lmask = (unsigned)(n / 32 - 1);
            const int block = 32 * w, grid = SMS, warps = grid * w;
            const int trips = 256 / L;
            L1capK k = ks[L == 1 ? 0 : 1];
            const bool cold = ws != 0;
            Row r;
            r.family = "l1cap";
            r.name = "gather";
            char ps[128];
            snprintf(ps, sizeof ps, "ws=%s word=%s w=%d L=%d smem=%dK trips=%d", wsname[ws],
                     word ? "rand" : "0", w, L, skib, trips);
            r.params = ps;
            row_shape(r, k, dim3(grid), dim3(block), dyn);
            r.bytes = (unsigned long long)warps * 32 * trips * L * 4;
            auto pre = [&] {
              if (!cold) k_warm<<<SMS * 4, 512, 0, b.stream>>>((const int4 *)p, n / 4, out);
            };
            r.t = time_case(
                b, 5, cold,
                [&] { k<<<grid, block, dyn, b.stream>>>(p, lmask, trips, word, out, cyc); }, pre);
            emit(b, r);
            CK(cudaMemcpy(ho.data(), out, sizeof(int) * grid * block, cudaMemcpyDeviceToHost));
            const unsigned want = (unsigned)(trips * L) * 0x01010101u;
            for (int t = 0; t < grid * block; ++t)
              REQUIRE((unsigned)ho[t] == want, "%s thread %d: %u != %u", ps, t,
                      (unsigned)ho[t], want);
            CK(cudaMemcpy(hc.data(), cyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
            std::vector<double> v(hc.begin(), hc.begin() + warps);
            std::sort(v.begin(), v.end());
            double med = median_of(v), p10 = v[(size_t)(0.1 * (warps - 1))],
                   p90 = v[(size_t)(0.9 * (warps - 1))];
            fprintf(side, "%s,%s,%s,%d,%d,%d,%zu,%.0f,%.0f,%.0f,%.1f,%.1f\n",
                    r.family.c_str(), r.name.c_str(), ps, grid, warps, trips, dyn, med, p10,
                    p90, med / trips, med / trips / L);
            fflush(side);
            fprintf(stderr, "      %-44s %9.1f cycles a trip\n", ps, med / trips);
          }
  fclose(side);
  bench_close(b);
  return 0;
}
