// bench_coldlanes.cu - a warp's chase from a cold L2, lane by lane (family `coldlanes`).
//
// The chase of bench_chase (chase.cuh: one random cycle of 128-byte nodes, 64-bit
// pointers, ld.global.ca) by the first L lanes of one warp (one block of 32 threads, so
// one SM), L = 1, 2, 4, 8, 16, 32, each lane from its own random place on the cycle
// (a fixed-seed draw), over footprints of 256 KiB to 64 MiB, 2048 and 8192 timed hops,
// no warm hops, the benches' 1 GiB memset flush before every launch: the L2 starts
// cold, so a lane's hops reach DRAM until it comes to a node another lane has already
// visited, and a step of the warp waits for its slowest lane. Each lane records its
// clock64 cycles per hop; the event time covers the launch (queued behind the flush).
//
// Output: OUT.csv (calibration columns; median_us is event time) and OUT_lanes.csv
// (per row: the median, min and max over the lanes of their clock64 cycles per hop,
// and the row's event time).
//
// usage: bench_coldlanes OUT.csv OUT_lanes.csv [device]
#include "chase.cuh"

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv OUT_lanes.csv [device]\n", argv[0]);
    return 2;
  }
  Bench b;
  bench_open(b, argv[1], argc > 3 ? atoi(argv[3]) : 0);
  FILE *sf = fopen(argv[2], "w");
  REQUIRE(sf, "cannot write %s", argv[2]);
  fprintf(sf, "footprint,lanes,hops,cyc_hop_median,cyc_hop_min,cyc_hop_max,event_us\n");
  const size_t maxF = size_t(64) << 20, node = 128;
  const size_t fps[6] = {size_t(256) << 10, size_t(1) << 20, size_t(4) << 20,
                         size_t(16) << 20, size_t(32) << 20, maxF};
  const int lanes[6] = {1, 2, 4, 8, 16, 32};
  const int hopss[2] = {2048, 8192};
  u64 *buf, *d_start, *d_out, *d_ns;
  unsigned *d_order;
  long long *d_cyc, *d_cspan;
  CK(cudaMalloc(&buf, maxF));
  CK(cudaMalloc(&d_order, (maxF / node) * 4));
  CK(cudaMalloc(&d_start, 32 * 8));
  CK(cudaMalloc(&d_out, 32 * 8));
  CK(cudaMalloc(&d_cyc, 32 * 8));
  CK(cudaMalloc(&d_ns, 8));
  CK(cudaMalloc(&d_cspan, 8));
  std::vector<u64> h_start(32, 0), h_out(32);
  std::vector<long long> h_cyc(32);
  std::vector<size_t> pos(32);
  Chain ch;
  for (size_t F : fps) {
    make_chain(ch, buf, d_order, F / node, node);
    const size_t N = ch.nodes;
    for (int L : lanes) {
      for (int l = 0; l < 32; ++l) {
        pos[l] = (size_t)(rng() % N);
        h_start[l] = (u64)(buf + ch.order[pos[l]] * (node / 8));
      }
      CK(cudaMemcpy(d_start, h_start.data(), 32 * 8, cudaMemcpyHostToDevice));
      for (int hops : hopss) {
        Row r;
        r.family = "coldlanes";
        r.name = "cold_node128";
        r.params = "footprint=" + fp_name(F) + " lanes=" + std::to_string(L) +
                   " hops=" + std::to_string(hops) + " flushed";
        row_shape(r, k_chase, dim3(1), dim3(32), 0);
        r.t = time_case(b, 7, true, [&] {
          k_chase<<<1, 32, 0, b.stream>>>(d_start, L, 0, hops, d_out, d_cyc, d_ns, d_cspan);
        });
        r.bytes = (u64)L * hops * 8;
        emit(b, r);
        CK(cudaMemcpy(h_out.data(), d_out, 32 * 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(h_cyc.data(), d_cyc, 32 * 8, cudaMemcpyDeviceToHost));
        std::vector<double> c;
        for (int l = 0; l < L; ++l) {
          u64 want = (u64)(buf + ch.order[(pos[l] + hops) % N] * (node / 8));
          REQUIRE(h_out[l] == want, "%s: lane %d ended at %llx, expected %llx",
                  r.params.c_str(), l, h_out[l], want);
          c.push_back((double)h_cyc[l] / hops);
        }
        std::sort(c.begin(), c.end());
        fprintf(sf, "%s,%d,%d,%.3f,%.3f,%.3f,%.3f\n", fp_name(F).c_str(), L, hops,
                c[c.size() / 2], c.front(), c.back(), r.t.median_us);
        fflush(sf);
      }
    }
  }
  fclose(sf);
  bench_close(b);
  return 0;
}
