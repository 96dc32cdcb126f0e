// bench_sweepg.cu - gathers into a buffer that the same launch reads in order (family
// `sweepg`): whether a random read finds in L2 what the launch's coalesced reads of the
// same buffer have brought in so far, as a graph level's vertex scan does (every thread
// reads level[v], the frontier's threads then read level[u] at random neighbours u).
//
// k_sg<K, SWEEP, A, CHAIN>: thread g of n = the buffer's words (blocks of 256):
//   v = SWEEP ? x[g] : y[g]         the coalesced read, of x itself or of y (same size)
//   if (v >= 0)                     always true; the gathers wait for the read (a branch)
//     lanes l < A of each warp: K gathers x[w] at random words w of the n (an LCG in
//     registers, w = (h >> 7) & (n - 1)), unrolled; CHAIN 1: each gather's word also
//     adds (bits of the last value & zero), zero = 0 at run time, so they run one after
//     another (a BFS level's trips behind its in-place stores wait so)
//   out[g] = the sum.
// n = 2^18 .. 2^24 words (1 to 64 MiB), K = 1, 4, 16, A = 32 (every lane) or 1 (lane 0
// of each warp), every case behind the memset flush of the 1 GiB scratch (median of 5
// after 2 warm-ups). The side table sweepg_cycles.csv has, per case, the clock64 cycles
// of each block (thread 0, from its first instruction to its store): the median over
// the blocks and the means over the first and the last tenth of the blocks (blockIdx
// order, about the order the blocks start in).
//
// usage: bench_sweepg OUT.csv SIDE.csv [device]
//        SWEEPG_PROFILE=1 bench_sweepg OUT.csv SIDE.csv [device]: one launch of each case
//        behind its flush, for ncu (run_sweepg.sh)
#include "common.cuh"

template <int K, int SWEEP, int A, int CHAIN>
__global__ void __launch_bounds__(256) k_sg(const float *x, const float *y, unsigned mask,
                                            unsigned zero, float *out, long long *cyc) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  long long t0 = clock64();
  float v = SWEEP ? x[g] : y[g];
  if (v >= 0.0f && (A == 32 || lane < A)) {
    unsigned h = hash32(g ^ 0x2545f491u);
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      h = h * 1664525u + 1013904223u;
      float w = x[((h >> 7) + (CHAIN ? (__float_as_uint(s) & zero) : 0u)) & mask];
      s += w;
    }
    v += s;
  }
  out[g] = v;
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

typedef void (*kern_t)(const float *, const float *, unsigned, unsigned, float *, long long *);

struct Var {
  int k, sweep, a, chain;
  kern_t f;
};

#define KV(K, S, A, C) {K, S, A, C, k_sg<K, S, A, C>}
static const Var kVars[] = {
    KV(1, 1, 32, 0),  KV(4, 1, 32, 0),  KV(16, 1, 32, 0), KV(1, 0, 32, 0),
    KV(4, 0, 32, 0),  KV(16, 0, 32, 0), KV(1, 1, 1, 0),   KV(4, 1, 1, 0),
    KV(16, 1, 1, 0),  KV(1, 0, 1, 0),   KV(4, 0, 1, 0),   KV(16, 0, 1, 0),
    KV(4, 1, 32, 1),  KV(16, 1, 32, 1), KV(4, 0, 32, 1),  KV(16, 0, 32, 1),
    KV(4, 1, 1, 1),   KV(16, 1, 1, 1),  KV(4, 0, 1, 1),   KV(16, 0, 1, 1),
};
#undef KV

// x[i] = (i % 7) * 0.25: exact float sums.
static float xval(size_t i) { return float(i % 7) * 0.25f; }

// Host mirror of thread g's output.
static float want_of(const Var &v, unsigned mask, size_t g) {
  float val = xval(g);  // y holds the same values as x
  int lane = int(g & 31);
  if (v.a == 32 || lane < v.a) {
    unsigned h = hash32(unsigned(g) ^ 0x2545f491u);
    float s = 0.f;
    for (int k = 0; k < v.k; ++k) {
      h = h * 1664525u + 1013904223u;
      s += xval((h >> 7) & mask);
    }
    val += s;
  }
  return val;
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "sweepg_cycles.csv",
                               "family,name,params,blocks,cycles_median,cycles_first10,"
                               "cycles_last10\n");
  const int lg_max = 24;
  const size_t nmax = size_t(1) << lg_max;
  float *x, *y, *out;
  long long *cyc;
  CK(cudaMalloc(&x, nmax * 4));
  CK(cudaMalloc(&y, nmax * 4));
  CK(cudaMalloc(&out, nmax * 4));
  CK(cudaMalloc(&cyc, (nmax / 256) * sizeof(long long)));
  fill_pattern(x, nmax, 7, 0.25f);
  fill_pattern(y, nmax, 7, 0.25f);
  const bool profile = getenv("SWEEPG_PROFILE") != nullptr;
  for (const Var &v : kVars) {
    for (int lg : {18, 20, 22, 24}) {
      const size_t n = size_t(1) << lg;
      const unsigned mask = unsigned(n - 1);
      const unsigned blocks = unsigned(n / 256);
      Row r;
      r.family = "sweepg";
      r.name = std::string(v.sweep ? "sweep" : "other") + (v.chain ? "_chain" : "_ind");
      r.params = "n=2^" + std::to_string(lg) + " K=" + std::to_string(v.k) +
                 " A=" + std::to_string(v.a);
      row_shape(r, v.f, dim3(blocks), dim3(256), 0);
      r.params += " regs=" + std::to_string(r.regs);
      r.bytes = (unsigned long long)n * 8;
      auto launch = [&] { v.f<<<blocks, 256, 0, b.stream>>>(x, y, mask, 0u, out, cyc); };
      if (profile) {
        profile_case(b, launch);
        continue;
      }
      r.t = time_case(b, 5, true, launch);
      CK(cudaDeviceSynchronize());
      check_spread(r.name.c_str(), out, n, [&](size_t g) { return want_of(v, mask, g); });
      std::vector<long long> h(blocks);
      CK(cudaMemcpy(h.data(), cyc, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
      size_t tenth = std::max<size_t>(1, blocks / 10);
      double first = 0, last = 0;
      for (size_t i = 0; i < tenth; ++i) {
        first += double(h[i]);
        last += double(h[blocks - 1 - i]);
      }
      std::vector<double> hd(h.begin(), h.end());
      fprintf(side, "%s,%s,%s,%u,%.0f,%.0f,%.0f\n", r.family.c_str(), r.name.c_str(),
              r.params.c_str(), blocks, median_of(hd), first / tenth, last / tenth);
      fflush(side);
      emit(b, r);
    }
  }
  fclose(side);
  CK(cudaFree(x));
  CK(cudaFree(y));
  CK(cudaFree(out));
  CK(cudaFree(cyc));
  bench_close(b);
  return 0;
}
