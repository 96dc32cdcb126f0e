// bench_mlp.cu - memory-level parallelism of straight-line code (family `mlp`):
// a fully unrolled body of N loads, each followed by an FMA into one accumulator,
// with independent addresses (nvcc may hoist the loads above the FMAs) or with
// each address taken from the value of the load before it (a chain: the loads
// cannot overlap). Working set L1-resident (16 KiB), L2-resident (16 MiB) or
// DRAM (1 GiB, L2 flushed before every repetition). README.md beside this file
// describes the rows. Same timing method and CSV columns as bench_own.cu.
//
// usage: bench_mlp OUT.csv [device]
#include "common.cuh"

// in[] holds (i % 4) * 0.5: values below 2.0, so (bits >> 30) of every value is 0,
// which the compiler cannot know: a chained address depends on the loaded value
// but lands where the independent one does (same lines, same coalescing).
static const unsigned kPeriod = 4;
static const float kScale = 0.5f;

// Weight of tap k (an immediate operand of the FFMA): exact in fp32.
__host__ __device__ static inline float tap_weight(int k) { return 1.0f + k / 64.0f; }

// One thread: N unrolled taps s = fma(in[idx_k & mask], w_k, s);
// idx_k = k * T + g (T threads in the grid), plus (value of tap k-1 >> 30) when CHAIN.
template <int N, bool CHAIN>
__global__ void k_mlp(const float *__restrict__ in, float *out, unsigned mask, unsigned T) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned idx = g;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < N; ++k) {
    float v = in[idx & mask];
    s = fmaf(v, tap_weight(k), s);
    idx = (unsigned)(k + 1) * T + g;
    if (CHAIN) idx += __float_as_uint(v) >> 30;
  }
  out[g] = s;
}

// Host mirror of k_mlp for thread g.
static float mlp_want(int n, bool chain, unsigned mask, unsigned T, unsigned g) {
  unsigned idx = g;
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    float v = pattern_at(idx & mask, kPeriod, kScale);
    s = fmaf(v, tap_weight(k), s);
    idx = (unsigned)(k + 1) * T + g;
    if (chain) {
      unsigned bits;
      memcpy(&bits, &v, sizeof bits);
      idx += bits >> 30;
    }
  }
  return s;
}

typedef void (*mlp_kernel_t)(const float *, float *, unsigned, unsigned);

struct Variant {
  int n;
  bool chain;
  mlp_kernel_t k;
};

static const Variant kVariants[] = {
    {1, false, k_mlp<1, false>},   {4, false, k_mlp<4, false>},
    {16, false, k_mlp<16, false>}, {49, false, k_mlp<49, false>},
    {1, true, k_mlp<1, true>},     {4, true, k_mlp<4, true>},
    {16, true, k_mlp<16, true>},   {49, true, k_mlp<49, true>},
};

struct WorkingSet {
  const char *name;
  unsigned log2_floats;
  bool cold;
};

static const WorkingSet kSets[] = {
    {"l1", 12, false},   // 16 KiB: every SM's L1 holds it after the warm-ups
    {"l2", 22, false},   // 16 MiB: L2-resident, far more than an SM's L1 sees again
    {"dram", 28, true},  // 1 GiB, L2 flushed before each repetition
};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.csv [device]\n", argv[0]);
    return 2;
  }
  int dev = argc > 2 ? atoi(argv[2]) : 0;
  Bench b;
  bench_open(b, argv[1], dev);
  fprintf(stderr, "bench_mlp on %s (%d SMs)\n", b.prop.name, b.sm_count);

  const size_t nin = size_t(1) << 28;
  float *in, *out;
  CK(cudaMalloc(&in, nin * sizeof(float)));
  fill_pattern(in, nin, kPeriod, kScale);

  // pinned: one 256-thread block per SM (dynamic shared memory), 64 waves;
  // full: 4224 blocks of 256 without shared memory (as many per SM as registers allow).
  const int block = 256;
  const unsigned pinned_grid = 64u * b.sm_count, full_grid = 32u * b.sm_count;
  const size_t pinned_dyn = dyn_smem_for_bpsm(b.prop, 1);
  CK(cudaMalloc(&out, (size_t)pinned_grid * block * sizeof(float)));
  for (const Variant &v : kVariants) allow_dyn_smem(v.k, pinned_dyn);

  for (int shape = 0; shape < 2; ++shape) {
    const unsigned grid = shape == 0 ? pinned_grid : full_grid;
    const size_t dyn = shape == 0 ? pinned_dyn : 0;
    const unsigned T = grid * block;
    for (const WorkingSet &ws : kSets) {
      const unsigned mask = (1u << ws.log2_floats) - 1;
      for (const Variant &v : kVariants) {
        if (shape == 1 && v.n != 49 && v.n != 16) continue;
        Row r;
        r.family = "mlp";
        r.name = std::string(v.chain ? "chain" : "indep") + "_n" + std::to_string(v.n);
        r.params = std::string("ws=") + ws.name + " shape=" + (shape == 0 ? "pinned" : "full");
        row_shape(r, v.k, dim3(grid), dim3(block), dyn);
        r.t = time_case(b, 7, ws.cold, [&] {
          v.k<<<grid, block, dyn, b.stream>>>(in, out, mask, T);
        });
        r.bytes = (unsigned long long)T * 4ull * (v.n + 1);
        r.flops = (unsigned long long)T * 2ull * v.n;
        emit(b, r);
        check_spread(r.name.c_str(), out, T, [&](size_t g) {
          return mlp_want(v.n, v.chain, mask, T, (unsigned)g);
        });
      }
    }
  }

  CK(cudaFree(in));
  CK(cudaFree(out));
  bench_close(b);
  fprintf(stderr, "bench_mlp: done\n");
  return 0;
}
