// bench_colwalk.cu - column walks: a thread per column of a row-major matrix, a loop over
// its rows whose trip count is a run-time value (family `colwalk`).
//
// k_cw<U, X>: thread r of `n` (coalesced across a warp) sums over k < m (a kernel argument)
//   X = 0   s += a[k * n + r]
//   X = 1   s += a[k * n + r] * x[k]        (x[k]: one warp-uniform float a trip)
// then y[r] = s. a and x are const __restrict__ (LDG.E.CONSTANT). U = 0: the loop as
// written, unrolled as nvcc chooses; U = 1, 2, 4, 8: `#pragma unroll U`.
// Shapes: every SM one block (grid = SMs) of 64 .. 1024 threads (2 .. 32 warps per SM),
// m = 2048 rows; and blocks of 256 on a quarter and half of the SMs (grid 33, 66) with
// m = 8192. a is at least 68 MiB, read once after the memset flush (every line from DRAM).
// k_cwp<U> (rows p_u*): the same walk with the distance between a warp's trips set apart
// from the threads: warp w's lane l sums over k < m = 256 the float a[(w m + k) P + l],
// so its trips read lines `pitch` = 4 P bytes apart (P = 32: consecutive lines, one DRAM
// run) in a region of its own; pitch 128 B to 64 KiB, blocks of 64 and 256 threads on
// every SM (2 and 8 warps per SM), U = 0, 1, 4, 8.
// k_cwb<U> (rows b_u*): a block's copy-loop walk, thread t of block b summing
// a[(b m + k) B + t] over k < m = 256, B = blockDim.x: one warp's trips lie 4 B bytes
// apart (1 to 4 KiB), the block's warps reading the lines between them at the same trip;
// one block of 256, 512 or 1024 threads per SM, beside the same pitches read by warps
// in regions of their own (p_u* at blocks of 512 and 1024).
// Median of 7 repetitions after 2 warm-ups; y is checked against the host for a few
// threads.
//
// usage: bench_colwalk OUT.csv [device]
#include "common.cuh"

template <int U, int X>
__global__ void k_cw(const float *__restrict__ a, const float *__restrict__ x,
                     float *__restrict__ y, int n, int m) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float s = 0.0f;
  if (U == 0) {
    for (int k = 0; k < m; ++k) s += X ? a[(size_t)k * n + r] * x[k] : a[(size_t)k * n + r];
  } else {
#pragma unroll(U > 0 ? U : 1)
    for (int k = 0; k < m; ++k) s += X ? a[(size_t)k * n + r] * x[k] : a[(size_t)k * n + r];
  }
  y[r] = s;
}

template <int U>
__global__ void k_cwp(const float *__restrict__ a, float *__restrict__ y, int m, int P) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = a + (size_t)(r / 32) * m * P + r % 32;
  float s = 0.0f;
  if (U == 0) {
    for (int k = 0; k < m; ++k) s += p[(size_t)k * P];
  } else {
#pragma unroll(U > 0 ? U : 1)
    for (int k = 0; k < m; ++k) s += p[(size_t)k * P];
  }
  y[r] = s;
}

template <int U>
__global__ void k_cwb(const float *__restrict__ a, float *__restrict__ y, int m, int P) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  const float *p = a + (size_t)blockIdx.x * m * P + threadIdx.x;
  float s = 0.0f;
#pragma unroll(U)
  for (int k = 0; k < m; ++k) s += p[(size_t)k * P];
  y[r] = s;
}

typedef void (*Kern)(const float *, const float *, float *, int, int);
typedef void (*KernP)(const float *, float *, int, int);

static KernP pick_p(int u) {
  switch (u) {
  case 0: return k_cwp<0>;
  case 1: return k_cwp<1>;
  case 4: return k_cwp<4>;
  default: return k_cwp<8>;
  }
}

template <int X>
static Kern pick(int u) {
  switch (u) {
  case 0: return k_cw<0, X>;
  case 1: return k_cw<1, X>;
  case 2: return k_cw<2, X>;
  case 4: return k_cw<4, X>;
  default: return k_cw<8, X>;
  }
}

static float aval(size_t e) { return (float)(hash32((unsigned)e ^ 0x9e3779b9u) & 255) / 256.0f; }
static float xval(int k) { return (float)(hash32((unsigned)k) & 1023) / 1024.0f; }

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int sms = b.sm_count;
  // the largest shape: 1024 threads on every SM x 2048 rows, or 66 x 256 x 8192
  const size_t maxe = std::max((size_t)sms * 1024 * 2048, (size_t)66 * 256 * 8192);
  float *a, *x, *y;
  CK(cudaMalloc(&a, maxe * 4));
  CK(cudaMalloc(&x, (size_t)8192 * 4));
  CK(cudaMalloc(&y, (size_t)sms * 1024 * 4));
  {
    std::vector<float> ha(maxe), hx(8192);
    for (size_t e = 0; e < maxe; ++e) ha[e] = aval(e);
    for (int k = 0; k < 8192; ++k) hx[k] = xval(k);
    CK(cudaMemcpy(a, ha.data(), maxe * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(x, hx.data(), (size_t)8192 * 4, cudaMemcpyHostToDevice));
  }
  struct Shape {
    int grid, block, m;
  };
  std::vector<Shape> shapes;
  for (int bt : {64, 128, 256, 512, 1024}) shapes.push_back({sms, bt, 2048});
  shapes.push_back({sms / 4, 256, 8192});
  shapes.push_back({sms / 2, 256, 8192});
  for (const Shape &s : shapes) {
    const int n = s.grid * s.block, m = s.m;
    const bool full = s.grid == sms;
    for (int X = 0; X <= 1; ++X) {
      for (int u : {0, 1, 2, 4, 8}) {
        if (!full && u != 0 && u != 4) continue;
        Kern k = X ? pick<1>(u) : pick<0>(u);
        Row row;
        row.family = "colwalk";
        row.name = std::string(X ? "ax" : "a") + "_u" + std::to_string(u);
        row.params = "n=" + std::to_string(n) + " m=" + std::to_string(m) +
                     " block=" + std::to_string(s.block) + " grid=" + std::to_string(s.grid);
        row_shape(row, k, dim3(s.grid), dim3(s.block), 0);
        row.t = time_case(b, 7, true, [&] { k<<<s.grid, s.block, 0, b.stream>>>(a, x, y, n, m); });
        row.bytes = (unsigned long long)n * m * 4 + (unsigned long long)n * 4;
        row.flops = (unsigned long long)n * m * (X ? 2 : 1);
        std::vector<float> hy(n);
        CK(cudaMemcpy(hy.data(), y, (size_t)n * 4, cudaMemcpyDeviceToHost));
        for (int r = 0; r < n; r += n / 5 + 1) {
          double want = 0;
          for (int kk = 0; kk < m; ++kk)
            want += X ? (double)aval((size_t)kk * n + r) * xval(kk) : aval((size_t)kk * n + r);
          REQUIRE(fabs(hy[r] - want) <= 1e-3 * (1.0 + fabs(want)), "colwalk %s %s: r %d got %g want %g",
                  row.name.c_str(), row.params.c_str(), r, hy[r], want);
        }
        emit(b, row);
      }
    }
  }
  CK(cudaFree(a));
  // the pitch rows: 8 warps per SM x 256 trips x up to 64 KiB each, a pattern filled on
  // the device (period 1021)
  {
    const int mp = 256, maxP = 16384;
    const size_t maxp = (size_t)sms * 8 * mp * maxP;
    float *ap;
    CK(cudaMalloc(&ap, maxp * 4));
    fill_pattern(ap, maxp, 1021, 1.0f / 1024);
    // one row: kernel k (name `nm`) over blocks of bt threads, `group` threads (a warp, or
    // the block) walking a region of their own, their trips P floats apart
    auto pitch_row = [&](const std::string &nm, KernP k, int bt, int P, int group) {
      const int n = sms * bt;
      Row row;
      row.family = "colwalk";
      row.name = nm;
      row.params = "pitch=" + std::to_string(4 * P) + "B m=" + std::to_string(mp) +
                   " block=" + std::to_string(bt) + " grid=" + std::to_string(sms);
      row_shape(row, k, dim3(sms), dim3(bt), 0);
      row.t = time_case(b, 7, true, [&] { k<<<sms, bt, 0, b.stream>>>(ap, y, mp, P); });
      row.bytes = (unsigned long long)n * mp * 4 + (unsigned long long)n * 4;
      row.flops = (unsigned long long)n * mp;
      std::vector<float> hy(n);
      CK(cudaMemcpy(hy.data(), y, (size_t)n * 4, cudaMemcpyDeviceToHost));
      for (int r = 0; r < n; r += n / 5 + 1) {
        double want = 0;
        for (int kk = 0; kk < mp; ++kk)
          want += pattern_at(((size_t)(r / group) * mp + kk) * P + r % group, 1021, 1.0f / 1024);
        REQUIRE(fabs(hy[r] - want) <= 1e-3 * (1.0 + fabs(want)), "colwalk %s %s: r %d got %g want %g",
                row.name.c_str(), row.params.c_str(), r, hy[r], want);
      }
      emit(b, row);
    };
    for (int bt : {64, 256})
      for (int P : {32, 64, 128, 256, 512, 1024, 2048, 4096, 16384})
        for (int u : {0, 1, 4, 8})
          if (!(bt == 256 && u == 4)) pitch_row("p_u" + std::to_string(u), pick_p(u), bt, P, 32);
    // a block's copy loop (b) against warps in regions of their own (p), one block per SM
    for (int bt : {256, 512, 1024})
      for (int form = 0; form < 2; ++form)
        for (int u : {1, 4, 8}) {
          if (form == 1 && bt == 256) continue;  // p at 1 KiB and 8 warps: above
          if (form == 0)
            pitch_row("b_u" + std::to_string(u), u == 1 ? k_cwb<1> : u == 4 ? k_cwb<4> : k_cwb<8>,
                      bt, bt, bt);
          else
            pitch_row("p_u" + std::to_string(u), pick_p(u), bt, bt, 32);
        }
    CK(cudaFree(ap));
  }
  CK(cudaFree(x));
  CK(cudaFree(y));
  bench_close(b);
  return 0;
}
