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

// in[i] = (i % 4) * 0.5: every value is below 2.0, so (bits >> 30) is 0, which the
// compiler cannot know: a chained address depends on the value loaded before it
// but lands where the independent one does (same lines, same coalescing).
#define W(k) (1.0f + (k) / 64.0f)  // weight of tap k (an FFMA immediate), exact in fp32

// One thread: N unrolled taps s = fma(in[idx & mask], W(k), s), idx = k * T + g
// (T threads in the grid), plus (the bits of tap k-1's value >> 30) when C (chain).
template <int N, bool C>
__global__ void k_mlp(const float *__restrict__ in, float *out, unsigned mask, unsigned T) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x, i = g;
  float s = 0;
#pragma unroll
  for (int k = 0; k < N; ++k) {
    float v = in[i & mask];
    s = fmaf(v, W(k), s);
    i = (k + 1) * T + g + (C ? __float_as_uint(v) >> 30 : 0);
  }
  out[g] = s;
}

// Host mirror of k_mlp for thread g (the chain term is always 0, see above).
static float want(int n, unsigned mask, unsigned T, unsigned g) {
  float s = 0;
  for (int k = 0; k < n; ++k) s = fmaf(pattern_at((k * T + g) & mask, 4, 0.5f), W(k), s);
  return s;
}

typedef void (*kern_t)(const float *, float *, unsigned, unsigned);

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int ns[8] = {1, 4, 16, 49, 1, 4, 16, 49};
  const kern_t ks[8] = {k_mlp<1, 0>, k_mlp<4, 0>, k_mlp<16, 0>, k_mlp<49, 0>,
                        k_mlp<1, 1>, k_mlp<4, 1>, k_mlp<16, 1>, k_mlp<49, 1>};
  const char *wsn[3] = {"l1", "l2", "dram"};
  const int wsl[3] = {12, 22, 28};  // log2 of the working set in floats: 16 KiB, 16 MiB, 1 GiB
  float *in, *out;
  CK(cudaMalloc(&in, (size_t(1) << 28) * 4));
  fill_pattern(in, size_t(1) << 28, 4, 0.5f);
  // pinned: one 256-thread block per SM (dynamic shared memory), 64 waves;
  // full: 32 blocks of 256 per SM, no shared memory (as many resident as registers allow).
  size_t pdyn = dyn_smem_for_bpsm(b.prop, 1);
  CK(cudaMalloc(&out, (size_t)64 * b.sm_count * 256 * 4));
  for (int v = 0; v < 8; ++v) allow_dyn_smem(ks[v], pdyn);
  for (int sh = 0; sh < 2; ++sh)
    for (int w = 0; w < 3; ++w)
      for (int v = 0; v < 8; ++v) {
        if (sh && ns[v] < 16) continue;
        unsigned grid = (sh ? 32 : 64) * b.sm_count, T = grid * 256, mask = (1u << wsl[w]) - 1;
        size_t dyn = sh ? 0 : pdyn;
        kern_t k = ks[v];
        Row r;
        r.family = "mlp";
        r.name = std::string(v < 4 ? "indep_n" : "chain_n") + std::to_string(ns[v]);
        r.params = std::string("ws=") + wsn[w] + (sh ? " shape=full" : " shape=pinned");
        row_shape(r, k, dim3(grid), dim3(256), dyn);
        r.t = time_case(b, 7, w == 2, [&] { k<<<grid, 256, dyn, b.stream>>>(in, out, mask, T); });
        r.bytes = 4ull * T * (ns[v] + 1);
        r.flops = 2ull * T * ns[v];
        emit(b, r);
        check_spread(r.name.c_str(), out, T, [&](size_t g) { return want(ns[v], mask, T, g); });
      }
  CK(cudaFree(in));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
