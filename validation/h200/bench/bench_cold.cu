// bench_cold.cu - first touches of a cold L2: dependent loads of one block (family `cold`).
//
// One launch of one block of T threads (T = 1, 32, 128), or of one 32-thread block per
// SM (`blocks=132`: the grid's chases share the L2), after the L2 flush (the 1 GiB
// scratch write of common.cuh before every repetition, warm-ups included), no warm-up
// hops inside the launch. The buffer holds N = F / node nodes of `node` bytes (128: one
// node per line; 32: one per sector, four per line), a 32-bit word at the start of each.
// Thread t of the TT in the grid starts at node t * (N / TT) % N (as the evaluation's
// pchase) and follows
// `steps` links; every load's address comes from the value of the load before it
// (LDG.E of unsigned p[j * node / 4], the default caching, like the evaluation's k_chase).
//   mode cycle: node j holds the next node of one random cycle through all N nodes
//     (a shuffled order, linked on the device): a thread visits `steps` distinct nodes
//     while steps <= N, each node once per lap after that.
//   mode draw: node j holds a random 32-bit word r_j; the next node is
//     ((r_j ^ s * 0x9e3779b9 ^ t * 0x6a09e667) * 0x85ebca6b) >> (32 - log2 N), s the step,
//     t the thread: every step is a fresh uniform draw among the N nodes, and two threads
//     that meet at a node part again (without t they would run together from then on).
// Footprints 16 KiB .. 1 GiB (128-byte nodes), 16 KiB .. 256 MiB (32-byte nodes); steps
// N/8, N/2, N, 2N and 8N, each within [64, 2^18] and a multiple of 8; the 132-block
// rows: 128-byte nodes, 1 MiB .. 1 GiB, 256, 1024 and 4096 steps.
//
// Output: OUT.csv (calibration columns; median_us is event time of the launch) and
// OUT_cycles.csv: per row the clock64 cycles per step (median and max over the
// threads), the cycles per step of each eighth of the steps (median over the threads;
// a segment's clock is read after a store of the chased value, so it waits for the
// last load of the segment), the SM clock measured in-kernel (clock64 over
// %globaltimer of thread 0) and the event time.
//
// usage: bench_cold OUT.csv OUT_cycles.csv [device]
#include "common.cuh"

typedef unsigned long long u64;

static const int kSeg = 8;

__host__ __device__ inline unsigned node_word(unsigned j) {
  unsigned h = j * 0x9e3779b1u + 0x7f4a7c15u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

__host__ __device__ inline unsigned draw_next(unsigned r, unsigned s, unsigned t, unsigned shift) {
  return ((r ^ (s * 0x9e3779b9u) ^ (t * 0x6a09e667u)) * 0x85ebca6bu) >> shift;
}

// Cycle: next[order[k]] = order[k + 1].
__global__ void k_link(unsigned *p, const unsigned *order, size_t nodes, unsigned words) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < nodes;
       k += (size_t)gridDim.x * blockDim.x)
    p[(size_t)order[k] * words] = order[(k + 1) % nodes];
}

// Draw: node j holds node_word(j).
__global__ void k_words(unsigned *p, size_t nodes, unsigned words) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < nodes;
       k += (size_t)gridDim.x * blockDim.x)
    p[k * words] = node_word((unsigned)k);
}

// The chase: `steps` links (a multiple of kSeg) in kSeg segments; seg[t * (kSeg + 1) + k]
// the clock before segment k (k = kSeg: after the last); sink[t] receives the chased
// value at every boundary (so the clock read waits for the loads before it).
template <int DRAW>
__global__ void k_cold(const unsigned *p, unsigned nodes, unsigned words, unsigned shift,
                       int steps, unsigned *out, volatile unsigned *sink, long long *seg,
                       u64 *ns_span, long long *cyc_span) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, T = gridDim.x * blockDim.x;
  unsigned j = unsigned((size_t)t * (nodes / T) % nodes);
  int per = steps / kSeg;
  unsigned s = 0;
  u64 g0 = gtimer();
  long long c0 = clk();
  seg[t * (kSeg + 1)] = c0;
  for (int k = 0; k < kSeg; ++k) {
#pragma unroll 4
    for (int i = 0; i < per; ++i) {
      unsigned v = p[(size_t)j * words];
      if (DRAW) {
        j = draw_next(v, s, t, shift);
        ++s;
      } else {
        j = v;
      }
    }
    sink[t] = j;
    seg[t * (kSeg + 1) + k + 1] = clk();
  }
  u64 g1 = gtimer();
  out[t] = j;
  if (t == 0) {
    *ns_span = g1 - g0;
    *cyc_span = seg[kSeg] - c0;
  }
}

// xorshift64* (host): a fixed-seed random stream for the cycles.
static u64 rng_state = 0x9e3779b97f4a7c15ull;
static u64 rng() {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}

static std::string fp_name(size_t f) {
  if (f >= (size_t(1) << 30)) return std::to_string(f >> 30) + "G";
  if (f >= (size_t(1) << 20)) return std::to_string(f >> 20) + "M";
  return std::to_string(f >> 10) + "K";
}

int main(int argc, char **argv) {
  Bench b;
  FILE *cf = bench_open_side(
      b, argc, argv, "OUT_cycles.csv",
      "mode,node_bytes,footprint,nodes,blocks,threads,steps,cyc_step_median,cyc_step_max,seg1,seg2,"
      "seg3,seg4,seg5,seg6,seg7,seg8,sm_mhz,event_us\n");
  const size_t K = 1024, M = K * K, maxF = size_t(1) << 30;
  unsigned *buf, *d_order, *d_out, *d_sink;
  long long *d_seg, *d_cspan;
  u64 *d_ns;
  const int maxT = 128 * b.sm_count;
  CK(cudaMalloc(&buf, maxF));
  CK(cudaMalloc(&d_order, (maxF / 128) * 4));
  CK(cudaMalloc(&d_out, maxT * 4));
  CK(cudaMalloc(&d_sink, maxT * 4));
  CK(cudaMalloc(&d_seg, maxT * (kSeg + 1) * 8));
  CK(cudaMalloc(&d_ns, 8));
  CK(cudaMalloc(&d_cspan, 8));
  const size_t fps[9] = {16 * K, 64 * K, 256 * K, 1 * M, 4 * M, 16 * M, 64 * M, 256 * M, maxF};
  const int S = b.sm_count;
  const int Gs[4] = {1, 1, 1, S}, Ts[4] = {1, 32, 128, 32};
  const double mults[5] = {0.125, 0.5, 1, 2, 8};
  std::vector<unsigned> order, pos;
  std::vector<long long> h_seg(maxT * (kSeg + 1));
  std::vector<unsigned> h_out(maxT);
  for (int nb = 0; nb < 2; ++nb) {
    const size_t node = nb ? 32 : 128;
    const unsigned words = (unsigned)(node / 4);
    for (int fi = 0; fi < 9; ++fi) {
      const size_t F = fps[fi];
      if (node == 32 && F > 256 * M) continue;
      const size_t N = F / node;
      unsigned shift = 32;
      for (size_t n = N; n > 1; n >>= 1) --shift;
      for (int mode = 0; mode < 2; ++mode) {
        if (mode == 0) {
          order.resize(N);
          pos.resize(N);
          for (size_t i = 0; i < N; ++i) order[i] = (unsigned)i;
          for (size_t i = N - 1; i > 0; --i) std::swap(order[i], order[rng() % (i + 1)]);
          for (size_t i = 0; i < N; ++i) pos[order[i]] = (unsigned)i;
          CK(cudaMemcpy(d_order, order.data(), N * 4, cudaMemcpyHostToDevice));
          k_link<<<1024, 256>>>(buf, d_order, N, words);
        } else {
          k_words<<<1024, 256>>>(buf, N, words);
        }
        CK_LAUNCH();
        CK(cudaDeviceSynchronize());
        for (int shape = 0; shape < 4; ++shape) {
          const int G = Gs[shape], T = Ts[shape], TT = G * T;
          std::vector<int> ss;
          if (G > 1) { // one warp per SM: the grid's draws share the L2
            if (node != 128 || F < M) continue;
            ss = {256, 1024, 4096};
          } else {
            for (double m : mults) {
              long long s = (long long)(N * m) / 8 * 8;
              s = std::max(64LL, std::min(s, 1LL << 18));
              if (std::find(ss.begin(), ss.end(), (int)s) == ss.end()) ss.push_back((int)s);
            }
          }
          for (int steps : ss) {
            Row r;
            r.family = "cold";
            r.name = std::string(mode ? "draw" : "cycle") + "_node" + std::to_string(node);
            r.params = "footprint=" + fp_name(F) + " threads=" + std::to_string(T) +
                       " steps=" + std::to_string(steps) +
                       (G > 1 ? " blocks=" + std::to_string(G) : std::string());
            int reps = steps >= 65536 ? 3 : 5;
            if (mode) {
              row_shape(r, k_cold<1>, dim3(G), dim3(T), 0);
              r.t = time_case(b, reps, true, [&] {
                k_cold<1><<<G, T, 0, b.stream>>>(buf, (unsigned)N, words, shift, steps, d_out,
                                                  d_sink, d_seg, d_ns, d_cspan);
              });
            } else {
              row_shape(r, k_cold<0>, dim3(G), dim3(T), 0);
              r.t = time_case(b, reps, true, [&] {
                k_cold<0><<<G, T, 0, b.stream>>>(buf, (unsigned)N, words, shift, steps, d_out,
                                                  d_sink, d_seg, d_ns, d_cspan);
              });
            }
            r.bytes = (u64)TT * steps * 4;
            emit(b, r);
            CK(cudaMemcpy(h_out.data(), d_out, TT * 4, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(h_seg.data(), d_seg, (size_t)TT * (kSeg + 1) * 8,
                          cudaMemcpyDeviceToHost));
            u64 ns = 0;
            long long cspan = 0;
            CK(cudaMemcpy(&ns, d_ns, 8, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(&cspan, d_cspan, 8, cudaMemcpyDeviceToHost));
            std::vector<double> whole;
            std::vector<std::vector<double>> segs(kSeg);
            for (int t = 0; t < TT; t += G > 1 ? 7 : 1) {
              unsigned j = (unsigned)((size_t)t * (N / TT) % N), want;
              if (mode == 0) {
                want = order[(pos[j] + (size_t)steps) % N];
              } else {
                for (int s = 0; s < steps; ++s)
                  j = draw_next(node_word(j), (unsigned)s, (unsigned)t, shift);
                want = j;
              }
              REQUIRE(h_out[t] == want, "%s %s: thread %d ended at %u, expected %u",
                      r.name.c_str(), r.params.c_str(), t, h_out[t], want);
              const long long *c = &h_seg[(size_t)t * (kSeg + 1)];
              whole.push_back((double)(c[kSeg] - c[0]) / steps);
              for (int k = 0; k < kSeg; ++k)
                segs[k].push_back((double)(c[k + 1] - c[k]) / (steps / kSeg));
            }
            double mhz = ns ? (double)cspan * 1e3 / (double)ns : 0;
            fprintf(cf, "%s,%zu,%s,%zu,%d,%d,%d,%.2f,%.2f", mode ? "draw" : "cycle", node,
                    fp_name(F).c_str(), N, G, T, steps, median_of(whole),
                    *std::max_element(whole.begin(), whole.end()));
            for (int k = 0; k < kSeg; ++k) fprintf(cf, ",%.2f", median_of(segs[k]));
            fprintf(cf, ",%.1f,%.3f\n", mhz, r.t.median_us);
            fflush(cf);
          }
        }
      }
    }
  }
  fclose(cf);
  CK(cudaFree(buf));
  CK(cudaFree(d_order));
  CK(cudaFree(d_out));
  CK(cudaFree(d_sink));
  CK(cudaFree(d_seg));
  CK(cudaFree(d_ns));
  CK(cudaFree(d_cspan));
  bench_close(b);
  return 0;
}
