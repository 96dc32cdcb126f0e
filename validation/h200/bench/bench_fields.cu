// bench_fields.cu - a record's fields read at a random index (family `fields`): what the
// second and later word loads of a record cost when the first brought its line, against
// one vector load of the record and against as many words from lines of their own.
//
// Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip draws a random
// record index from a per-thread LCG in registers (no index loads) and reads F = 1, 2
// or 4 words (F * 4 bytes), adding them up at the trip's end:
//   mode=vec    one `ld.global.v{1,2,4}.b32` of the record (one LDG of F * 4 bytes)
//   mode=words  F `ld.global.b32` of the record's consecutive words (F LDG.E at the
//               address plus 0, 4, ...: the same line, one draw)
//   mode=apart  F `ld.global.b32`, each of the first word of a record of its own (F
//               draws, F lines)
// Records are 16 bytes (4 words), aligned, 8 a 128-byte line; a lane's record is its own
// random line (the lanes draw apart). Loads through inline PTX, so that the SASS has
// exactly the loads the mode says.
//   ws=l2    n = 2^21 ints (8 MiB), warmed by a coalesced read before each launch
//   ws=dram  n = 2^26 ints (256 MiB), the memset flush before each launch
// Launch: w warps per SM on every SM: one block of 32 w threads per SM (w <= 32) or two
// blocks of 1024 (w = 64).
// Rows: event time (median of 5 after 2 warm-ups); the side table fields_cycles.csv has
// the clock64 cycles per trip of each warp's loop (median, p10, p90 over warps).
// Check: every word is 0x01010101, so each thread sums trips * F of them.
#include "common.cuh"

enum Mode { VEC, WORDS, APART };

__device__ __forceinline__ unsigned ld1(const int *q) {
  unsigned v;
  asm volatile("ld.global.b32 %0, [%1];" : "=r"(v) : "l"(q) : "memory");
  return v;
}

template <int F, int M>
__global__ void __launch_bounds__(1024, 2)
    k_fields(const int *p, unsigned rmask, int trips, int *out, long long *cyc) {
  const int lane = threadIdx.x & 31;
  const unsigned gt = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned x = hash32(gt + 0x9e3779b9u), acc = 0;
  long long t0 = clock64();
#pragma unroll 1
  for (int k = 0; k < trips; ++k) {
    x = x * 1664525u + 1013904223u;
    const int *q = p + (size_t)((x >> 7) & rmask) * 4u;  // a record: 4 ints
    if (M == VEC) {
      if (F == 1) {
        acc += ld1(q);
      } else if (F == 2) {
        unsigned a, b;
        asm volatile("ld.global.v2.b32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(q) : "memory");
        acc += a + b;
      } else {
        unsigned a, b, c, d;
        asm volatile("ld.global.v4.b32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "l"(q)
                     : "memory");
        acc += a + b + c + d;
      }
    } else if (M == WORDS) {
#pragma unroll
      for (int f = 0; f < F; ++f) acc += ld1(q + f);
    } else {
      acc += ld1(q);
#pragma unroll
      for (int f = 1; f < F; ++f) {
        x = x * 1664525u + 1013904223u;
        acc += ld1(p + (size_t)((x >> 7) & rmask) * 4u);
      }
    }
  }
  __syncwarp();
  long long t1 = clock64();
  out[gt] = (int)acc;
  if (lane == 0) cyc[gt >> 5] = t1 - t0;
}

typedef void (*FieldsK)(const int *, unsigned, int, int *, long long *);

template <int F>
static FieldsK kernel_f(int m) {
  return m == VEC ? k_fields<F, VEC> : m == WORDS ? k_fields<F, WORDS> : k_fields<F, APART>;
}

static FieldsK kernel_for(int F, int m) {
  return F == 1 ? kernel_f<1>(m) : F == 2 ? kernel_f<2>(m) : kernel_f<4>(m);
}

struct Case {
  int ws;  // 0 l2, 1 dram
  int w, F, mode;
};

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "fields_cycles.csv",
                               "family,name,params,blocks,warps,trips,cyc_med,cyc_p10,"
                               "cyc_p90,cyc_per_trip\n");
  const int SMS = b.sm_count;
  const size_t nmax = size_t(1) << 26;  // 256 MiB of int
  const int kWs[2] = {21, 26};
  const char *wsname[2] = {"l2", "dram"};
  const char *modename[3] = {"vec", "words", "apart"};
  int *p, *out;
  long long *cyc;
  CK(cudaMalloc(&p, nmax * 4));
  CK(cudaMemset(p, 1, nmax * 4));  // every int 0x01010101
  const size_t maxthreads = (size_t)SMS * 2048;
  CK(cudaMalloc(&out, maxthreads * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * maxthreads / 32));
  for (int F : {1, 2, 4})
    for (int m : {VEC, WORDS, APART})
      CK(cudaFuncSetAttribute((const void *)kernel_for(F, m),
                              cudaFuncAttributePreferredSharedMemoryCarveout, 0));

  std::vector<Case> cases;
  for (int ws = 0; ws < 2; ++ws)
    for (int w : {4, 16, 64}) {
      cases.push_back({ws, w, 1, VEC});
      for (int F : {2, 4})
        for (int m : {VEC, WORDS, APART}) cases.push_back({ws, w, F, m});
    }

  std::vector<long long> hc(maxthreads / 32);
  std::vector<int> ho(maxthreads);
  for (const Case &cs : cases) {
    const size_t n = size_t(1) << kWs[cs.ws];
    const unsigned rmask = (unsigned)(n / 4 - 1);
    const int block = cs.w <= 32 ? 32 * cs.w : 1024;
    const int grid = cs.w <= 32 ? SMS : 2 * SMS;
    const int warps = grid * block / 32;
    const int trips = 256;
    FieldsK k = kernel_for(cs.F, cs.mode);
    const bool cold = cs.ws != 0;
    Row r;
    r.family = "fields";
    r.name = modename[cs.mode];
    char ps[128];
    snprintf(ps, sizeof ps, "ws=%s w=%d F=%d trips=%d", wsname[cs.ws], cs.w, cs.F, trips);
    r.params = ps;
    row_shape(r, k, dim3(grid), dim3(block), 0);
    r.bytes = (unsigned long long)warps * 32 * trips * cs.F * 4;
    auto pre = [&] {
      if (!cold) k_warm<<<SMS * 4, 512, 0, b.stream>>>((const int4 *)p, n / 4, out);
    };
    r.t = time_case(b, 5, cold, [&] { k<<<grid, block, 0, b.stream>>>(p, rmask, trips, out, cyc); },
                    pre);
    emit(b, r);
    CK(cudaMemcpy(ho.data(), out, sizeof(int) * grid * block, cudaMemcpyDeviceToHost));
    const unsigned want = (unsigned)(trips * cs.F) * 0x01010101u;
    for (int t = 0; t < grid * block; ++t)
      REQUIRE((unsigned)ho[t] == want, "%s %s thread %d: %u != %u", r.name.c_str(), ps, t,
              (unsigned)ho[t], want);
    CK(cudaMemcpy(hc.data(), cyc, sizeof(long long) * warps, cudaMemcpyDeviceToHost));
    std::vector<double> v(hc.begin(), hc.begin() + warps);
    std::sort(v.begin(), v.end());
    double med = median_of(v), p10 = v[(size_t)(0.1 * (warps - 1))],
           p90 = v[(size_t)(0.9 * (warps - 1))];
    fprintf(side, "%s,%s,%s,%d,%d,%d,%.0f,%.0f,%.0f,%.1f\n", r.family.c_str(), r.name.c_str(),
            ps, grid, warps, trips, med, p10, p90, med / trips);
    fflush(side);
    fprintf(stderr, "      %-6s %-32s %9.1f cycles a trip\n", r.name.c_str(), ps, med / trips);
  }
  fclose(side);
  bench_close(b);
  return 0;
}
