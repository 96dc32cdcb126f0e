// bench_spread.cu - how a launch's time follows its slowest SM (family `spread`).
//
// The chase of bench_chase (chase.cuh: one random cycle of 128-byte nodes, 64-bit
// pointers, ld.global.ca) on k blocks of one warp, lane 0 of each chasing from its own
// place on the cycle (the others return at once), k = 1, 2, 4, 8, 16, 33, 66 and 132:
// one block per SM, so that the launch runs on k SMs. Footprints 4 MiB (the L2 holds
// the chain: linked on the device, then the two warm-up launches; rows chase_node128)
// and 1 GiB with the benches' 1 GiB memset flush before every launch (DRAM; rows
// cold_node128), 4096 timed hops, no warm hops. Each block records its SM (%smid) and
// its clock64 cycles per hop; the event time covers the launch.
//
// Output: OUT.csv (calibration columns; median_us is event time) and OUT_sm.csv (per
// row and block: the SM it ran on and its cycles per hop, and the row's event time).
//
// usage: bench_spread OUT.csv OUT_sm.csv [device]
#include "chase.cuh"

__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Lane 0 of block b follows the chain from start[b] for `hops` hops; out[b] the
// last address, cyc[b] the clock64 cycles of the hops, sm[b] the SM.
__global__ void k_spread(const u64 *start, int hops, u64 *out, long long *cyc, unsigned *sm) {
  if (threadIdx.x != 0) return;
  u64 p = start[blockIdx.x];
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i) p = load_ca(p);
  long long t1 = clk();
  out[blockIdx.x] = p;
  cyc[blockIdx.x] = t1 - t0;
  sm[blockIdx.x] = smid();
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv OUT_sm.csv [device]\n", argv[0]);
    return 2;
  }
  Bench b;
  bench_open(b, argv[1], argc > 3 ? atoi(argv[3]) : 0);
  FILE *sf = fopen(argv[2], "w");
  REQUIRE(sf, "cannot write %s", argv[2]);
  fprintf(sf, "footprint,blocks,block,sm,cyc_hop,event_us\n");
  const int S = b.sm_count;
  const size_t maxF = size_t(1) << 30, node = 128;
  const int hops = 4096;
  const int ks[8] = {1, 2, 4, 8, 16, 33, 66, 132};
  u64 *buf, *d_start, *d_out;
  unsigned *d_order, *d_sm;
  long long *d_cyc;
  CK(cudaMalloc(&buf, maxF));
  CK(cudaMalloc(&d_order, (maxF / node) * 4));
  CK(cudaMalloc(&d_start, S * 8));
  CK(cudaMalloc(&d_out, S * 8));
  CK(cudaMalloc(&d_cyc, S * 8));
  CK(cudaMalloc(&d_sm, S * 4));
  std::vector<u64> h_start(S), h_out(S);
  std::vector<long long> h_cyc(S);
  std::vector<unsigned> h_sm(S);
  Chain ch;
  const size_t fps[2] = {size_t(4) << 20, maxF};
  for (int fi = 0; fi < 2; ++fi) {
    size_t F = fps[fi];
    make_chain(ch, buf, d_order, F / node, node);
    size_t N = ch.nodes;
    for (int ki = 0; ki < 8; ++ki) {
      int k = std::min(ks[ki], S);
      for (int bl = 0; bl < k; ++bl) {
        size_t pos = ((size_t)bl * 7919 * (N / 4096 + 1)) % N;
        h_start[bl] = (u64)(buf + ch.order[pos] * (node / 8));
      }
      CK(cudaMemcpy(d_start, h_start.data(), (size_t)k * 8, cudaMemcpyHostToDevice));
      Row r;
      r.family = "spread";
      r.name = fi ? "cold_node128" : "chase_node128";
      r.params = "footprint=" + fp_name(F) + " blocks=" + std::to_string(k) +
                 " hops=" + std::to_string(hops) + (fi ? " flushed" : "");
      row_shape(r, k_spread, dim3(k), dim3(32), 0);
      r.t = time_case(b, 7, fi == 1, [&] {
        k_spread<<<k, 32, 0, b.stream>>>(d_start, hops, d_out, d_cyc, d_sm);
      });
      r.bytes = (u64)k * hops * 8;
      emit(b, r);
      CK(cudaMemcpy(h_out.data(), d_out, (size_t)k * 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(h_cyc.data(), d_cyc, (size_t)k * 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(h_sm.data(), d_sm, (size_t)k * 4, cudaMemcpyDeviceToHost));
      std::vector<unsigned> seen(h_sm.begin(), h_sm.begin() + k);
      std::sort(seen.begin(), seen.end());
      REQUIRE(std::unique(seen.begin(), seen.end()) == seen.end(),
              "%s %s: two blocks shared an SM", r.name.c_str(), r.params.c_str());
      for (int bl = 0; bl < k; ++bl) {
        size_t pos = ((size_t)bl * 7919 * (N / 4096 + 1)) % N;
        u64 want = (u64)(buf + ch.order[(pos + hops) % N] * (node / 8));
        REQUIRE(h_out[bl] == want, "%s %s: block %d ended at %llx, expected %llx",
                r.name.c_str(), r.params.c_str(), bl, h_out[bl], want);
        fprintf(sf, "%s,%d,%d,%u,%.3f,%.3f\n", fp_name(F).c_str(), k, bl, h_sm[bl],
                (double)h_cyc[bl] / hops, r.t.median_us);
      }
      fflush(sf);
    }
  }
  fclose(sf);
  bench_close(b);
  return 0;
}
