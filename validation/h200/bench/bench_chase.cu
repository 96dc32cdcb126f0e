// bench_chase.cu - loads whose lanes touch many lines (family `chase`).
//
// chase rows: one block per SM of W warps (W = 1 or 8, 32 * W threads); in each warp
// lanes 0..L-1 (L = 1, 2, 4, 8, 16, 32) follow a pointer chain, the others return at
// once. The chain is one random cycle through all nodes of a buffer of F bytes
// (node = 128 bytes: one node per line; node = 8 bytes: 16 per line), a 64-bit
// pointer per node (ld.global.ca.u64, as gpuperf-calibrate's chase). The L * W
// chasing threads of a block start evenly spaced along the cycle (so each is on its
// own line at every hop and together they cover the buffer in N / (L * W) hops); the
// blocks start at different offsets. Every block walks the same buffer: the
// footprint per SM and the footprint in L2 are both F. A thread takes `warm` hops
// (untimed by clock64; enough for the block to touch every node once when F <= 1 MiB,
// 0 above: the L2 is warm from the earlier launches), then `hops` timed hops.
// Event time covers the whole kernel (warm + hops). A `smem` variant gives the block
// 100 KiB of dynamic shared memory (the L1 keeps what the carve-out leaves).
//
// gather rows: independent loads; 8 blocks of 256 threads per SM, every warp issues
// R requests (unrolled by 8, summed); in request i lane l reads word (l / m) of
// line (i * m + l % m) mod lines (+ a per-warp offset), so that each request touches
// exactly m distinct lines (m = 1, 2, 4, 8, 16, 32) with 32 / m lanes on each.
// Working set 16 KiB (L1-resident) or 16 MiB (L2-resident, larger than the L1).
//
// Output: OUT.csv (calibration columns; median_us is event time) and OUT_cycles.csv
// (chase: clock64 cycles per timed hop, median/min/max over the chasing threads,
// and event cycles per hop at the SM clock measured in-kernel; gather: cycles per
// request per SM).
//
// usage: bench_chase OUT.csv OUT_cycles.csv [device]
#include "chase.cuh"

// The gather: R requests per warp, each touching m lines (see the header).
__global__ void k_gather(const unsigned *a, unsigned lines_mask, int m, int R, unsigned *out) {
  unsigned lane = threadIdx.x & 31, gw = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned word = lane / m, line0 = lane % m, off = gw * 97u;
  unsigned s = 0;
#pragma unroll 8
  for (int i = 0; i < R; ++i) {
    unsigned line = ((unsigned)i * m + line0 + off) & lines_mask;
    s += __ldca(a + (size_t)line * 32 + word);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static double median_d(std::vector<double> v) { return median_of(std::move(v)); }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv OUT_cycles.csv [device]\n", argv[0]);
    return 2;
  }
  Bench b;
  bench_open(b, argv[1], argc > 3 ? atoi(argv[3]) : 0);
  FILE *cf = fopen(argv[2], "w");
  REQUIRE(cf, "cannot write %s", argv[2]);
  fprintf(cf, "kind,node_bytes,footprint,lanes,warps,smem,warm,hops,cyc_hop_median,cyc_hop_min,"
              "cyc_hop_max,event_cyc_hop,sm_mhz,event_us\n");
  const int S = b.sm_count;
  const size_t maxF = size_t(1) << 30;
  u64 *buf;
  unsigned *d_order;
  CK(cudaMalloc(&buf, maxF));
  CK(cudaMalloc(&d_order, ((size_t(96) << 20) / 8) * 4));  // the most nodes: 96 MiB of 8-byte nodes
  const int maxT = 8 * 32 * S;
  u64 *d_start, *d_out, *d_ns;
  long long *d_cyc, *d_cspan;
  CK(cudaMalloc(&d_start, maxT * 8));
  CK(cudaMalloc(&d_out, maxT * 8));
  CK(cudaMalloc(&d_cyc, maxT * 8));
  CK(cudaMalloc(&d_ns, S * 8));
  CK(cudaMalloc(&d_cspan, S * 8));
  const size_t dyn_smem = 100 << 10;
  allow_dyn_smem(k_chase, dyn_smem);
  CK(cudaFuncSetAttribute((const void *)k_chase, cudaFuncAttributePreferredSharedMemoryCarveout,
                          0));
  const size_t K = 1024, M = K * K;
  const size_t fps[13] = {16 * K, 64 * K, 128 * K, 160 * K, 192 * K, 224 * K, 256 * K,
                          384 * K, 1 * M, 4 * M, 16 * M, 48 * M, 96 * M};
  const int lanes[6] = {1, 2, 4, 8, 16, 32};
  const int hops = 4096;
  std::vector<u64> h_start(maxT), h_out(maxT);
  std::vector<long long> h_cyc(maxT), h_cspan(S);
  std::vector<u64> h_ns(S);
  Chain ch;
  double last_mhz = 0;  // the SM clock of the last chase row (for the gather rows' cycles)
  for (int nb = 0; nb < 2; ++nb) {
    size_t node = nb ? 8 : 128;
    for (int fi = 0; fi < 14; ++fi) {
      size_t F = fi < 13 ? fps[fi] : maxF;
      if (F == maxF && node == 8) continue;  // 128 M nodes: too slow to shuffle on the host
      make_chain(ch, buf, d_order, F / node, node);
      size_t N = ch.nodes;
      for (int sm = 0; sm < 2; ++sm) {
        if (sm && (node != 128 || F < 64 * K || F > 256 * K)) continue;
        for (int W = 1; W <= 8; W *= 8)
          for (int li = 0; li < 6; ++li) {
            int L = lanes[li];
            if (sm && L != 1 && L != 32) continue;
            if (sm && W != 1) continue;
            size_t chasers = (size_t)L * W;
            int warm = F <= M ? (int)std::min<size_t>((N + chasers - 1) / chasers + 64, 65536) : 0;
            int T = 32 * W;
            for (int bl = 0; bl < S; ++bl)
              for (int w = 0; w < W; ++w)
                for (int l = 0; l < 32; ++l) {
                  size_t c = (size_t)w * L + l;  // chaser number within the block
                  size_t pos = (c * N / chasers + (size_t)bl * 7919 * (N / 4096 + 1)) % N;
                  h_start[(size_t)bl * T + w * 32 + l] = (u64)(buf + ch.order[pos] * (node / 8));
                }
            CK(cudaMemcpy(d_start, h_start.data(), (size_t)S * T * 8, cudaMemcpyHostToDevice));
            size_t dyn = sm ? dyn_smem : 0;
            Row r;
            r.family = "chase";
            r.name = std::string(sm ? "chase_smem100k" : "chase") + "_node" +
                     std::to_string(node);
            r.params = "footprint=" + fp_name(F) + " lanes=" + std::to_string(L) +
                       " warps=" + std::to_string(W) + " warm=" + std::to_string(warm) +
                       " hops=" + std::to_string(hops);
            row_shape(r, k_chase, dim3(S), dim3(T), dyn);
            r.t = time_case(b, 7, false, [&] {
              k_chase<<<S, T, dyn, b.stream>>>(d_start, L, warm, hops, d_out, d_cyc, d_ns,
                                                d_cspan);
            });
            r.bytes = (u64)S * chasers * (warm + hops) * 8;
            emit(b, r);
            CK(cudaMemcpy(h_out.data(), d_out, (size_t)S * T * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h_cyc.data(), d_cyc, (size_t)S * T * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h_ns.data(), d_ns, S * 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h_cspan.data(), d_cspan, S * 8, cudaMemcpyDeviceToHost));
            std::vector<double> per_hop, mhz;
            for (int bl = 0; bl < S; ++bl) {
              if (h_ns[bl] > 0) mhz.push_back((double)h_cspan[bl] * 1e3 / (double)h_ns[bl]);
              for (int w = 0; w < W; ++w)
                for (int l = 0; l < L; ++l) {
                  size_t t = (size_t)bl * T + w * 32 + l, c = (size_t)w * L + l;
                  size_t pos = (c * N / chasers + (size_t)bl * 7919 * (N / 4096 + 1)) % N;
                  u64 want = (u64)(buf + ch.order[(pos + warm + hops) % N] * (node / 8));
                  REQUIRE(h_out[t] == want, "%s %s: thread %zu ended at %llx, expected %llx",
                          r.name.c_str(), r.params.c_str(), t, h_out[t], want);
                  per_hop.push_back((double)h_cyc[t] / hops);
                }
            }
            double clk_mhz = median_d(mhz);
            last_mhz = clk_mhz;
            fprintf(cf, "chase,%zu,%s,%d,%d,%zu,%d,%d,%.3f,%.3f,%.3f,%.3f,%.1f,%.3f\n", node,
                    fp_name(F).c_str(), L, W, dyn, warm, hops, median_d(per_hop),
                    *std::min_element(per_hop.begin(), per_hop.end()),
                    *std::max_element(per_hop.begin(), per_hop.end()),
                    r.t.median_us * clk_mhz / (warm + hops), clk_mhz, r.t.median_us);
            fflush(cf);
          }
      }
    }
  }
  // gather: independent loads, m lines per request.
  {
    const int T = 256, bps = 8, R = 1024;
    const int G = S * bps;
    unsigned *a = (unsigned *)buf, *d_gout;
    const size_t words = (size_t(16) << 20) / 4;
    CK(cudaMalloc(&d_gout, (size_t)G * T * 4));
    std::vector<unsigned> ha(words);
    for (size_t i = 0; i < words; ++i) ha[i] = (unsigned)((i * 2654435761u) >> 7);
    CK(cudaMemcpy(a, ha.data(), words * 4, cudaMemcpyHostToDevice));
    const size_t wss[2] = {16 * K, 16 * M};
    std::vector<unsigned> hg((size_t)G * T);
    for (int wi = 0; wi < 2; ++wi)
      for (int m = 1; m <= 32; m *= 2) {
        unsigned lines_mask = (unsigned)(wss[wi] / 128 - 1);
        Row r;
        r.family = "chase";
        r.name = "gather_m" + std::to_string(m);
        r.params = "ws=" + fp_name(wss[wi]) + " requests=" + std::to_string(R) +
                   " blocks_per_sm=" + std::to_string(bps);
        row_shape(r, k_gather, dim3(G), dim3(T), 0);
        r.t = time_case(b, 7, false,
                        [&] { k_gather<<<G, T, 0, b.stream>>>(a, lines_mask, m, R, d_gout); });
        r.bytes = (u64)G * T * R * 4;
        emit(b, r);
        CK(cudaMemcpy(hg.data(), d_gout, (size_t)G * T * 4, cudaMemcpyDeviceToHost));
        for (size_t t = 0; t < (size_t)G * T; t += 97) {
          unsigned lane = t & 31, gw = (unsigned)(t >> 5), s = 0;
          for (int i = 0; i < R; ++i) {
            unsigned line = ((unsigned)i * m + lane % m + gw * 97u) & lines_mask;
            s += ha[(size_t)line * 32 + lane / m];
          }
          REQUIRE(hg[t] == s, "gather m=%d: thread %zu summed %u, expected %u", m, t, hg[t], s);
        }
        // cycles per warp request per SM (event time at the last chase row's SM clock)
        double per_req = r.t.median_us * last_mhz / ((double)T / 32 * bps * R);
        fprintf(cf, "gather,128,%s,%d,%d,0,0,%d,%.3f,,,%.3f,%.1f,%.3f\n",
                fp_name(wss[wi]).c_str(), m, T / 32 * bps, R, per_req, per_req, last_mhz,
                r.t.median_us);
        fflush(cf);
      }
    CK(cudaFree(d_gout));
  }
  fclose(cf);
  CK(cudaFree(buf));
  CK(cudaFree(d_order));
  CK(cudaFree(d_start));
  CK(cudaFree(d_out));
  CK(cudaFree(d_cyc));
  CK(cudaFree(d_ns));
  CK(cudaFree(d_cspan));
  bench_close(b);
  return 0;
}
