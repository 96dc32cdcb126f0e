// bench_guard.cu - loops whose loads sit behind a data-dependent guard (family `guard`).
//
// k_guard<MODE>: a thread per row r of `rows`, a loop over k < width (a run-time count)
// of c = ci[k * rows + r] (coalesced, 4 bytes), then by MODE
//   0 plain   s += v[k * rows + r] * x[c]            (no guard; every c valid)
//   1 guard   if (c >= 0) s += v[k * rows + r] * x[c]
//   2 gather  if (c >= 0) s += x[c]                  (the gather alone behind the guard)
// and y[r] = s. c is a random column in [0, rows) or, with probability p, -1 (padding,
// skipped). All inputs const __restrict__. rows = 2^16 and 2^20, width = 16 and 32,
// p = 0 and 0.5 (MODE 0: p = 0 only), blocks of 256; the memset flush before each
// repetition. Median of 7 repetitions after 2 warm-ups; y is checked against the host
// for a few rows.
//
// usage: bench_guard OUT.csv [device]
#include "common.cuh"

template <int MODE>
__global__ void k_guard(const int *__restrict__ ci, const float *__restrict__ v,
                        const float *__restrict__ x, float *__restrict__ y, int rows, int width) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.0f;
  for (int k = 0; k < width; ++k) {
    const size_t e = (size_t)k * rows + r;
    const int c = ci[e];
    if (MODE == 0) {
      s += v[e] * x[c];
    } else if (MODE == 1) {
      if (c >= 0) s += v[e] * x[c];
    } else {
      if (c >= 0) s += x[c];
    }
  }
  y[r] = s;
}

static const char *kNames[3] = {"plain", "guard", "gather"};

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int maxrows = 1 << 20, maxw = 32;
  const size_t maxe = (size_t)maxrows * maxw;
  int *ci;
  float *v, *x, *y;
  CK(cudaMalloc(&ci, maxe * 4));
  CK(cudaMalloc(&v, maxe * 4));
  CK(cudaMalloc(&x, (size_t)maxrows * 4));
  CK(cudaMalloc(&y, (size_t)maxrows * 4));
  std::vector<float> hv(maxe), hx(maxrows);
  for (size_t i = 0; i < maxe; ++i) hv[i] = (float)(hash32((unsigned)i ^ 0x5bd1e995u) & 255) / 256.0f;
  for (int i = 0; i < maxrows; ++i) hx[i] = (float)(hash32((unsigned)i) & 1023) / 1024.0f;
  CK(cudaMemcpy(v, hv.data(), maxe * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, hx.data(), (size_t)maxrows * 4, cudaMemcpyHostToDevice));
  std::vector<int> hc(maxe);
  for (int lg : {16, 20}) {
    const int rows = 1 << lg;
    for (int width : {16, 32}) {
      for (int pad = 0; pad <= 1; ++pad) {
        // column k * rows + r: random in [0, rows), -1 with probability 1/2 when padded
        const size_t ne = (size_t)rows * width;
        for (size_t e = 0; e < ne; ++e) {
          const unsigned h = hash32((unsigned)e * 2654435761u + (unsigned)lg);
          hc[e] = pad && (h >> 31) ? -1 : (int)(h % (unsigned)rows);
        }
        CK(cudaMemcpy(ci, hc.data(), ne * 4, cudaMemcpyHostToDevice));
        for (int mode = 0; mode < 3; ++mode) {
          if (mode == 0 && pad) continue;
          Row row;
          row.family = "guard";
          row.name = kNames[mode];
          row.params = "rows=2^" + std::to_string(lg) + " width=" + std::to_string(width) +
                       " p=" + (pad ? std::string("0.5") : std::string("0"));
          const int grid = rows / 256;
          auto k = mode == 0 ? k_guard<0> : mode == 1 ? k_guard<1> : k_guard<2>;
          row_shape(row, k, dim3(grid), dim3(256), 0);
          row.t = time_case(b, 7, true,
                            [&] { k<<<grid, 256, 0, b.stream>>>(ci, v, x, y, rows, width); });
          row.bytes = (unsigned long long)ne * (mode == 2 ? 8 : 12) + (unsigned long long)rows * 4;
          row.flops = (unsigned long long)ne * 2;
          std::vector<float> hy(rows);
          CK(cudaMemcpy(hy.data(), y, (size_t)rows * 4, cudaMemcpyDeviceToHost));
          for (int r = 0; r < rows; r += rows / 7 + 1) {
            float want = 0.0f;
            for (int kk = 0; kk < width; ++kk) {
              const size_t e = (size_t)kk * rows + r;
              const int c = hc[e];
              if (c < 0) continue;
              want += mode == 2 ? hx[c] : hv[e] * hx[c];
            }
            REQUIRE(fabsf(hy[r] - want) <= 1e-3f * (1.0f + fabsf(want)),
                    "guard %s %s: row %d got %g want %g", row.name.c_str(), row.params.c_str(),
                    r, hy[r], want);
          }
          emit(b, row);
        }
      }
    }
  }
  CK(cudaFree(ci));
  CK(cudaFree(v));
  CK(cudaFree(x));
  CK(cudaFree(y));
  bench_close(b);
  return 0;
}
