// bench_coldchain.cu - the first DRAM accesses of a launch after the benches' L2 flush
// (family `coldchain`; raw data beside bench_flushq's).
//
// k_chain: each block's thread 0 follows a chain of `hops` dependent loads (the next
// index is read from the line it loads), over lines of buffer A `stride` bytes apart
// (4 KiB: all within 2 MiB pages that the first hops open; 2 MiB + 128 B: a new page every
// hop). Block b starts at line b * 128 B away from the others' chains (its own lines).
// Each row is the median of 21 repetitions (after 2) of
//     [before] ; record ev0 ; k_chain<<<grid, 32>>> ; record ev1 ; sync
// with `before`: flush (the 1 GiB memset, not waited for), clean (a kernel reading the
// 1 GiB scratch, not waited for), warm (a 200 us spin kernel, not waited for: the chain's
// lines are in L2 from the previous repetition), idle (a synchronize; the lines in L2).
// hops = 0: the kernel reads its parameters and exits.
#include "common.cuh"

__global__ void k_spin(long long cycles) {
  long long t0 = clock64(), t = t0;
  while (t - t0 < cycles) t = clock64();
}

// next[i] holds the index of the following hop (in unsigned words)
__global__ void k_chain(const unsigned *__restrict__ next, int hops, unsigned *out, int keep) {
  if (threadIdx.x != 0) return;
  unsigned i = blockIdx.x * 32u;  // 128 B apart
  for (int h = 0; h < hops; ++h) i = next[i];
  if (keep || i == 0xffffffffu) out[blockIdx.x] = i;
}

int main(int argc, char **argv) {
  REQUIRE(argc >= 2, "usage: bench_coldchain OUT.csv [device]");
  const int dev = argc > 2 ? atoi(argv[2]) : 0;
  Bench b;
  bench_open(b, argv[1], dev);
  const size_t bytes = size_t(256) << 20;  // 256 MiB: 16 hops of 2 MiB + 128 B fit
  unsigned *A, *out;
  CK(cudaMalloc(&A, bytes));
  CK(cudaMalloc(&out, 1024));
  CK(cudaMemset(b.scratch, 0, kScratchBytes));
  const int khz = dev_attr(cudaDevAttrClockRate, dev);
  const int hopsv[] = {0, 1, 2, 4, 8, 16};
  const size_t strides[] = {4096, (size_t(2) << 20) + 128};
  const unsigned grids[] = {1, 132};
  const char *const proto[] = {"flush", "clean", "warm", "idle"};
  for (size_t stride : strides) {
    // the chains: from word w, hop to w + stride / 4 (each block's chain stays apart)
    std::vector<unsigned> h(bytes / 4, 0);
    for (size_t w = 0; w + stride / 4 < h.size(); ++w) h[w] = (unsigned)(w + stride / 4);
    CK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
    for (unsigned g : grids)
      for (int hops : hopsv)
        for (int p = 0; p < 4; ++p) {
          std::vector<double> ms;
          for (int r = 0; r < 23; ++r) {
            CK(cudaStreamSynchronize(b.stream));
            if (p == 0) flush_l2(b);
            if (p == 1) {
              k_readall<<<b.sm_count * 8, 256, 0, b.stream>>>((const float4 *)b.scratch,
                                                               kScratchBytes / 16, (float *)out);
              CK_LAUNCH();
            }
            if (p == 2) {
              k_spin<<<1, 32, 0, b.stream>>>((long long)(200e-6 * khz * 1e3));
              CK_LAUNCH();
            }
            CK(cudaEventRecord(b.ev0, b.stream));
            k_chain<<<g, 32, 0, b.stream>>>(A, hops, out, 0);
            CK_LAUNCH();
            CK(cudaEventRecord(b.ev1, b.stream));
            CK(cudaEventSynchronize(b.ev1));
            float t = 0;
            CK(cudaEventElapsedTime(&t, b.ev0, b.ev1));
            if (r >= 2) ms.push_back(t);
          }
          Row row;
          row.family = "coldchain";
          char nm[64], ps[96];
          snprintf(nm, sizeof nm, "chain_%s", proto[p]);
          snprintf(ps, sizeof ps, "hops=%d stride=%zu grid=%u", hops, stride, g);
          row.name = nm;
          row.params = ps;
          row_shape(row, k_chain, dim3(g), dim3(32), 0);
          row.t = stats_of(ms);
          emit(b, row);
        }
  }
  // the chain went where it should: 3 hops of 4 KiB from word 0
  {
    std::vector<unsigned> h(bytes / 4, 0);
    for (size_t w = 0; w + 1024 < h.size(); ++w) h[w] = (unsigned)(w + 1024);
    CK(cudaMemcpy(A, h.data(), bytes, cudaMemcpyHostToDevice));
    k_chain<<<2, 32, 0, b.stream>>>(A, 3, out, 1);
    CK_LAUNCH();
    CK(cudaStreamSynchronize(b.stream));
    unsigned got[2];
    CK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    REQUIRE(got[0] == 3072 && got[1] == 32 + 3072, "k_chain: %u %u", got[0], got[1]);
  }
  CK(cudaFree(A));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
