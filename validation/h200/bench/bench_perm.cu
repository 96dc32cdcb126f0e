// bench_perm.cu - stores through an index formula that scatters them (family `perm`):
// out[(A i + C) mod R] = in[i] for i < n, one 4-byte store a thread (blocks of 256, grid
// n / 256), A odd so that the index is a permutation of 0 .. R - 1 when n = R; C =
// 1013904223. A = 1664525 puts consecutive threads 6.3 MiB apart (mod R), A = 69069
// 270 KiB apart: every lane of a warp on its own line either way. R = 2^22 (16 MiB, the
// L2 holds it), 2^24, 2^26 and 2^28 floats (1 GiB), n from 2^16 to R: from one store
// in 4096 elements of `out` to all of them (a full permutation). `in` is read
// coalesced through const __restrict__ (LDG.E.CONSTANT). The 1 GiB memset flush before
// every repetition (the other benches' cold L2, dirty lines included); `out` is zeroed
// once per case. After the timed runs 4096 threads' stores are checked.
//
// What it asks: where a store that writes part of a sector to a line no other store
// completes costs what bench_scatterw's random stores measured (9.5 a clock GPU-wide),
// and where the lines fill up (a denser scatter, a buffer the L2 holds) instead.
//
// usage: bench_perm OUT.csv [device]
#include "common.cuh"

__global__ void k_perm(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                       unsigned long long n, unsigned long long mask, unsigned long long a,
                       unsigned long long c) {
  unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < n) out[(a * i + c) & mask] = in[i];
}

__global__ void k_iota(unsigned *p, unsigned long long n) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x)
    p[i] = (unsigned)(i * 2654435761ull) | 1u;  // never 0: a written word is non-zero
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const unsigned long long C = 1013904223ull;
  const int kMaxLog = 28;
  unsigned *in, *out;
  CK(cudaMalloc(&in, (size_t(1) << kMaxLog) * 4));
  CK(cudaMalloc(&out, (size_t(1) << kMaxLog) * 4));
  k_iota<<<b.sm_count * 8, 256, 0, b.stream>>>(in, 1ull << kMaxLog);
  CK_LAUNCH();
  struct Case {
    int range_log, n_log;
  };
  std::vector<Case> cases;
  for (int n = 16; n <= 28; n += 2) cases.push_back({28, n});
  for (int n = 20; n <= 26; n += 2) cases.push_back({26, n});
  for (int n = 20; n <= 24; n += 2) cases.push_back({24, n});
  for (int n = 18; n <= 22; n += 2) cases.push_back({22, n});
  for (unsigned long long A : {1664525ull, 69069ull})
    for (const Case &cs : cases) {
      const unsigned long long n = 1ull << cs.n_log, range = 1ull << cs.range_log;
      const unsigned long long mask = range - 1;
      const int block = 256;
      const unsigned grid = (unsigned)(n / block);
      Row r;
      r.family = "perm";
      r.name = A == 1664525ull ? "perm_a1664525" : "perm_a69069";
      char ps[128];
      snprintf(ps, sizeof ps, "range=2^%d n=2^%d", cs.range_log, cs.n_log);
      r.params = ps;
      row_shape(r, k_perm, dim3(grid), dim3(block), 0);
      r.bytes = n * 8;
      CK(cudaMemsetAsync(out, 0, range * 4, b.stream));
      CK(cudaStreamSynchronize(b.stream));
      r.t = time_case(b, 7, true,
                      [&] { k_perm<<<grid, block, 0, b.stream>>>(in, out, n, mask, A, C); });
      emit(b, r);
      std::vector<unsigned> hin(4096), hout(1);
      CK(cudaMemcpy(hin.data(), in, 4096 * 4, cudaMemcpyDeviceToHost));
      for (unsigned long long i = 0; i < 4096 && i < n; i += 97) {
        CK(cudaMemcpy(hout.data(), out + ((A * i + C) & mask), 4, cudaMemcpyDeviceToHost));
        REQUIRE(hout[0] == hin[i], "%s %s: out[%llu] = %u, want in[%llu] = %u", r.name.c_str(),
                ps, (A * i + C) & mask, hout[0], i, hin[i]);
      }
    }
  bench_close(b);
  return 0;
}
