// bench_st3d.cu - 3-D stencils on an n^3 grid of floats (family `st3d`): every interior
// point (1 <= x, y, z < n - 1) of `in` gives out[i] = c0 in[i] + c1 (sum of its taps),
// one point a thread, blocks of 32 x by over (x, y), blockIdx.z the plane z; `in` is
// const __restrict__ (LDG.E.CONSTANT), the taps' loops unrolled (#pragma unroll), i =
// z p + y s + x in 64 bits. The tap sets (offsets dx, dy, dz in -1..1, the centre
// apart):
//   row3    dx = -1, +1 (one row: two loads a word off the line boundary)
//   col3z   dz = -1, +1 (three planes, every load on the line boundary)
//   yz9     dx = 0, (dy, dz) != (0, 0): 8 aligned loads over 3 planes x 3 rows
//   plane9  dz = 0, (dx, dy) != (0, 0): one plane's 3 x 3
//   cross7  the six face neighbours
//   cube27  all 26 neighbours
// n = 128, 256, 512 (8 MiB .. 512 MiB a grid), by = 4 and 8; then yz9 and cube27 with n
// a compile-time value (k_stc, rows `yz9_c` and `cube27_c`, n = 256 and 512). The L2 flushed (memset
// of a 1 GiB scratch) before each repetition; CUDA-event median of 7 after 2 warm-ups;
// every output checked at 1024 spread points against the host's sum (in[i] = i %
// 1024: sums and the power-of-two coefficients are exact in floats).
//
// usage: bench_st3d OUT.csv [device]
//        ST3D_PROFILE=1 bench_st3d OUT.csv [device]: one launch of every tap set at
//        n = 256 (by = 4 and 8), no timing, for a profiler (ncu)
#include "common.cuh"

enum { S_ROW3 = 0, S_COL3Z, S_YZ9, S_PLANE9, S_CROSS7, S_CUBE27, S_COUNT };
static const char *kSetName[S_COUNT] = {"row3", "col3z", "yz9", "plane9", "cross7", "cube27"};

__host__ __device__ constexpr bool tap(int set, int dx, int dy, int dz) {
  return (dx || dy || dz) &&
         (set == S_ROW3     ? dy == 0 && dz == 0
          : set == S_COL3Z  ? dx == 0 && dy == 0
          : set == S_YZ9    ? dx == 0
          : set == S_PLANE9 ? dz == 0
          : set == S_CROSS7 ? (dx != 0) + (dy != 0) + (dz != 0) == 1
                            : true);
}

static const float kC0 = 0.25f, kC1 = 1.0f / 32;

// One point of the stencil: out[i] at (x, y, z) = (the thread's x and y, the block's z).
template <int SET>
__device__ __forceinline__ void st_point(const float *__restrict__ in, float *out, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z;
  if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1 && z >= 1 && z < n - 1) {
    const size_t s = n, p = (size_t)n * n, i = z * p + y * s + x;
    float acc = 0;
#pragma unroll
    for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
      for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
          if (tap(SET, dx, dy, dz)) acc += in[i + dz * p + dy * s + dx];
    out[i] = kC0 * in[i] + kC1 * acc;
  }
}

template <int SET>
__global__ void __launch_bounds__(256) k_st(const float *__restrict__ in, float *out, int n) {
  st_point<SET>(in, out, n);
}

// The same stencil with n a compile-time value (N): every tap then sits at an immediate
// offset from the centre's address (rows `_c`, not in the calibration table: a script
// cannot say which of its offsets the compiler knew).
template <int SET, int N>
__global__ void __launch_bounds__(256) k_stc(const float *__restrict__ in, float *out, int) {
  st_point<SET>(in, out, N);
}

typedef void (*kern_t)(const float *, float *, int);
static const kern_t kKern[S_COUNT] = {k_st<S_ROW3>,   k_st<S_COL3Z>,  k_st<S_YZ9>,
                                      k_st<S_PLANE9>, k_st<S_CROSS7>, k_st<S_CUBE27>};

// The host's out[i] for in[i] = i % 1024 (0 outside the interior: the memset).
static float want_at(int set, size_t i, int n) {
  const size_t s = n, p = (size_t)n * n;
  const long x = long(i % s), y = long((i / s) % s), z = long(i / p);
  if (x < 1 || x >= n - 1 || y < 1 || y >= n - 1 || z < 1 || z >= n - 1) return 0.0f;
  double acc = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if (tap(set, dx, dy, dz)) acc += pattern_at(i + dz * p + dy * s + dx, 1024, 1.0f);
  return float(kC0 * pattern_at(i, 1024, 1.0f) + kC1 * acc);
}

static dim3 grid_of(int n, int by) { return dim3(n / 32, n / by, n); }

// One timed row: tap set `set` by kernel k over n^3 floats in blocks of 32 x by, the output
// zeroed, timed cold, emitted as `name` and checked at 1024 spread points.
static void st_row(Bench &b, const std::string &name, int set, kern_t k, int n, int by,
                   const float *in, float *out) {
  const size_t cells = (size_t)n * n * n;
  Row r;
  r.family = "st3d";
  r.name = name;
  r.params = "n=" + std::to_string(n) + " by=" + std::to_string(by);
  const dim3 g = grid_of(n, by), bl(32, by);
  row_shape(r, k, g, bl, 0);
  r.grid_y = (long long)g.y * g.z;  // the table's grid_y: y blocks x planes
  r.bytes = 8ull * cells;
  CK(cudaMemsetAsync(out, 0, cells * 4, b.stream));
  r.t = time_case(b, 7, true, [&] { k<<<g, bl, 0, b.stream>>>(in, out, n); });
  emit(b, r);
  check_spread(name.c_str(), out, cells, [&](size_t i) { return want_at(set, i, n); });
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int nmax = 512;
  const size_t cells_max = (size_t)nmax * nmax * nmax;
  float *in, *out;
  CK(cudaMalloc(&in, cells_max * 4));
  CK(cudaMalloc(&out, cells_max * 4));
  fill_pattern(in, cells_max, 1024, 1.0f);
  if (getenv("ST3D_PROFILE")) {
    for (int by : {4, 8})
      for (int set = 0; set < S_COUNT; ++set) {
        kKern[set]<<<grid_of(256, by), dim3(32, by), 0, b.stream>>>(in, out, 256);
        CK_LAUNCH();
      }
    CK(cudaStreamSynchronize(b.stream));
    bench_close(b);
    return 0;
  }
  for (int n : {128, 256, 512})
    for (int by : {4, 8})
      for (int set = 0; set < S_COUNT; ++set)
        st_row(b, kSetName[set], set, kKern[set], n, by, in, out);
  // n known at compile time: yz9 and cube27, n = 256 and 512
  const struct { int set, n; kern_t k; } cst[] = {
      {S_YZ9, 256, k_stc<S_YZ9, 256>},       {S_CUBE27, 256, k_stc<S_CUBE27, 256>},
      {S_YZ9, 512, k_stc<S_YZ9, 512>},       {S_CUBE27, 512, k_stc<S_CUBE27, 512>}};
  for (const auto &c : cst)
    for (int by : {4, 8}) st_row(b, std::string(kSetName[c.set]) + "_c", c.set, c.k, c.n, by, in, out);
  CK(cudaFree(in));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
