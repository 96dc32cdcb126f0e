// bench_gfoot.cu - random 4-byte gathers over footprints from 16 KiB to 64 MiB (family
// `gfoot`): how much of a buffer the size of an SM's L1, or of the L2, the gathers of
// every SM at once find in L1 and L2.
//
// k_gfoot<L>: each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip issues
// L independent 4-byte loads (unrolled) and adds them up at the trip's end. Each lane
// draws its own random word of the n-word buffer per load (an LCG in registers, no
// index loads): x = x * 1664525 + 1013904223, word (x >> 7) & (n - 1). 256 loads a
// thread whatever L (trips = 256 / L).
// Launch: w warps per SM on every SM, as 1, 4 or 8 blocks of 256 threads per SM (w = 8,
// 32, 64; a grid of SMs x blocks, every block resident at once), carve-out preference 0
// (the largest L1). The memset flush of the 1 GiB scratch before each repetition.
// Rows: event time (median of 5 after 2 warm-ups); the side table gfoot_cycles.csv has
// the clock64 cycles per trip of each warp's loop (median, p10, p90 over the warps).
//
// GFOOT_SET=l2: the second sweep (rows `gather_u`), how much of a buffer near the L2's
// size the gathers of every SM keep in it: footprints of 16 to 128 MiB in 8 MiB steps
// to 64, then 80, 96 and 128, 32 and 64 warps per SM, L = 4; each lane's word is
// __umulhi(x, n), uniform over the n words whatever n (the mask needs a power of two).
//
// GFOOT_SET=lanes: the third sweep (rows `gather_a`), gathers of a few lanes a warp
// behind the flush: only the first a lanes of each warp (a = 1, 2, 4, 8, 16) run the
// loop (k_gfoot_a, the draw as GFOOT_SET=l2's), L = 4, 64 trips, footprints 1, 4, 16
// and 32 MiB, 8 and 32 warps per SM: how a launch's first touches of an L2-sized buffer
// come when each request has one to 16 lanes.
//
// usage: bench_gfoot OUT.csv SIDE.csv [device]
//        GFOOT_PROFILE=1 bench_gfoot OUT.csv SIDE.csv [device]: one launch of each case
//        behind its flush, for ncu (run_gfoot.sh)
#include "common.cuh"

template <int L, int U>
__global__ void __launch_bounds__(256) k_gfoot(const int *p, unsigned mask, int trips, int *out,
                                               long long *cyc) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = hash32(g + 0x9e3779b9u);
  unsigned acc = 0;
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < trips; ++k) {
    unsigned v[L];
#pragma unroll
    for (int j = 0; j < L; ++j) {
      x = x * 1664525u + 1013904223u;
      v[j] = (unsigned)p[U ? __umulhi(x, mask) : (x >> 7) & mask];  // U: mask is n
    }
#pragma unroll
    for (int j = 0; j < L; ++j) acc += v[j];
  }
  __syncwarp();
  long long t1 = clock64();
  out[g] = (int)acc;
  if ((threadIdx.x & 31) == 0) cyc[g >> 5] = t1 - t0;
}

// k_gfoot<4, 1> run by the first `active` lanes of each warp (the others skip the
// loop): GFOOT_SET=lanes.
__global__ void __launch_bounds__(256) k_gfoot_a(const int *p, unsigned n, int trips,
                                                 int active, int *out, long long *cyc) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = hash32(g + 0x9e3779b9u);
  unsigned acc = 0;
  long long t0 = clock64();
  if ((int)(threadIdx.x & 31) < active) {
#pragma unroll 1
    for (int k = 0; k < trips; ++k) {
      unsigned v[4];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        x = x * 1664525u + 1013904223u;
        v[j] = (unsigned)p[__umulhi(x, n)];
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) acc += v[j];
    }
  }
  __syncwarp();
  long long t1 = clock64();
  out[g] = (int)acc;
  if ((threadIdx.x & 31) == 0) cyc[g >> 5] = t1 - t0;
}

typedef void (*GatherK)(const int *, unsigned, int, int *, long long *);

static GatherK kernel_for(int L, bool u) {
  return u ? k_gfoot<4, 1> : L == 1 ? k_gfoot<1, 0> : k_gfoot<4, 0>;
}

// Time one case (or, profiling, launch it once behind its flush), check every thread's
// sum against want(thread), and write the warps' clock64 cycles to the side table.
static void run_case(Bench &b, FILE *side, bool profile, Row &r, int grid, int trips, int L,
                     const std::function<void()> &launch, const std::function<unsigned(int)> &want,
                     const int *out, const long long *cyc, std::vector<int> &ho,
                     std::vector<long long> &hc) {
  const int block = 256, warps = grid * block / 32;
  const char *ps = r.params.c_str();
  if (profile) {
    profile_case(b, launch);
    return;
  }
  r.t = time_case(b, 5, true, launch);
  emit(b, r);
  CK(cudaMemcpy(ho.data(), out, sizeof(int) * grid * block, cudaMemcpyDeviceToHost));
  for (int t = 0; t < grid * block; ++t)
    REQUIRE((unsigned)ho[t] == want(t), "%s thread %d: %u != %u", ps, t, (unsigned)ho[t],
            want(t));
  CK(cudaMemcpy(hc.data(), cyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
  std::vector<double> v(hc.begin(), hc.begin() + warps);
  std::sort(v.begin(), v.end());
  double med = median_of(v), p10 = v[(size_t)(0.1 * (warps - 1))],
         p90 = v[(size_t)(0.9 * (warps - 1))];
  fprintf(side, "%s,%s,%s,%d,%d,%d,%.0f,%.0f,%.0f,%.1f,%.1f\n", r.family.c_str(), r.name.c_str(),
          ps, grid, warps, trips, med, p10, p90, med / trips, med / trips / L);
  fflush(side);
  fprintf(stderr, "      %-34s %9.1f cycles a trip\n", ps, med / trips);
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "gfoot_cycles.csv",
                               "family,name,params,blocks,warps,trips,cyc_med,cyc_p10,cyc_p90,"
                               "cyc_per_trip,cyc_per_load\n");
  const bool profile = getenv("GFOOT_PROFILE") != nullptr;
  const bool lanes = getenv("GFOOT_SET") && !strcmp(getenv("GFOOT_SET"), "lanes");
  const bool u = lanes || (getenv("GFOOT_SET") && !strcmp(getenv("GFOOT_SET"), "l2"));
  const int SMS = b.sm_count;
  const size_t nmax = size_t(1) << (u ? 25 : 24);  // 64 (128) MiB of int
  int *p, *out;
  long long *cyc;
  CK(cudaMalloc(&p, nmax * 4));
  CK(cudaMemset(p, 1, nmax * 4));  // every int 0x01010101
  const size_t maxthreads = (size_t)SMS * 2048;
  CK(cudaMalloc(&out, maxthreads * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * maxthreads / 32));
  for (int L : {1, 4})
    CK(cudaFuncSetAttribute((const void *)kernel_for(L, u),
                            cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  CK(cudaFuncSetAttribute((const void *)k_gfoot_a,
                          cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  std::vector<long long> hc(maxthreads / 32);
  std::vector<int> ho(maxthreads);
  if (lanes) {
    for (int bpsm : {1, 4})
      for (int f : {1024, 4096, 16384, 32768})
        for (int a : {1, 2, 4, 8, 16}) {
          const unsigned n = (unsigned)((size_t)f * 1024 / 4);
          const int grid = SMS * bpsm, block = 256, warps = grid * block / 32, trips = 64;
          Row r;
          r.family = "gfoot";
          r.name = "gather_a";
          char ps[128];
          snprintf(ps, sizeof ps, "fp=%dK w=%d L=4 a=%d trips=%d", f, 8 * bpsm, a, trips);
          r.params = ps;
          row_shape(r, k_gfoot_a, dim3(grid), dim3(block), 0);
          r.bytes = (unsigned long long)warps * a * trips * 4 * 4;
          run_case(
              b, side, profile, r, grid, trips, 4,
              [&] { k_gfoot_a<<<grid, block, 0, b.stream>>>(p, n, trips, a, out, cyc); },
              [&](int t) { return (t & 31) < a ? (unsigned)(trips * 4) * 0x01010101u : 0u; }, out,
              cyc, ho, hc);
        }
    fclose(side);
    bench_close(b);
    return 0;
  }

  // footprints in KiB
  const std::vector<int> kib =
      u ? std::vector<int>{16384, 24576, 32768, 40960, 49152, 57344, 65536, 81920, 98304, 131072}
        : std::vector<int>{16, 64, 128, 192, 256, 384, 512, 1024, 4096, 16384, 65536};
  const std::vector<int> Ls = u ? std::vector<int>{4} : std::vector<int>{1, 4};
  const std::vector<int> bpsms = u ? std::vector<int>{4, 8} : std::vector<int>{1, 4, 8};
  for (int L : Ls)
    for (int bpsm : bpsms)
      for (int f : kib) {
        const size_t n = (size_t)f * 1024 / 4;
        const unsigned mask = (unsigned)(u ? n : n - 1);
        const int grid = SMS * bpsm, block = 256;
        const int trips = 256 / L;
        GatherK k = kernel_for(L, u);
        Row r;
        r.family = "gfoot";
        r.name = u ? "gather_u" : "gather";
        char ps[128];
        snprintf(ps, sizeof ps, "fp=%dK w=%d L=%d trips=%d", f, 8 * bpsm, L, trips);
        r.params = ps;
        row_shape(r, k, dim3(grid), dim3(block), 0);
        r.bytes = (unsigned long long)grid * block * trips * L * 4;
        // every thread sums trips * L words of 0x01010101
        run_case(
            b, side, profile, r, grid, trips, L,
            [&] { k<<<grid, block, 0, b.stream>>>(p, mask, trips, out, cyc); },
            [&](int) { return (unsigned)(trips * L) * 0x01010101u; }, out, cyc, ho, hc);
      }
  fclose(side);
  bench_close(b);
  return 0;
}
