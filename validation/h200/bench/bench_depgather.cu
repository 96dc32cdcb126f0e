// bench_depgather.cu - gathers whose addresses come from an index stream, against the
// same gathers and the same stream apart (raw data, no rows in calibration.csv): what
// the index load a gather waits for costs under load.
//
// Each thread runs `trips` trips of a grid-stride loop over the index array idx (ints,
// const __restrict__, coalesced), i = (g + k G) & (ni - 1):
//   dep    u = idx[i];               acc += p[u]            the gather waits for its index
//   indep  u = lcg(x) & (np - 1);    acc += idx[i] + p[u]   the same two loads, the gather's
//                                                           address from registers
//   gonly  u = lcg(x) & (np - 1);    acc += p[u]            the gathers alone
//   ionly                            acc += idx[i]          the index stream alone
//   gplain u = lcg(x) & (np - 1);    acc += q[u]            gonly through a plain pointer
//                                                           (LDG.E, not LDG.E.CONSTANT)
// idx holds random ints in [0, np) (xorshift64, as bench_alias); lcg is the LCG of
// bench_scatter, one state a thread. The loop is pinned to one copy or to four
// (`#pragma unroll U`: four index loads, then four gathers). Blocks of 256 threads,
// `bpsm` of them per SM on every SM (pinned with dynamic shared memory; 8: 64 warps).
//   ws=dram  ni = np = 2^26 (256 MiB each), the benches' memset flush before each launch
//   ws=l2    ni = np = 2^21 (8 MiB each), no flush: both in L2 after the warm-ups
// A second sweep runs gonly and gplain for 256 trips (the start of a launch weighs a
// quarter as much).
// Rows: event time (median of 9 after 2 warm-ups); the side table depgather_cycles.csv
// has the clock64 cycles of each block's loop (median, min, max over blocks) per trip.
// Check: acc is stored, so no load is dead; the first thread's sum is read back and
// compared with the host's for the dep kernel at ws=l2.
#include "common.cuh"

enum { K_DEP = 0, K_INDEP, K_GONLY, K_IONLY, K_GPLAIN, K_COUNT };

template <int KIND, int U>
__global__ void k_gather(const int *__restrict__ idx, const int *__restrict__ p, int trips,
                         unsigned imask, unsigned pmask, int *out, long long *cyc,
                         const int *q) {
  long long t0 = clock64();
  const size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const size_t G = (size_t)gridDim.x * blockDim.x;
  unsigned x = hash32((unsigned)g + 0x9e3779b9u);
  int acc = 0;
#pragma unroll U
  for (int k = 0; k < trips; ++k) {
    const unsigned i = (unsigned)(g + (size_t)k * G) & imask;
    if (KIND == K_DEP) {
      acc += p[idx[i]];
    } else if (KIND == K_INDEP) {
      x = x * 1664525u + 1013904223u;
      acc += idx[i] + p[(x >> 6) & pmask];
    } else if (KIND == K_GONLY) {
      x = x * 1664525u + 1013904223u;
      acc += p[(x >> 6) & pmask];
    } else if (KIND == K_GPLAIN) {
      x = x * 1664525u + 1013904223u;
      acc += q[(x >> 6) & pmask];
    } else {
      acc += idx[i];
    }
  }
  __syncthreads();
  out[g] = acc;
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

typedef void (*GatherK)(const int *, const int *, int, unsigned, unsigned, int *, long long *,
                        const int *);

template <int U>
static GatherK kernel_u(int kind) {
  switch (kind) {
    case K_DEP: return k_gather<K_DEP, U>;
    case K_INDEP: return k_gather<K_INDEP, U>;
    case K_GONLY: return k_gather<K_GONLY, U>;
    case K_GPLAIN: return k_gather<K_GPLAIN, U>;
    default: return k_gather<K_IONLY, U>;
  }
}

static GatherK kernel_for(int kind, int unroll) {
  return unroll == 1 ? kernel_u<1>(kind) : kernel_u<4>(kind);
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "depgather_cycles.csv",
                               "family,name,params,blocks,trips,cyc_med,cyc_min,cyc_max,"
                               "cyc_per_trip\n");
  const int sms = b.sm_count;
  const size_t nbig = size_t(1) << 26;  // 256 MiB of int: DRAM
  const size_t nl2 = size_t(1) << 21;   // 8 MiB: L2
  const char *names[K_COUNT] = {"dep", "indep", "gonly", "ionly", "gplain"};
  int *idx, *idx_l2, *p, *out;
  long long *cyc;
  CK(cudaMalloc(&idx, nbig * 4));
  CK(cudaMalloc(&idx_l2, nl2 * 4));
  CK(cudaMalloc(&p, nbig * 4));
  CK(cudaMalloc(&out, sizeof(int) * sms * 2048));
  CK(cudaMalloc(&cyc, sizeof(long long) * sms * 8));
  std::vector<int> h(nbig), hl2(nl2);
  {
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < nbig; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      h[i] = (int)(x % nbig);
    }
    for (size_t i = 0; i < nl2; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      hl2[i] = (int)(x % nl2);
    }
    CK(cudaMemcpy(idx, h.data(), nbig * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(idx_l2, hl2.data(), nl2 * 4, cudaMemcpyHostToDevice));
  }
  {
    // p[j] = j & 1023: a sum the host can check
    std::vector<int> hp(nbig);
    for (size_t j = 0; j < nbig; ++j) hp[j] = (int)(j & 1023);
    CK(cudaMemcpy(p, hp.data(), nbig * 4, cudaMemcpyHostToDevice));
  }
  for (int u : {1, 4})
    for (int kind = 0; kind < K_COUNT; ++kind) {
      GatherK k = kernel_for(kind, u);
      allow_dyn_smem(k, dyn_smem_for_bpsm(b.prop, 1));
    }
  // the first sweep: every kind, 64 trips; the second: the gathers alone, plain and
  // read-only, 256 trips (the start of a launch weighs a quarter as much)
  for (int sweep = 0; sweep < 2; ++sweep)
  for (int ws = 0; ws < 2; ++ws)
    for (int u : {1, 4})
      for (int kind = 0; kind < K_COUNT; ++kind)
        for (int bpsm : {1, 2, 4, 8}) {
          if (sweep == 0 ? kind == K_GPLAIN : kind != K_GONLY && kind != K_GPLAIN) continue;
          const int trips = sweep == 0 ? 64 : 256;
          const bool dram = ws == 0;
          const size_t n = dram ? nbig : nl2;
          const int *ix = dram ? idx : idx_l2;
          const int grid = sms * bpsm;
          const size_t dyn = bpsm == 8 ? 0 : dyn_smem_for_bpsm(b.prop, bpsm);
          GatherK k = kernel_for(kind, u);
          const unsigned mask = (unsigned)(n - 1);
          Row r;
          r.family = "depgather";
          r.name = names[kind];
          char ps[96];
          snprintf(ps, sizeof ps, "ws=%s u=%d bpsm=%d trips=%d n=2^%d", dram ? "dram" : "l2", u,
                   bpsm, trips, __builtin_ctzll(n));
          r.params = ps;
          row_shape(r, k, dim3(grid), dim3(256), dyn);
          r.t = time_case(b, 9, dram,
                          [&] { k<<<grid, 256, dyn, b.stream>>>(ix, p, trips, mask, mask, out, cyc, p); });
          emit(b, r);
          if (!dram && kind == K_DEP && u == 1 && sweep == 0) {
            // thread 0: sum over k of p[idx[(k G) & mask]] = idx value & 1023
            const size_t G = (size_t)grid * 256;
            long long want = 0;
            for (int t = 0; t < trips; ++t) want += hl2[(size_t)t * G & (nl2 - 1)] & 1023;
            int got = 0;
            CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
            if ((long long)got != want) {
              fprintf(stderr, "check failed: %s %s: %d, want %lld\n", r.name.c_str(), ps, got, want);
              return 1;
            }
          }
          const Cycles c = block_cycles(cyc, grid);
          fprintf(side, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.1f\n", r.family.c_str(), r.name.c_str(),
                  r.params.c_str(), grid, trips, c.median, c.min, c.max, c.median / trips);
          fflush(side);
          fprintf(stderr, "      %-6s %-34s %8.1f cycles a trip\n", r.name.c_str(), ps, c.median / trips);
        }
  return 0;
}
