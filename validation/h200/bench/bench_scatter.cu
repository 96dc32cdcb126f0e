// bench_scatter.cu - random gathers whose lanes each name their own line, under load
// (family `scatter`).
//
// Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip issues L
// independent 4-byte loads (unrolled) and adds them up at the trip's end, so a warp
// has L requests in flight and waits for them every trip. The addresses come from a
// per-group LCG in registers (no index loads): lanes are grouped c to a group, a group
// draws one random 128-byte line per load and its lanes read consecutive words of it
// (`spread`: one word per 32-byte sector, words 0, 8, 16, 24). Only the first `a`
// lanes of each warp run the loop (the others are predicated off, as in a BFS
// frontier), so a request names a / c distinct lines.
//   ws=l2    n = 2^21 ints (8 MiB), warmed by a coalesced read before each launch
//   ws=dram  n = 2^26 ints (256 MiB), the L2 flushed before each launch
//   ws=big   n = 2^28 ints (1 GiB), flushed (a few rows: page-walk reach)
// Launch: w warps per SM on `sms` SMs: one block of 32 w threads per SM (w <= 32;
// a grid of sms blocks lands one per SM) or two blocks of 1024 (w = 64).
// Rows: event time (median of 5 after 2 warm-ups); the side table scatter_cycles.csv
// has the clock64 cycles per trip of each warp's loop (median, p10, p90 over warps).
#include "common.cuh"

template <int L>
__global__ void __launch_bounds__(1024, 2)
    k_gather(const int *p, unsigned lmask, int trips, int a, int c, int spread, int *out,
             long long *cyc) {
  const int lane = threadIdx.x & 31;
  const unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned off = spread ? (unsigned)(lane % c) * 8u : (unsigned)(lane % c);
  unsigned x = hash32(gw * 32u + (unsigned)(lane / c) + 0x9e3779b9u);
  unsigned acc = 0;
  long long t0 = clock64();
  if (lane < a) {
#pragma unroll 1
    for (int k = 0; k < trips; ++k) {
      unsigned v[L];
#pragma unroll
      for (int j = 0; j < L; ++j) {
        x = x * 1664525u + 1013904223u;
        v[j] = (unsigned)p[(size_t)((x >> 9) & lmask) * 32u + off];
      }
#pragma unroll
      for (int j = 0; j < L; ++j) acc += v[j];
    }
  }
  __syncwarp();
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = (int)acc;
  if (lane == 0) cyc[gw] = t1 - t0;
}

typedef void (*GatherK)(const int *, unsigned, int, int, int, int, int *, long long *);

static GatherK kernel_for(int L) {
  switch (L) {
    case 1: return k_gather<1>;
    case 2: return k_gather<2>;
    case 4: return k_gather<4>;
    default: return k_gather<8>;
  }
}

struct Case {
  int ws;  // 0 l2, 1 dram, 2 big
  int w, a, c, spread, L, sms;
};

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "scatter_cycles.csv",
                               "family,name,params,blocks,warps,trips,lines_per_req,"
                               "cyc_med,cyc_p10,cyc_p90,cyc_per_trip,cyc_per_load\n");
  const int SMS = b.sm_count;
  const size_t nmax = size_t(1) << 28;  // 1 GiB of int
  const int kWs[3] = {21, 26, 28};
  const char *wsname[3] = {"l2", "dram", "big"};
  int *p, *out;
  long long *cyc;
  CK(cudaMalloc(&p, nmax * 4));
  CK(cudaMemset(p, 1, nmax * 4));  // every int 0x01010101
  const size_t maxthreads = (size_t)SMS * 2048;
  CK(cudaMalloc(&out, maxthreads * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * maxthreads / 32));
  for (int L : {1, 2, 4, 8}) {
    GatherK k = kernel_for(L);
    CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  }

  std::vector<Case> cases;
  const int pats[11][3] = {{1, 1, 0},  {2, 1, 0},  {4, 1, 0},  {8, 1, 0},
                           {16, 1, 0}, {32, 1, 0}, {32, 2, 0}, {32, 4, 0},
                           {32, 8, 0}, {32, 32, 0}, {32, 4, 1}};
  // the main sweep: l2 and dram, w 1..64, every pattern, 1 and 4 loads a trip
  for (int ws = 0; ws < 2; ++ws)
    for (int L : {1, 4})
      for (int w : {1, 2, 4, 8, 16, 32, 64})
        for (auto &pt : pats) cases.push_back({ws, w, pt[0], pt[1], pt[2], L, SMS});
  // 2 and 8 loads a trip, one and all lanes active
  for (int ws = 0; ws < 2; ++ws)
    for (int L : {2, 8})
      for (int w : {1, 4, 8, 16, 32, 64})
        for (int a : {1, 32}) cases.push_back({ws, w, a, 1, 0, L, SMS});
  // fewer SMs: a per-SM or a chip-wide limit?
  for (int ws = 0; ws < 2; ++ws)
    for (int s : {8, 33, 66})
      for (int L : {1, 4})
        for (int w : {8, 32}) cases.push_back({ws, w, 32, 1, 0, L, s});
  // 1 GiB: the page walks' reach
  for (int L : {1, 4})
    for (int w : {1, 8, 32, 64})
      for (int a : {1, 32}) cases.push_back({2, w, a, 1, 0, L, SMS});

  std::vector<long long> hc(maxthreads / 32);
  std::vector<int> ho(maxthreads);
  for (const Case &cs : cases) {
    const size_t n = size_t(1) << kWs[cs.ws];
    const unsigned lmask = (unsigned)(n / 32 - 1);
    const int block = cs.w <= 32 ? 32 * cs.w : 1024;
    const int grid = cs.w <= 32 ? cs.sms : 2 * cs.sms;
    const int warps = grid * block / 32;
    const int trips = 256 / cs.L;
    GatherK k = kernel_for(cs.L);
    const bool cold = cs.ws != 0;
    Row r;
    r.family = "scatter";
    r.name = "gather";
    char ps[128];
    snprintf(ps, sizeof ps, "ws=%s w=%d a=%d c=%d%s L=%d sms=%d trips=%d", wsname[cs.ws], cs.w,
             cs.a, cs.c, cs.spread ? "s" : "", cs.L, cs.sms, trips);
    r.params = ps;
    row_shape(r, k, dim3(grid), dim3(block), 0);
    r.bytes = (unsigned long long)warps * cs.a * trips * cs.L * 4;
    auto pre = [&] {
      if (!cold) k_warm<<<SMS * 4, 512, 0, b.stream>>>((const int4 *)p, n / 4, out);
    };
    r.t = time_case(b, 5, cold,
                    [&] { k<<<grid, block, 0, b.stream>>>(p, lmask, trips, cs.a, cs.c,
                                                          cs.spread, out, cyc); },
                    pre);
    emit(b, r);
    // check: every active lane summed trips * L words of 0x01010101
    CK(cudaMemcpy(ho.data(), out, sizeof(int) * grid * block, cudaMemcpyDeviceToHost));
    const unsigned want = (unsigned)(trips * cs.L) * 0x01010101u;
    for (int t = 0; t < grid * block; ++t) {
      unsigned got = (unsigned)ho[t], exp = (t % 32) < cs.a ? want : 0u;
      REQUIRE(got == exp, "%s thread %d: %u != %u", ps, t, got, exp);
    }
    CK(cudaMemcpy(hc.data(), cyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
    std::vector<double> v(hc.begin(), hc.begin() + warps);
    std::sort(v.begin(), v.end());
    double med = median_of(v), p10 = v[(size_t)(0.1 * (warps - 1))],
           p90 = v[(size_t)(0.9 * (warps - 1))];
    const int lines = cs.c == 32 ? 1 : (cs.a + cs.c - 1) / cs.c;
    fprintf(side, "%s,%s,%s,%d,%d,%d,%d,%.0f,%.0f,%.0f,%.1f,%.1f\n", r.family.c_str(),
            r.name.c_str(), ps, grid, warps, trips, lines, med, p10, p90, med / trips,
            med / trips / cs.L);
    fflush(side);
    fprintf(stderr, "      %-44s %9.1f cycles a trip\n", ps, med / trips);
  }
  fclose(side);
  bench_close(b);
  return 0;
}
