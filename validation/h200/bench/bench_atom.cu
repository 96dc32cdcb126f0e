// bench_atom.cu - atomics whose addresses come from data (family `atom`): every
// thread of a full-occupancy grid does A atomicAdds (grid-stride element
// i = a * T + g, T threads in the grid, g the thread) into K bins, for
//   array   lane bins uniformly random, read from a precomputed 64 MiB index
//           array (coalesced, idx[i mod 2^24] & (K-1));
//   hash    the same distribution from a hash computed in registers (no load);
//   warp    one bin per warp (all 32 lanes alike), random across warps;
//   consec  lane l -> (base + l) & (K-1), base random per warp;
//   centroid bin = cluster * d + j, cluster random per thread and element, j
//           looping 0..d-1 (a k-means centroid sum; f32 only);
// u32 (atomicAdd(&bin, 1u)) and f32 (atomicAdd(&bin, 1.0f)); the returned value
// used (ATOM / ATOMS in SASS) or discarded (RED in SASS for global); global bins
// (zeroed before every repetition, L2-resident) and shared bins (one set per
// block in dynamic shared memory, K <= 4096; only a per-block checksum and
// block 0's bins are written back). A is doubled from 1 until one run takes at
// least 25 us. Every run's bins are checked on the host: global bins bin by bin
// against a host replay of the hash, shared bins by the per-block sums and block
// 0's bins bin by bin.
//
// usage: bench_atom OUT.csv RATES.csv [device]
// OUT.csv has the columns of validation/h200/calibration.csv's sources
// (common.cuh emit); RATES.csv one line per case with the atomics issued and the
// rate in atomics per cycle (GPU-wide and per SM) at the card's maximum SM clock.
#include "common.cuh"

#include <map>
#include <tuple>

enum { P_ARRAY, P_HASH, P_WARP, P_CONSEC, P_CENTROID };
static const char *kPatName[] = {"array", "hash", "warp", "consec", "centroid"};
static const unsigned kIdxLog = 24;  // index array: 2^24 u32 = 64 MiB (> the 50 MiB L2)

__host__ __device__ static inline uint32_t hkey(uint32_t i, uint32_t seed) {
  return hash32(i * 0x9E3779B9U + seed);
}
static const uint32_t kSeedArray = 0x1234567U, kSeedHash = 0x2468aceU, kSeedWarp = 0x13579bdU;

// The bin of atomic (element i, centroid step j) of lane `lane` in global warp
// `gw` (warp-granular element wi = a * (T / 32) + gw), the same on host and device.
__host__ __device__ static inline uint32_t bin_of(int pat, const uint32_t *idx, uint32_t i,
                                                  uint32_t wi, uint32_t lane, uint32_t K,
                                                  uint32_t d, uint32_t j) {
  switch (pat) {
  case P_ARRAY: return idx[i & ((1u << kIdxLog) - 1)] & (K - 1);
  case P_HASH: return hkey(i, kSeedHash) & (K - 1);
  case P_WARP: return hkey(wi, kSeedWarp) & (K - 1);
  case P_CONSEC: return (hkey(wi, kSeedWarp) + lane) & (K - 1);
  default: return (hkey(i, kSeedHash) & (K / d - 1)) * d + j;
  }
}

__global__ void k_fill_idx(uint32_t *idx, uint32_t n) {
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    idx[i] = hkey(i, kSeedArray);
}

template <typename T> __device__ inline T one();
template <> __device__ inline uint32_t one<uint32_t>() { return 1u; }
template <> __device__ inline float one<float>() { return 1.0f; }

template <typename T> __device__ inline uint32_t bits(T v);
template <> __device__ inline uint32_t bits<uint32_t>(uint32_t v) { return v; }
template <> __device__ inline uint32_t bits<float>(float v) { return __float_as_uint(v); }

// Global bins: A elements per thread, d atomics per element (d = 1 but for centroid).
// RET: the returned values are summed and stored where they equal `magic` (never:
// the compiler cannot know), so the atomic is an ATOM rather than a RED.
template <int PAT, typename T, bool RET>
__global__ void k_atom_global(void *bins_v, const uint32_t *__restrict__ idx, uint32_t K, int A,
                              uint32_t d, uint32_t magic, uint32_t *sink) {
  T *bins = static_cast<T *>(bins_v);
  uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, Tn = gridDim.x * blockDim.x;
  uint32_t lane = threadIdx.x & 31, gw = g >> 5, W = Tn >> 5;
  T acc = T(0);
  for (int a = 0; a < A; ++a) {
    uint32_t i = a * Tn + g, wi = a * W + gw;
    if (PAT == P_CENTROID) {
      uint32_t base = bin_of(P_CENTROID, idx, i, wi, lane, K, d, 0);
      for (uint32_t j = 0; j < d; ++j) {
        if (RET)
          acc += atomicAdd(&bins[base + j], one<T>());
        else
          atomicAdd(&bins[base + j], one<T>());
      }
    } else {
      uint32_t b = bin_of(PAT, idx, i, wi, lane, K, 1, 0);
      if (RET)
        acc += atomicAdd(&bins[b], one<T>());
      else
        atomicAdd(&bins[b], one<T>());
    }
  }
  if (RET && bits<T>(acc) == magic) sink[g] = bits<T>(acc);
}

// Shared bins: the same, into K bins per block in dynamic shared memory. After the
// atomics each block writes the sum of its bins to bsum[block]; block 0 also
// writes its bins to out0.
template <int PAT, typename T, bool RET>
__global__ void k_atom_shared(const uint32_t *__restrict__ idx, uint32_t K, int A, uint32_t d,
                              uint32_t magic, uint32_t *sink, unsigned long long *bsum,
                              void *out0_v) {
  T *out0 = static_cast<T *>(out0_v);
  extern __shared__ unsigned char smem_raw[];
  T *bins = reinterpret_cast<T *>(smem_raw);
  __shared__ unsigned long long part[32];
  for (uint32_t k = threadIdx.x; k < K; k += blockDim.x) bins[k] = T(0);
  __syncthreads();
  uint32_t g = blockIdx.x * blockDim.x + threadIdx.x, Tn = gridDim.x * blockDim.x;
  uint32_t lane = threadIdx.x & 31, gw = g >> 5, W = Tn >> 5;
  T acc = T(0);
  for (int a = 0; a < A; ++a) {
    uint32_t i = a * Tn + g, wi = a * W + gw;
    if (PAT == P_CENTROID) {
      uint32_t base = bin_of(P_CENTROID, idx, i, wi, lane, K, d, 0);
      for (uint32_t j = 0; j < d; ++j) {
        if (RET)
          acc += atomicAdd(&bins[base + j], one<T>());
        else
          atomicAdd(&bins[base + j], one<T>());
      }
    } else {
      uint32_t b = bin_of(PAT, idx, i, wi, lane, K, 1, 0);
      if (RET)
        acc += atomicAdd(&bins[b], one<T>());
      else
        atomicAdd(&bins[b], one<T>());
    }
  }
  if (RET && bits<T>(acc) == magic) sink[g] = bits<T>(acc);
  __syncthreads();
  unsigned long long s = 0;
  for (uint32_t k = threadIdx.x; k < K; k += blockDim.x) {
    s += (unsigned long long)bins[k];
    if (blockIdx.x == 0) out0[k] = bins[k];
  }
  for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) part[threadIdx.x >> 5] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long t = 0;
    for (uint32_t w = 0; w < blockDim.x / 32; ++w) t += part[w];
    bsum[blockIdx.x] = t;
  }
}

typedef void (*gkern_t)(void *, const uint32_t *, uint32_t, int, uint32_t, uint32_t, uint32_t *);
typedef void (*skern_t)(const uint32_t *, uint32_t, int, uint32_t, uint32_t, uint32_t *,
                        unsigned long long *, void *);

template <int PAT, typename T, bool RET> static gkern_t gk() {
  return k_atom_global<PAT, T, RET>;
}
template <int PAT, typename T, bool RET> static skern_t sk() {
  return k_atom_shared<PAT, T, RET>;
}

// kernel tables indexed [pattern][f32][ret]
static gkern_t gtab[5][2][2] = {
    {{gk<0, uint32_t, 0>(), gk<0, uint32_t, 1>()}, {gk<0, float, 0>(), gk<0, float, 1>()}},
    {{gk<1, uint32_t, 0>(), gk<1, uint32_t, 1>()}, {gk<1, float, 0>(), gk<1, float, 1>()}},
    {{gk<2, uint32_t, 0>(), gk<2, uint32_t, 1>()}, {gk<2, float, 0>(), gk<2, float, 1>()}},
    {{gk<3, uint32_t, 0>(), gk<3, uint32_t, 1>()}, {gk<3, float, 0>(), gk<3, float, 1>()}},
    {{gk<4, uint32_t, 0>(), gk<4, uint32_t, 1>()}, {gk<4, float, 0>(), gk<4, float, 1>()}}};
static skern_t stab[5][2][2] = {
    {{sk<0, uint32_t, 0>(), sk<0, uint32_t, 1>()}, {sk<0, float, 0>(), sk<0, float, 1>()}},
    {{sk<1, uint32_t, 0>(), sk<1, uint32_t, 1>()}, {sk<1, float, 0>(), sk<1, float, 1>()}},
    {{sk<2, uint32_t, 0>(), sk<2, uint32_t, 1>()}, {sk<2, float, 0>(), sk<2, float, 1>()}},
    {{sk<3, uint32_t, 0>(), sk<3, uint32_t, 1>()}, {sk<3, float, 0>(), sk<3, float, 1>()}},
    {{sk<4, uint32_t, 0>(), sk<4, uint32_t, 1>()}, {sk<4, float, 0>(), sk<4, float, 1>()}}};

// Host replay: the count every bin should hold after threads [g0, g1) of a grid of
// Tn threads ran A elements of pattern `pat` (d atomics each).
static std::vector<uint32_t> replay(int pat, const std::vector<uint32_t> &idx, uint32_t K,
                                    int A, uint32_t d, uint32_t Tn, uint32_t g0, uint32_t g1) {
  std::vector<uint32_t> h(K, 0);
  uint32_t W = Tn >> 5;
  for (int a = 0; a < A; ++a)
    for (uint32_t g = g0; g < g1; ++g) {
      uint32_t i = a * Tn + g, wi = a * W + (g >> 5);
      for (uint32_t j = 0; j < d; ++j) ++h[bin_of(pat, idx.data(), i, wi, g & 31, K, d, j)];
    }
  return h;
}

// Compare device bins (u32 or f32 holding integer counts) with the replay.
static void check_bins(const char *what, const void *dev, bool f32,
                       const std::vector<uint32_t> &want) {
  size_t K = want.size();
  std::vector<uint32_t> raw(K);
  CK(cudaMemcpy(raw.data(), dev, K * 4, cudaMemcpyDeviceToHost));
  for (size_t k = 0; k < K; ++k) {
    double got;
    if (f32) {
      float f;
      memcpy(&f, &raw[k], 4);
      got = f;
    } else {
      got = raw[k];
    }
    REQUIRE(got == (double)want[k], "%s: bin %zu = %.0f, expected %u", what, k, got, want[k]);
  }
}

struct Case {
  bool shared;
  int pat;
  bool f32, ret;
  uint32_t K, d;  // K bins in all (centroid: clusters * d)
};

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv RATES.csv [device]\n", argv[0]);
    return 2;
  }
  Bench b;
  int dev = argc > 3 ? atoi(argv[3]) : 0;
  bench_open(b, argv[1], dev);
  FILE *rates = fopen(argv[2], "w");
  REQUIRE(rates, "cannot write %s", argv[2]);
  double clock_hz = dev_attr(cudaDevAttrClockRate, dev) * 1e3;
  fprintf(rates, "# rates at the maximum SM clock %.0f MHz, %d SMs\n", clock_hz / 1e6,
          b.sm_count);
  fprintf(rates, "name,space,pattern,type,ret,K,d,clusters,A,threads,atomics,median_us,min_us,"
                 "atomics_per_cycle_gpu,atomics_per_sm_cycle\n");

  const uint32_t nidx = 1u << kIdxLog;
  uint32_t *idx;
  CK(cudaMalloc(&idx, (size_t)nidx * 4));
  k_fill_idx<<<4096, 256>>>(idx, nidx);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
  std::vector<uint32_t> hidx(nidx);
  for (uint32_t i = 0; i < nidx; ++i) hidx[i] = hkey(i, kSeedArray);
  {
    std::vector<uint32_t> chk(4096);
    CK(cudaMemcpy(chk.data(), idx + (nidx - 4096), 4096 * 4, cudaMemcpyDeviceToHost));
    for (uint32_t k = 0; k < 4096; ++k)
      REQUIRE(chk[k] == hidx[nidx - 4096 + k], "index array differs at %u", nidx - 4096 + k);
  }

  std::vector<Case> cases;
  const uint32_t gK[9] = {1, 2, 8, 32, 256, 1024, 4096, 65536, 1u << 20};
  for (int sh = 0; sh < 2; ++sh)
    for (int pat = 0; pat < 4; ++pat)
      for (int f = 0; f < 2; ++f)
        for (int r = 0; r < 2; ++r)
          for (uint32_t K : gK)
            if (!sh || K <= 4096) cases.push_back({sh != 0, pat, f != 0, r != 0, K, 1});
  for (int sh = 0; sh < 2; ++sh)
    for (uint32_t d : {4u, 16u})
      for (uint32_t cl : {8u, 32u}) cases.push_back({sh != 0, P_CENTROID, true, false, cl * d, d});

  const int block = 256;
  uint32_t *bins_g, *sink, *out0;
  unsigned long long *bsum;
  CK(cudaMalloc(&bins_g, (size_t(1) << 20) * 4));
  CK(cudaMalloc(&out0, 4096 * 4));
  std::map<std::tuple<int, uint32_t, int, uint32_t>, std::vector<uint32_t>> want_cache;
  // grid: as many 256-thread blocks as are resident at once (the tightest case
  // sets it for all: shared memory of K = 4096 words, 16 KiB)
  int bpsm_g = (int)occupancy(k_atom_global<P_ARRAY, float, true>, block, 0);
  int bpsm_s = (int)occupancy(k_atom_shared<P_ARRAY, float, true>, block, 4096 * 4);
  int bpsm = std::min(bpsm_g, bpsm_s);
  uint32_t grid = (uint32_t)(bpsm * b.sm_count), Tn = grid * block;
  CK(cudaMalloc(&sink, (size_t)Tn * 4));
  CK(cudaMalloc(&bsum, (size_t)grid * 8));
  fprintf(stderr, "bench_atom: %u blocks of %d threads (%d per SM), clock %.0f MHz\n", grid,
          block, bpsm, clock_hz / 1e6);

  for (const Case &c : cases) {
    size_t dyn = c.shared ? (size_t)c.K * 4 : 0;
    gkern_t gkn = gtab[c.pat][c.f32][c.ret];
    skern_t skn = stab[c.pat][c.f32][c.ret];
    auto launch = [&](int A) {
      if (c.shared)
        skn<<<grid, block, dyn, b.stream>>>(idx, c.K, A, c.d, 0xdeadbeefu, sink, bsum, out0);
      else
        gkn<<<grid, block, 0, b.stream>>>(bins_g, idx, c.K, A, c.d, 0xdeadbeefu, sink);
    };
    auto zero = [&] {
      if (!c.shared) CK(cudaMemsetAsync(bins_g, 0, (size_t)c.K * 4, b.stream));
    };
    // A: doubled from 1 until one run takes >= 25 us; f32 counts stay exact
    // (every bin below 2^24) and the element index stays below 2^32.
    int A = 1;
    for (;;) {
      Stats s = time_case(b, 1, false, [&] { launch(A); }, zero);
      double next = 2.0 * A * Tn * c.d;
      if (s.median_us >= 25 || A >= 4096 || next * 2 / c.K >= (1 << 24) ||
          2.0 * A * Tn >= 4.0e9)
        break;
      A *= 2;
    }
    Row r;
    r.family = "atom";
    r.name = std::string(c.shared ? "shared_" : "global_") + kPatName[c.pat] + "_" +
             (c.f32 ? "f32" : "u32") + (c.ret ? "_atom" : "_red");
    char p[160];
    if (c.pat == P_CENTROID)
      snprintf(p, sizeof p, "clusters=%u d=%u A=%d", c.K / c.d, c.d, A);
    else
      snprintf(p, sizeof p, "K=%u A=%d", c.K, A);
    r.params = p;
    if (c.shared) {
      r.grid_x = grid;
      r.block_x = block;
      r.dyn_smem = (long long)dyn;
      kernel_attrs(skn, &r.regs, &r.static_smem);
      r.blocks_per_sm = occupancy(skn, block, dyn);
    } else {
      r.grid_x = grid;
      r.block_x = block;
      kernel_attrs(gkn, &r.regs, &r.static_smem);
      r.blocks_per_sm = occupancy(gkn, block, 0);
    }
    REQUIRE(r.blocks_per_sm >= bpsm, "%s %s: only %lld blocks per SM resident", r.name.c_str(),
            p, r.blocks_per_sm);
    r.t = time_case(b, 7, false, [&] { launch(A); }, zero);
    double atomics = (double)A * Tn * c.d;
    r.bytes = c.pat == P_ARRAY ? 4ull * (unsigned long long)A * Tn : 0;
    r.flops = 0;
    emit(b, r);
    double per_cycle = atomics / (r.t.median_us * 1e-6 * clock_hz);
    fprintf(rates, "%s,%s,%s,%s,%d,%u,%u,%u,%d,%u,%.0f,%.3f,%.3f,%.4f,%.5f\n", r.name.c_str(),
            c.shared ? "shared" : "global", kPatName[c.pat], c.f32 ? "f32" : "u32", c.ret ? 1 : 0,
            c.K, c.d, c.K / c.d, A, Tn, atomics, r.t.median_us, r.t.min_us, per_cycle,
            per_cycle / b.sm_count);
    fflush(rates);
    // checks (the last repetition's results)
    CK(cudaStreamSynchronize(b.stream));
    std::string what = r.name + " " + p;
    if (c.shared) {
      std::vector<unsigned long long> bs(grid);
      CK(cudaMemcpy(bs.data(), bsum, grid * 8, cudaMemcpyDeviceToHost));
      for (uint32_t k = 0; k < grid; ++k)
        REQUIRE(bs[k] == (unsigned long long)A * block * c.d, "%s: block %u sums %llu, expected %llu",
                what.c_str(), k, bs[k], (unsigned long long)A * block * c.d);
      check_bins(what.c_str(), out0, c.f32, replay(c.pat, hidx, c.K, A, c.d, Tn, 0, block));
    } else {
      auto key = std::make_tuple(c.pat, c.K, A, c.d);
      auto it = want_cache.find(key);
      if (it == want_cache.end())
        it = want_cache.emplace(key, replay(c.pat, hidx, c.K, A, c.d, Tn, 0, Tn)).first;
      check_bins(what.c_str(), bins_g, c.f32, it->second);
    }
  }
  fclose(rates);
  CK(cudaFree(idx));
  CK(cudaFree(bins_g));
  CK(cudaFree(sink));
  CK(cudaFree(out0));
  CK(cudaFree(bsum));
  bench_close(b);
  return 0;
}
