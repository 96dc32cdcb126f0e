// bench_wpr.cu - a warp per row (family `wpr`): warp r of a 1-D grid of 256-thread blocks
// sums the L floats of row r, lane l taking elements l, l + 32, ... (a loop whose count
// is a run-time value), then lane 0 writes y[r]:
//   k_wpr<IND, GAT, SHFL>
//     IND = 1  the row's first and last elements are read from a row-pointer array
//              (start = rp[r], end = rp[r + 1], as a CSR SpMV's vector kernel); 0: r L
//     GAT = 1  each element is v[j] * x[ci[j]], ci random over x (2^20 floats, 4 MiB:
//              a gather the L2 holds once it is touched); 0: v[j] alone
//     SHFL = 1 the lanes' sums reduced by five __shfl_down_sync steps before lane 0's
//              store; 0: lane 0 stores its own sum
// Every input is const __restrict__ (LDG.E.CONSTANT). rows = 2^16 and 2^20, L = 16, 32,
// 64, 128; the 1 GiB memset flush before each repetition (every line of rp, v and ci from
// DRAM, x's from DRAM at its first touch). CUDA-event medians of 7 after 2 warm-ups; y is
// checked against the host for a few rows. WPR_SET=long runs long rows instead (below).
//
// usage: [WPR_SET=long] bench_wpr OUT.csv [device]
#include "common.cuh"

static const int kX = 1 << 20;  // floats of x

template <int IND, int GAT, int SHFL>
__global__ void __launch_bounds__(256)
    k_wpr(const int *__restrict__ rp, const float *__restrict__ v, const int *__restrict__ ci,
          const float *__restrict__ x, float *__restrict__ y, int rows, int L) {
  const int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (r >= rows) return;
  int start, end;
  if (IND) {
    start = rp[r];
    end = rp[r + 1];
  } else {
    start = r * L;
    end = start + L;
  }
  float s = 0.0f;
  for (int j = start + lane; j < end; j += 32) s += GAT ? v[j] * x[ci[j]] : v[j];
  if (SHFL)
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0) y[r] = s;
}

typedef void (*Kern)(const int *, const float *, const int *, const float *, float *, int, int);

static Kern pick(int ind, int gat, int shfl) {
  static const Kern k[8] = {k_wpr<0, 0, 0>, k_wpr<0, 0, 1>, k_wpr<0, 1, 0>, k_wpr<0, 1, 1>,
                            k_wpr<1, 0, 0>, k_wpr<1, 0, 1>, k_wpr<1, 1, 0>, k_wpr<1, 1, 1>};
  return k[ind * 4 + gat * 2 + shfl];
}

static float vval(size_t j) { return (float)(hash32((unsigned)j ^ 0x5bd1e995u) & 255) / 256.0f; }
static float xval(size_t i) { return (float)(hash32((unsigned)i ^ 0x27d4eb2du) & 1023) / 1024.0f; }
static int cval(size_t j) { return (int)(hash32((unsigned)j * 2654435761u + 17u) % kX); }

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int maxrows = 1 << 20, maxL = 128;
  const size_t maxe = (size_t)maxrows * maxL;
  int *rp, *ci;
  float *v, *x, *y;
  CK(cudaMalloc(&rp, (size_t)(maxrows + 1) * 4));
  CK(cudaMalloc(&ci, maxe * 4));
  CK(cudaMalloc(&v, maxe * 4));
  CK(cudaMalloc(&x, (size_t)kX * 4));
  CK(cudaMalloc(&y, (size_t)maxrows * 4));
  std::vector<float> hv(maxe), hx(kX);
  std::vector<int> hc(maxe), hrp(maxrows + 1);
  for (size_t j = 0; j < maxe; ++j) {
    hv[j] = vval(j);
    hc[j] = cval(j);
  }
  for (size_t i = 0; i < (size_t)kX; ++i) hx[i] = xval(i);
  CK(cudaMemcpy(v, hv.data(), maxe * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ci, hc.data(), maxe * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, hx.data(), (size_t)kX * 4, cudaMemcpyHostToDevice));
  // WPR_SET=long: long rows instead (2^16 rows of 256 to 1024 floats, 2^18 of 256: 8 to
  // 32 trips a lane, where the SASS runs 16 copies at a time beyond 12 trips)
  const char *set = getenv("WPR_SET");
  const bool longrows = set && strcmp(set, "long") == 0;
  std::vector<std::pair<int, int>> shapes;
  if (longrows) {
    for (int L : {256, 512, 1024}) shapes.push_back({1 << 16, L});
    shapes.push_back({1 << 18, 256});
  } else {
    for (int rows : {1 << 16, 1 << 20})
      for (int L : {16, 32, 64, 128}) shapes.push_back({rows, L});
  }
  for (const auto &sh : shapes) {
    const int rows = sh.first, L = sh.second;
    for (int r = 0; r <= rows; ++r) hrp[r] = r * L;
    CK(cudaMemcpy(rp, hrp.data(), (size_t)(rows + 1) * 4, cudaMemcpyHostToDevice));
    for (int ind = 0; ind <= 1; ++ind)
      for (int gat = 0; gat <= 1; ++gat)
        for (int shfl = 0; shfl <= 1; ++shfl) {
          Kern k = pick(ind, gat, shfl);
          const int grid = rows / 8;
          Row row;
          row.family = "wpr";
          row.name = std::string(ind ? "rp" : "fixed") + (gat ? "_gather" : "_plain") +
                     (shfl ? "_shfl" : "_lane0");
          row.params = "rows=" + std::to_string(rows) + " L=" + std::to_string(L);
          row_shape(row, k, dim3(grid), dim3(256), 0);
          row.t = time_case(b, 7, true,
                            [&] { k<<<grid, 256, 0, b.stream>>>(rp, v, ci, x, y, rows, L); });
          row.bytes = (unsigned long long)rows * L * (gat ? 12 : 4) +
                      (unsigned long long)rows * (ind ? 8 : 0) + (unsigned long long)rows * 4;
          row.flops = (unsigned long long)rows * L * (gat ? 2 : 1);
          std::vector<float> hy(rows);
          CK(cudaMemcpy(hy.data(), y, (size_t)rows * 4, cudaMemcpyDeviceToHost));
          for (int r = 0; r < rows; r += rows / 7 + 1) {
            double want = 0;
            const int lanes = shfl ? 32 : 1;
            for (int lane = 0; lane < lanes; ++lane)
              for (int j = r * L + lane; j < (r + 1) * L; j += 32)
                want += gat ? (double)hv[j] * hx[hc[j]] : hv[j];
            REQUIRE(fabs(hy[r] - want) <= 1e-3 * (1.0 + fabs(want)), "wpr %s %s: r %d got %g want %g",
                    row.name.c_str(), row.params.c_str(), r, hy[r], want);
          }
          emit(b, row);
        }
  }
  CK(cudaFree(rp));
  CK(cudaFree(ci));
  CK(cudaFree(v));
  CK(cudaFree(x));
  CK(cudaFree(y));
  bench_close(b);
  return 0;
}
