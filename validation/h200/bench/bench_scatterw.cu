// bench_scatterw.cu - random stores whose lanes each name their own line, under load
// (family `scatterw`): what a store costs when it writes part of a sector, a whole
// sector or a whole line of a random line that no other store completes, and what the
// same bytes cost written by several narrower stores.
//
// Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip issues L
// independent stores of W bytes (W = 4, 8, 16), each one `st.global.v{1,2,4}.b32` in
// inline PTX so that ptxas keeps it one STG (left to itself it wrote the first int4 of
// the L = 4 trip as four STG.E, run12), or with S = W / 4 as W / 4 `st.global.b32`
// stores to its consecutive words (one STG.E each: a store of W bytes split). The
// addresses come from a per-group LCG in registers (no index loads), as bench_scatter's
// gathers: lanes are grouped c to a group, a group draws one random 128-byte line per
// store and its lanes write consecutive W-byte pieces of it, so a group writes c * W
// bytes (c = 1: part of one sector; W * c = 32: one whole sector; W * c = 128: a whole
// line). Only the first `a` lanes of each warp run the loop.
//   ws=l2     n = 2^21 ints (8 MiB), read before each launch (its lines in L2, clean)
//   ws=dram   n = 2^26 ints (256 MiB), the 1 GiB memset flush before each launch
//             (the benches' cold start: the L2 full of the memset's dirty lines)
//   ws=dramc  the same, the L2 emptied by reading the 1 GiB scratch instead (clean)
//   ws=big    n = 2^28 ints (1 GiB), the memset flush
// Launch: w warps per SM on every SM: one block of 32 w threads per SM (w <= 32) or
// two blocks of 1024 (w = 64).
// Rows: event time (median of 5 after 2 warm-ups); the side table scatterw_cycles.csv
// has the clock64 cycles per trip of each warp's loop (median, p10, p90 over warps).
// Check: every store writes a non-zero value and the buffer is zeroed before each case;
// the words the first group of warp 0 wrote on its last trip are read back non-zero.
// Profile: SCATTERW_PROFILE=1 bench_scatterw OUT.csv CYCLES.csv [device] launches each
// of a few cases at 64 warps per SM and one store a trip once, after its flush or warm
// read, untimed (for ncu: run_scatterw.sh's ncu_scatterw.csv).
#include "common.cuh"

// One W-byte piece of value v at q, as one vector store (S = 1) or as W / 4 word stores
// (S = W / 4); inline PTX, so that the SASS has exactly that many STGs.
template <int W, int S>
__device__ __forceinline__ void put(int *q, int v) {
  if (S > 1) {
#pragma unroll
    for (int e = 0; e < W / 4; ++e)
      asm volatile("st.global.b32 [%0], %1;" ::"l"(q + e), "r"(v) : "memory");
  } else if (W == 4) {
    asm volatile("st.global.b32 [%0], %1;" ::"l"(q), "r"(v) : "memory");
  } else if (W == 8) {
    asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(q), "r"(v), "r"(v) : "memory");
  } else {
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(q), "r"(v), "r"(v), "r"(v),
                 "r"(v)
                 : "memory");
  }
}

template <int L, int W, int S>
__global__ void __launch_bounds__(1024, 2)
    k_scatterw(int *p, unsigned lmask, int trips, int a, int c, unsigned *out, long long *cyc) {
  const int lane = threadIdx.x & 31;
  const unsigned gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned off = (unsigned)(lane % c) * (W / 4);  // ints into the line
  unsigned x = hash32(gw * 32u + (unsigned)(lane / c) + 0x9e3779b9u);
  long long t0 = clock64();
  if (lane < a) {
#pragma unroll 1
    for (int k = 0; k < trips; ++k) {
#pragma unroll
      for (int j = 0; j < L; ++j) {
        x = x * 1664525u + 1013904223u;
        put<W, S>(p + (size_t)((x >> 9) & lmask) * 32u + off, (k * L + j) | 1);
      }
    }
  }
  __syncwarp();
  long long t1 = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
  if (lane == 0) cyc[gw] = t1 - t0;
}

typedef void (*StoreK)(int *, unsigned, int, int, int, unsigned *, long long *);

template <int W, int S>
static StoreK kernel_ws(int L) {
  return L == 1 ? k_scatterw<1, W, S> : k_scatterw<4, W, S>;
}

static StoreK kernel_for(int L, int W, int S) {
  if (S > 1) return W == 8 ? kernel_ws<8, 2>(L) : kernel_ws<16, 4>(L);
  return W == 4 ? kernel_ws<4, 1>(L) : W == 8 ? kernel_ws<8, 1>(L) : kernel_ws<16, 1>(L);
}

struct Case {
  int ws;  // 0 l2, 1 dram, 2 dramc, 3 big
  int w, a, c, W, L;
  int S;  // stores a piece is written with: 1, or W / 4 word stores
};

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "scatterw_cycles.csv",
                               "family,name,params,blocks,warps,trips,cyc_med,cyc_p10,"
                               "cyc_p90,cyc_per_trip,cyc_per_store\n");
  const int SMS = b.sm_count;
  const size_t nmax = size_t(1) << 28;  // 1 GiB of int
  const int kWs[4] = {21, 26, 26, 28};
  const char *wsname[4] = {"l2", "dram", "dramc", "big"};
  int *p;
  unsigned *out;
  long long *cyc;
  CK(cudaMalloc(&p, nmax * 4));
  const size_t maxthreads = (size_t)SMS * 2048;
  CK(cudaMalloc(&out, maxthreads * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * maxthreads / 32));
  for (int W : {4, 8, 16})
    for (int L : {1, 4})
      for (int S : {1, W / 4}) {
        StoreK k = kernel_for(L, W, S);
        CK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                0));
      }

  std::vector<Case> cases;
  // (W, c): part of a sector (4,1) (8,1) (16,1); a whole sector (4,8) (16,2); a whole
  // line (4,32) (16,8)
  const int pats[7][2] = {{4, 1}, {8, 1}, {16, 1}, {4, 8}, {16, 2}, {4, 32}, {16, 8}};
  for (int ws : {0, 1, 3})
    for (int L : {1, 4})
      for (int w : {1, 4, 16, 64})
        for (auto &pt : pats) cases.push_back({ws, w, 32, pt[1], pt[0], L, 1});
  // a clean L2 before the launch; one active lane a warp
  for (int w : {4, 16, 64})
    for (auto &pt : pats) cases.push_back({2, w, 32, pt[1], pt[0], 4, 1});
  for (int ws : {1, 2})
    for (int w : {16, 64}) cases.push_back({ws, w, 1, 1, 4, 4, 1});
  // each piece of 8 or 16 bytes written as 2 or 4 word stores: part of a sector (8,1)
  // (16,1), two halves of a sector (8,4), a whole sector (16,2), a whole line (16,8)
  const int splits[5][2] = {{8, 1}, {16, 1}, {8, 4}, {16, 2}, {16, 8}};
  for (int ws : {0, 1})
    for (int L : {1, 4})
      for (int w : {4, 16, 64})
        for (auto &pt : splits) cases.push_back({ws, w, 32, pt[1], pt[0], L, pt[0] / 4});

  std::vector<long long> hc(maxthreads / 32);
  if (getenv("SCATTERW_PROFILE")) {
    // (W, c, S) at ws = dram and l2, w = 64, L = 1: each piece whole or split
    const int prof[12][3] = {{4, 1, 1},  {8, 1, 1},  {8, 1, 2},  {16, 1, 1},
                             {16, 1, 4}, {16, 2, 1}, {16, 2, 4}, {8, 4, 1},
                             {8, 4, 2},  {4, 8, 1},  {16, 8, 1}, {16, 8, 4}};
    for (int ws : {1, 0})
      for (auto &pc : prof) {
        const size_t n = size_t(1) << kWs[ws];
        CK(cudaMemsetAsync(p, 0, n * 4, b.stream));
        if (ws == 0)
          k_warm<<<SMS * 4, 512, 0, b.stream>>>((const int4 *)p, n / 4, (int *)out);
        else
          flush_l2(b);
        kernel_for(1, pc[0], pc[2])<<<2 * SMS, 1024, 0, b.stream>>>(
            p, (unsigned)(n / 32 - 1), 256, 32, pc[1], out, cyc);
        CK_LAUNCH();
        CK(cudaStreamSynchronize(b.stream));
      }
    cases.clear();  // nothing timed
  }
  for (const Case &cs : cases) {
    const size_t n = size_t(1) << kWs[cs.ws];
    const unsigned lmask = (unsigned)(n / 32 - 1);
    const int block = cs.w <= 32 ? 32 * cs.w : 1024;
    const int grid = cs.w <= 32 ? SMS : 2 * SMS;
    const int warps = grid * block / 32;
    const int trips = 256 / cs.L;
    StoreK k = kernel_for(cs.L, cs.W, cs.S);
    Row r;
    r.family = "scatterw";
    r.name = "store";
    char ps[128];
    snprintf(ps, sizeof ps, "ws=%s w=%d a=%d c=%d W=%d L=%d S=%d trips=%d", wsname[cs.ws],
             cs.w, cs.a, cs.c, cs.W, cs.L, cs.S, trips);
    r.params = ps;
    row_shape(r, k, dim3(grid), dim3(block), 0);
    r.bytes = (unsigned long long)warps * cs.a * trips * cs.L * cs.W;
    CK(cudaMemsetAsync(p, 0, n * 4, b.stream));
    CK(cudaStreamSynchronize(b.stream));
    auto pre = [&] {
      if (cs.ws == 0) {
        k_warm<<<SMS * 4, 512, 0, b.stream>>>((const int4 *)p, n / 4, (int *)out);
      } else if (cs.ws == 2) {
        k_readall<<<SMS * 4, 512, 0, b.stream>>>((const float4 *)b.scratch, kScratchBytes / 16,
                                                 (float *)out);
      }
    };
    const bool memset_flush = cs.ws == 1 || cs.ws == 3;
    r.t = time_case(b, 5, memset_flush,
                    [&] { k<<<grid, block, 0, b.stream>>>(p, lmask, trips, cs.a, cs.c, out, cyc); },
                    pre);
    emit(b, r);
    // check: the words group 0 of warp 0 (lanes 0 .. c-1) wrote on its last trip
    {
      unsigned x = hash32(0u * 32u + 0u + 0x9e3779b9u), last = 0;
      for (int t = 0; t < trips * cs.L; ++t) {
        x = x * 1664525u + 1013904223u;
        last = x;
      }
      const size_t base = (size_t)((last >> 9) & lmask) * 32u;
      std::vector<int> h(32);
      CK(cudaMemcpy(h.data(), p + base, 128, cudaMemcpyDeviceToHost));
      for (int l = 0; l < cs.c && l < cs.a; ++l)
        for (int e = 0; e < cs.W / 4; ++e)
          REQUIRE(h[l * (cs.W / 4) + e] != 0, "%s: word %d of line %zu not written", ps,
                  l * (cs.W / 4) + e, base / 32);
    }
    CK(cudaMemcpy(hc.data(), cyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
    std::vector<double> v(hc.begin(), hc.begin() + warps);
    std::sort(v.begin(), v.end());
    double med = median_of(v), p10 = v[(size_t)(0.1 * (warps - 1))],
           p90 = v[(size_t)(0.9 * (warps - 1))];
    fprintf(side, "%s,%s,%s,%d,%d,%d,%.0f,%.0f,%.0f,%.1f,%.1f\n", r.family.c_str(),
            r.name.c_str(), ps, grid, warps, trips, med, p10, p90, med / trips,
            med / trips / cs.L);
    fflush(side);
    fprintf(stderr, "      %-44s %9.2f us %9.1f cycles a trip\n", ps, r.t.median_us, med / trips);
  }
  fclose(side);
  bench_close(b);
  return 0;
}
