// bench_alias.cu - loops that store into the buffer they load from (family `alias`).
//
// In `for (...) { v = p[x]; ...; p[y] = f(v); }` nvcc cannot move the next trip's
// load of p above this trip's store (x and y may name one word), and the store waits
// for v: each trip waits for its load of p. Stored elsewhere (restrict), the loads of
// later trips are hoisted and overlap. Kernels, each thread `trips` trips (grid-stride
// over n elements for the streams), 256-thread blocks, `bpsm` blocks per SM (pinned with
// dynamic shared memory), data from DRAM (L2 flushed) or L2 (warm, 8 MiB):
//   mark_same   u = idx[i & (n - 1)] (random, const restrict); if (p[u] == -1) p[u] = 1
//   mark_other  u = idx[i]; if (p[u] == -1) q[u] = 1      (p const restrict, q restrict)
//   scale_same  p[i] = p[i] * s + t over a grid-stride loop (p plain)
//   scale_other q[i] = p[i] * s + t                        (p const restrict, q restrict)
// Rows: event time (median of 9 after 2 warm-ups); the side table alias_cycles.csv has
// the clock64 cycles of each block's loop (median, min, max over blocks) per trip.
#include "common.cuh"

__global__ void k_mark_same(const int *__restrict__ idx, int *p, int trips, size_t n,
                            long long *cyc) {
  long long t0 = clock64();
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x, G = (size_t)gridDim.x * blockDim.x;
  for (int k = 0; k < trips; ++k) {
    int u = idx[(g + k * G) & (n - 1)];
    if (p[u] == -1) p[u] = 1;
  }
  __syncthreads();
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

__global__ void k_mark_other(const int *__restrict__ idx, const int *__restrict__ p,
                             int *__restrict__ q, int trips, size_t n, long long *cyc) {
  long long t0 = clock64();
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x, G = (size_t)gridDim.x * blockDim.x;
  for (int k = 0; k < trips; ++k) {
    int u = idx[(g + k * G) & (n - 1)];
    if (p[u] == -1) q[u] = 1;
  }
  __syncthreads();
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

__global__ void k_scale_same(float *p, int trips, float s, float t, long long *cyc) {
  long long t0 = clock64();
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x, G = (size_t)gridDim.x * blockDim.x;
  for (int k = 0; k < trips; ++k) {
    size_t i = g + k * G;
    p[i] = p[i] * s + t;
  }
  __syncthreads();
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

__global__ void k_scale_other(const float *__restrict__ p, float *__restrict__ q, int trips,
                              float s, float t, long long *cyc) {
  long long t0 = clock64();
  size_t g = (size_t)blockIdx.x * blockDim.x + threadIdx.x, G = (size_t)gridDim.x * blockDim.x;
  for (int k = 0; k < trips; ++k) {
    size_t i = g + k * G;
    q[i] = p[i] * s + t;
  }
  __syncthreads();
  if (threadIdx.x == 0) cyc[blockIdx.x] = clock64() - t0;
}

int main(int argc, char **argv) {
  Bench b;
  FILE *side = bench_open_side(b, argc, argv, "alias_cycles.csv",
                               "family,name,params,blocks,trips,cyc_med,cyc_min,cyc_max,"
                               "cyc_per_trip\n");
  const int sms = b.sm_count;
  const size_t nbig = size_t(1) << 26;  // 256 MiB of int/float: DRAM
  const size_t nl2 = size_t(1) << 21;   // 8 MiB: L2
  int *idx, *p, *q;
  long long *cyc;
  CK(cudaMalloc(&idx, nbig * 4));
  CK(cudaMalloc(&p, nbig * 4));
  CK(cudaMalloc(&q, nbig * 4));
  CK(cudaMalloc(&cyc, sizeof(long long) * sms * 8));
  {
    std::vector<int> h(nbig);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < nbig; ++i) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      h[i] = (int)(x % nbig);
    }
    CK(cudaMemcpy(idx, h.data(), nbig * 4, cudaMemcpyHostToDevice));
  }
  CK(cudaMemset(p, 0, nbig * 4));  // never -1: the mark kernels only read p
  CK(cudaMemset(q, 0, nbig * 4));
  const int kinds = 4;
  const char *names[kinds] = {"mark_same", "mark_other", "scale_same", "scale_other"};
  for (int kind = 0; kind < kinds; ++kind)
    for (int ws = 0; ws < 2; ++ws)
      for (int bpsm : {1, 2, 8}) {
        const bool dram = ws == 0;
        const size_t n = dram ? nbig : nl2;
        const int grid = sms * bpsm;
        const size_t G = (size_t)grid * 256;
        const int trips = kind < 2 ? 64 : (int)std::min<size_t>(n / G, 256);
        const size_t dyn = bpsm == 8 ? 0 : dyn_smem_for_bpsm(b.prop, bpsm);
        auto launch = [&] {
          switch (kind) {
            case 0: k_mark_same<<<grid, 256, dyn, b.stream>>>(idx, p, trips, n, cyc); break;
            case 1: k_mark_other<<<grid, 256, dyn, b.stream>>>(idx, p, q, trips, n, cyc); break;
            case 2: k_scale_same<<<grid, 256, dyn, b.stream>>>((float *)p, trips, 1.0f, 0.0f, cyc); break;
            default:
              k_scale_other<<<grid, 256, dyn, b.stream>>>((const float *)p, (float *)q, trips, 1.0f,
                                                          0.0f, cyc);
          }
        };
        switch (kind) {
          case 0: allow_dyn_smem(k_mark_same, dyn); break;
          case 1: allow_dyn_smem(k_mark_other, dyn); break;
          case 2: allow_dyn_smem(k_scale_same, dyn); break;
          default: allow_dyn_smem(k_scale_other, dyn);
        }
        Row r;
        r.family = "alias";
        r.name = names[kind];
        char ps[96];
        snprintf(ps, sizeof ps, "ws=%s bpsm=%d trips=%d n=2^%d", dram ? "dram" : "l2", bpsm, trips,
                 __builtin_ctzll(n));
        r.params = ps;
        switch (kind) {
          case 0: row_shape(r, k_mark_same, dim3(grid), dim3(256), dyn); break;
          case 1: row_shape(r, k_mark_other, dim3(grid), dim3(256), dyn); break;
          case 2: row_shape(r, k_scale_same, dim3(grid), dim3(256), dyn); break;
          default: row_shape(r, k_scale_other, dim3(grid), dim3(256), dyn);
        }
        r.t = time_case(b, 9, dram, [&] { launch(); });
        emit(b, r);
        const Cycles c = block_cycles(cyc, grid);
        fprintf(side, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.1f\n", r.family.c_str(), r.name.c_str(),
                r.params.c_str(), grid, trips, c.median, c.min, c.max, c.median / trips);
        fflush(side);
        fprintf(stderr, "      %-12s %-34s %8.1f cycles a trip\n", r.name.c_str(), ps, c.median / trips);
      }
  return 0;
}
