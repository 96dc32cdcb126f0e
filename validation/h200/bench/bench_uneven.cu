// bench_uneven.cu - blocks whose warps run different amounts of work (family `uneven`,
// raw data): whether a block holds its warps' slots until its last warp ends, or the
// warps that have ended free theirs for the next blocks.
//
// k_unev<MODE>: blocks of 256 threads (8 warps); the warps a mode picks run T hops of a
// dependent chain of 4-byte loads at random lines of a 256 MiB buffer (lane 0's address
// for the whole warp: one line a hop, each hop's word from an LCG plus the bits of the
// value before it ANDed with a run-time zero), the others end at once:
//   MODE 0  every warp        MODE 1  warp 0 alone
//   MODE 2  the warps whose hash of (block, warp) is even (half, at random)
//   MODE 3  the warps whose hash is 0 mod 8 (an eighth, at random)
// Grids of SMs x 8 x 6 blocks (six waves of 8 blocks an SM where every warp runs),
// T = 32 hops, behind the memset flush (median of 5 after 2 warm-ups). The side table
// uneven_blocks.csv has per case the most warps and the most blocks any SM held at
// once, from each warp's %globaltimer span and %smid (a block spans its first warp's
// start to its last warp's end; a warp that ends at once spans its few instructions).
//
// usage: bench_uneven OUT.csv SIDE.csv [device]
#include "common.cuh"

template <int MODE>
__global__ void __launch_bounds__(256) k_unev(const float *x, unsigned mask, int hops,
                                              unsigned zero, float *out,
                                              unsigned long long *span, int *smid) {
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const unsigned w = blockIdx.x * 8 + warp;
  unsigned long long t0 = gtimer();
  bool run = MODE == 0 || (MODE == 1 && warp == 0) ||
             (MODE == 2 && (hash32(w) & 1) == 0) || (MODE == 3 && (hash32(w) & 7) == 0);
  float s = 0.f;
  if (run) {
    unsigned h = hash32(w ^ 0x68bc21ebu);
    for (int i = 0; i < hops; ++i) {
      h = h * 1664525u + 1013904223u;
      unsigned line = __shfl_sync(0xffffffffu, (h >> 3) + (__float_as_uint(s) & zero), 0);
      s += x[(size_t(line) * 32) & mask];
    }
  }
  if (lane == 0) {
    out[w] = s;
    span[2 * w] = t0;
    span[2 * w + 1] = gtimer();
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    smid[w] = int(id);
  }
}

typedef void (*kern_t)(const float *, unsigned, int, unsigned, float *, unsigned long long *,
                       int *);

// The most intervals [a, b) of one SM open at once.
static int most_open(std::vector<std::pair<unsigned long long, int>> &ev) {
  std::sort(ev.begin(), ev.end());  // ends (-1) before starts (+1) at equal times
  int open = 0, most = 0;
  for (auto &e : ev) {
    open += e.second;
    most = std::max(most, open);
  }
  return most;
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "uneven_blocks.csv",
                               "family,name,params,blocks,warps_running,most_warps_sm,"
                               "most_blocks_sm\n");
  const size_t nx = size_t(64) << 20;  // 256 MiB of floats
  float *x, *out;
  unsigned long long *span;
  int *smid;
  const unsigned blocks = unsigned(b.sm_count) * 8 * 6;
  CK(cudaMalloc(&x, nx * 4));
  CK(cudaMalloc(&out, blocks * 8 * 4));
  CK(cudaMalloc(&span, blocks * 8 * 2 * sizeof(unsigned long long)));
  CK(cudaMalloc(&smid, blocks * 8 * sizeof(int)));
  fill_pattern(x, nx, 5, 0.0f);  // zeros: every value's bits are 0
  const kern_t ks[4] = {k_unev<0>, k_unev<1>, k_unev<2>, k_unev<3>};
  const char *names[4] = {"all", "warp0", "half", "eighth"};
  const int hops = 32;
  for (int m = 0; m < 4; ++m) {
    Row r;
    r.family = "uneven";
    r.name = names[m];
    row_shape(r, ks[m], dim3(blocks), dim3(256), 0);
    r.params = "blocks=" + std::to_string(blocks) + " hops=" + std::to_string(hops) +
               " regs=" + std::to_string(r.regs);
    auto launch = [&] {
      ks[m]<<<blocks, 256, 0, b.stream>>>(x, unsigned(nx - 1), hops, 0u, out, span, smid);
    };
    r.t = time_case(b, 5, true, launch);
    CK(cudaDeviceSynchronize());
    const size_t nw = size_t(blocks) * 8;
    std::vector<unsigned long long> sp(2 * nw);
    std::vector<int> sm(nw);
    CK(cudaMemcpy(sp.data(), span, sp.size() * sizeof(sp[0]), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(sm.data(), smid, sm.size() * sizeof(int), cudaMemcpyDeviceToHost));
    int nsm = b.sm_count, most_w = 0, most_b = 0;
    long long running = 0;
    std::vector<std::vector<std::pair<unsigned long long, int>>> wev(nsm), bev(nsm);
    for (unsigned blk = 0; blk < blocks; ++blk) {
      unsigned long long lo = ~0ull, hi = 0;
      int s = sm[size_t(blk) * 8];
      for (int wp = 0; wp < 8; ++wp) {
        size_t w = size_t(blk) * 8 + wp;
        REQUIRE(sm[w] == s && s >= 0 && s < nsm, "uneven: block %u on two SMs", blk);
        wev[s].push_back({sp[2 * w], 1});
        wev[s].push_back({sp[2 * w + 1], -1});
        lo = std::min(lo, sp[2 * w]);
        hi = std::max(hi, sp[2 * w + 1]);
        running += sp[2 * w + 1] - sp[2 * w] > 2000;  // longer than 2 us: it ran the hops
      }
      bev[s].push_back({lo, 1});
      bev[s].push_back({hi, -1});
    }
    for (int s = 0; s < nsm; ++s) {
      most_w = std::max(most_w, most_open(wev[s]));
      most_b = std::max(most_b, most_open(bev[s]));
    }
    fprintf(side, "%s,%s,%s,%u,%lld,%d,%d\n", r.family.c_str(), r.name.c_str(),
            r.params.c_str(), blocks, running, most_w, most_b);
    fflush(side);
    emit(b, r);
  }
  fclose(side);
  CK(cudaFree(x));
  CK(cudaFree(out));
  CK(cudaFree(span));
  CK(cudaFree(smid));
  bench_close(b);
  return 0;
}
