// bench_l2req.cu - the rate at which the L2 serves requests of one sector of each of m
// lines, against how the m lines of a warp's request lie (family `l2req`, raw data).
//
// k_l2req<LAY>: one or two blocks of 1024 threads (32 or 64 warps) on each of `sms` SMs
// (132: all, 66: L1-bound, the L2 half as busy); warp g's
// request i (i < 1024, `#pragma unroll 8`: 8 requests in flight a warp) names m lines,
// lane l reading word l / m of line j = l % m, so every line gives one sector
// (m = 4, 8, 16, 32: 8, 4, 2, 1 words of it). The request's base line
// b = h(g, i) is drawn by a multiplicative hash; its lines are
//   LAY = stride   b + j s (s = 1: adjacent lines, 2, 4, 8, 32, 128, 1024 lines apart);
//   LAY = random   h(b + j): m lines drawn independently;
//   LAY = walk     as stride, with b = 97 g + i m s: a warp's requests follow each other
//                  through the buffer (s = 1: bench_chase's gather, run7);
// each taken modulo the buffer's lines (16 MiB: L2-resident after the warm-ups, 131072
// lines; 64 KiB: L1-resident, 512 lines). __ldg loads (LDG.E.CONSTANT), summed into one
// accumulator a warp writes at the end. Timed with events (2 warm-ups, 7 repetitions,
// no flush: the 16 MiB stay in L2).
//
// The `scatter` rows (run10) put random one-sector lines at 1.52 SM cycles a line on
// 132 SMs, the `chase` gather rows (run7) adjacent lines at about 1.07: this bench
// separates the layout from the count of lines a request names.
//
// usage: bench_l2req OUT.csv [device]
#include "common.cuh"

enum { LAY_STRIDE = 0, LAY_RANDOM = 1, LAY_WALK = 2 };

__device__ __forceinline__ unsigned mix(unsigned x) {
  x *= 0x9E3779B1u;
  return x ^ (x >> 15);
}

template <int LAY>
__global__ void __launch_bounds__(1024) k_l2req(const float *__restrict__ a, unsigned mask,
                                                int m, int s, int requests, float *out) {
  const int lane = threadIdx.x & 31;
  const unsigned g = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const int j = lane % m, w = lane / m;
  float acc = 0.f;
#pragma unroll 8
  for (int i = 0; i < requests; ++i) {
    const unsigned b = LAY == LAY_WALK ? g * 97u + (unsigned)(i * m * s)
                                       : mix(g * 65599u + (unsigned)i * 2654435761u);
    unsigned line = LAY == LAY_RANDOM ? mix(b + 0x632BE5ABu * (unsigned)j) : b + (unsigned)(j * s);
    line &= mask;
    acc += __ldg(a + (size_t)line * 32 + w);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void k_fill(float *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = float(i % 7) * 0.25f;
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int requests = 1024, reps = 7;
  const size_t big = size_t(16) << 20;
  float *a = nullptr, *out = nullptr;
  CK(cudaMalloc(&a, big));
  CK(cudaMalloc(&out, sizeof(float) * 1024 * b.sm_count));
  k_fill<<<4 * b.sm_count, 256, 0, b.stream>>>(a, big / 4);
  CK_LAUNCH();
  CK(cudaStreamSynchronize(b.stream));
  const size_t sizes[] = {size_t(64) << 10, big};
  const int ms[] = {4, 8, 16, 32};
  // {layout, s}
  const int cases[][2] = {{LAY_STRIDE, 1},  {LAY_STRIDE, 2},   {LAY_STRIDE, 4},
                          {LAY_STRIDE, 8},  {LAY_STRIDE, 32},  {LAY_STRIDE, 128},
                          {LAY_STRIDE, 1024}, {LAY_RANDOM, 1}, {LAY_WALK, 1},
                          {LAY_WALK, 2},    {LAY_WALK, 8}};
  const char *lname[] = {"stride", "random", "walk"};
  typedef void (*kern_t)(const float *, unsigned, int, int, int, float *);
  const kern_t kern[] = {k_l2req<LAY_STRIDE>, k_l2req<LAY_RANDOM>, k_l2req<LAY_WALK>};
  // {SMs, blocks of 1024 threads per SM}: a grid of `SMs` blocks lands one on each of
  // that many SMs; 2 x sm_count blocks two on every SM (64 warps, as bench_chase's gather)
  const int shapes[][2] = {{b.sm_count, 1}, {b.sm_count, 2}, {b.sm_count / 2, 1}};
  for (size_t ws : sizes) {
    const unsigned mask = (unsigned)(ws / 128) - 1;
    for (const auto &sh : shapes)
      for (int m : ms)
        for (const auto &cs : cases) {
          const int lay = cs[0], s = cs[1], sms = sh[0], bpsm = sh[1];
          Row r;
          r.family = "l2req";
          char nm[32], ps[128];
          snprintf(nm, sizeof nm, "%s", lname[lay]);
          snprintf(ps, sizeof ps, "ws=%s m=%d s=%d sms=%d warps=%d requests=%d",
                   ws == big ? "16M" : "64K", m, s, sms, 32 * bpsm, requests);
          r.name = nm;
          r.params = ps;
          dim3 grid(sms * bpsm), block(1024);
          const kern_t k = kern[lay];
          auto launch = [&]() { k<<<grid, block, 0, b.stream>>>(a, mask, m, s, requests, out); };
          row_shape(r, k, grid, block, 0);
          r.t = time_case(b, reps, false, launch);
          r.bytes = (unsigned long long)sms * bpsm * 32 * requests * m * 32;  // sectors' bytes
          emit(b, r);
        }
  }
  CK(cudaFree(a));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
