// bench_flushq.cu - what the benches' L2 flush does to the launch after it (family
// `flushq`).
//
// Every cold row of the other benches is timed as: a 1 GiB cudaMemsetAsync on the
// stream (common.cuh flush_l2), not waited for; record ev0; launch; record ev1. The
// memset leaves the L2 full of dirty lines and the launch queued behind it. This bench
// separates the two effects. Each row is the median of 21 repetitions (after 2) of
//     [before] ; [spin D us] ; cudaEventRecord(ev0) ; launch ; cudaEventRecord(ev1) ; sync
// with `before`, by protocol:
//   flush   the 1 GiB memset flush (dirty L2), not waited for
//   clean   a kernel reading the 1 GiB scratch instead (k_readall: the L2 ends full of
//           clean lines that belong to no buffer of the kernel), not waited for
//   idle    a synchronize only (the launch's own submission latency counts)
//   kernel  a 200 us one-warp spin kernel, not waited for (the L2 as the previous
//           repetition left it)
//   b2b     200 launches between the events (per launch), after a synchronize
// and, for the `_dD` rows, a one-warp spin of D us queued after the flush (the time the
// L2 has to write its dirty lines back before the launch; the spin touches no memory).
//
// Kernels (blocks of 256, one float4 a thread):
//   sum    s += p[i] over `bytes` (read-only; the L2 allocates each line it fills)
//   set    p[i] = v over `bytes` (write-only: full lines, no fill)
//   copy   c[i] = a[i], bytes/2 read and bytes/2 written
//   empty  an empty kernel of `grid` blocks of 128 threads
//   (`_preP` rows: an untimed sum over P MiB of another buffer queued after the flush)
//   spin   each block's warps spin on clock64 for 2000 cycles (~1 us), `grid` blocks of 128
#include "common.cuh"

__global__ void k_empty() {}

__global__ void k_sum(const float4 *__restrict__ p, size_t n4, float *out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = p[i];
    float s = v.x + v.y + v.z + v.w;
    if (s == -1.0f) out[0] = s;  // never true
  }
}

__global__ void k_set(float4 *__restrict__ p, size_t n4, float v) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) p[i] = make_float4(v, v, v, v);
}

__global__ void k_copy(const float4 *__restrict__ a, float4 *__restrict__ c, size_t n4) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) c[i] = a[i];
}

__global__ void k_spin(long long cycles, long long *out) {
  long long t0 = clock64(), t = t0;
  while (t - t0 < cycles) t = clock64();
  if (threadIdx.x == 0 && out && t - t0 < 0) out[blockIdx.x] = t - t0;  // never true
}

enum Proto { FLUSH, CLEAN, IDLE, KERNEL, B2B };
static const char *const kProto[] = {"flush", "clean", "idle", "kernel", "b2b"};
enum Kind { SUM, SET, COPY, EMPTY, SPIN };
static const char *const kKind[] = {"sum", "set", "copy", "empty", "spin"};

int main(int argc, char **argv) {
  REQUIRE(argc >= 2, "usage: bench_flushq OUT.csv [device]");
  const int dev = argc > 2 ? atoi(argv[2]) : 0;
  Bench b;
  bench_open(b, argv[1], dev);
  const size_t maxb = size_t(128) << 20;
  float4 *A, *C;
  float *out;
  CK(cudaMalloc(&A, maxb));
  CK(cudaMalloc(&C, maxb));
  CK(cudaMalloc(&out, 64));
  CK(cudaMemset(A, 0, maxb));
  CK(cudaMemset(C, 0, maxb));
  CK(cudaMemset(b.scratch, 0, kScratchBytes));
  const int khz = dev_attr(cudaDevAttrClockRate, dev);
  const double cyc_per_us = khz * 1e-3;

  auto run_row = [&](Kind kind, size_t bytes, unsigned grid, Proto p, double delay_us,
                     int pre_mib = 0) {
    const size_t n4 = kind == COPY ? bytes / 32 : bytes / 16;
    const unsigned g = kind == EMPTY || kind == SPIN ? grid : (unsigned)((n4 + 255) / 256);
    const unsigned bt = kind == EMPTY || kind == SPIN ? 128 : 256;
    auto launch = [&] {
      switch (kind) {
      case SUM: k_sum<<<g, bt, 0, b.stream>>>(A, n4, out); break;
      case SET: k_set<<<g, bt, 0, b.stream>>>(C, n4, 1.0f); break;
      case COPY: k_copy<<<g, bt, 0, b.stream>>>(A, C, n4); break;
      case EMPTY: k_empty<<<g, bt, 0, b.stream>>>(); break;
      case SPIN: k_spin<<<g, bt, 0, b.stream>>>(2000, nullptr); break;
      }
      CK_LAUNCH();
    };
    std::vector<double> ms;
    const int reps = 21, per = p == B2B ? 200 : 1;
    for (int r = 0; r < reps + 2; ++r) {
      CK(cudaStreamSynchronize(b.stream));
      if (p == FLUSH) flush_l2(b);
      if (p == CLEAN) {
        k_readall<<<b.sm_count * 8, 256, 0, b.stream>>>((const float4 *)b.scratch,
                                                         kScratchBytes / 16, out);
        CK_LAUNCH();
      }
      if (p == KERNEL) {
        k_spin<<<1, 32, 0, b.stream>>>((long long)(200 * cyc_per_us), nullptr);
        CK_LAUNCH();
      }
      if (delay_us > 0) {
        k_spin<<<1, 32, 0, b.stream>>>((long long)(delay_us * cyc_per_us), nullptr);
        CK_LAUNCH();
      }
      if (pre_mib > 0) {
        const size_t pn4 = (size_t(pre_mib) << 20) / 16;
        k_sum<<<(unsigned)((pn4 + 255) / 256), 256, 0, b.stream>>>(C, pn4, out);
        CK_LAUNCH();
      }
      CK(cudaEventRecord(b.ev0, b.stream));
      for (int i = 0; i < per; ++i) launch();
      CK(cudaEventRecord(b.ev1, b.stream));
      CK(cudaEventSynchronize(b.ev1));
      float t = 0;
      CK(cudaEventElapsedTime(&t, b.ev0, b.ev1));
      if (r >= 2) ms.push_back(t / per);
    }
    Row row;
    row.family = "flushq";
    char nm[96], ps[96];
    if (delay_us > 0) snprintf(nm, sizeof nm, "%s_%s_d%d", kKind[kind], kProto[p], (int)delay_us);
    else if (pre_mib > 0) snprintf(nm, sizeof nm, "%s_%s_pre%d", kKind[kind], kProto[p], pre_mib);
    else snprintf(nm, sizeof nm, "%s_%s", kKind[kind], kProto[p]);
    row.name = nm;
    if (kind == EMPTY || kind == SPIN) snprintf(ps, sizeof ps, "grid=%u", g);
    else snprintf(ps, sizeof ps, "bytes=%zu", bytes);
    row.params = ps;
    switch (kind) {
    case SUM: row_shape(row, k_sum, dim3(g), dim3(bt), 0); break;
    case SET: row_shape(row, k_set, dim3(g), dim3(bt), 0); break;
    case COPY: row_shape(row, k_copy, dim3(g), dim3(bt), 0); break;
    case EMPTY: row_shape(row, k_empty, dim3(g), dim3(bt), 0); break;
    case SPIN: row_shape(row, k_spin, dim3(g), dim3(bt), 0); break;
    }
    row.t = stats_of(ms);
    if (kind <= COPY) row.bytes = bytes;
    emit(b, row);
  };

  // 1. the kernel after a dirty (memset) flush vs a clean one, by bytes it allocates
  const int mib[] = {1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 80, 96, 128};
  for (int k = SUM; k <= COPY; ++k)
    for (int m : mib)
      for (int p = FLUSH; p <= CLEAN; ++p) run_row((Kind)k, size_t(m) << 20, 0, (Proto)p, 0);
  // 2. the same with a delay between the flush and the launch
  const int dmib[] = {16, 128};
  const double delays[] = {10, 50, 200, 1000};
  for (int k = SUM; k <= COPY; ++k)
    for (int m : dmib)
      for (double d : delays)
        for (int p = FLUSH; p <= CLEAN; ++p) run_row((Kind)k, size_t(m) << 20, 0, (Proto)p, d);
  // 2b. the same after a read-only sum of `pre` MiB of another buffer (untimed): the
  // dirty lines the first kernel's allocations already wrote back
  for (int pre : {8, 16, 32, 64})
    for (int p = FLUSH; p <= CLEAN; ++p) run_row(SUM, size_t(64) << 20, 0, (Proto)p, 0, pre);
  // 3. the launch itself by its blocks: queued behind the flush or a kernel, idle, b2b
  const unsigned grids[] = {1, 2, 4, 8, 16, 32, 66, 132, 264, 528, 1056, 2112};
  for (unsigned g : grids)
    for (int p : {FLUSH, KERNEL, IDLE, B2B}) run_row(EMPTY, 0, g, (Proto)p, 0);
  for (unsigned g : grids)
    for (int p : {FLUSH, KERNEL}) run_row(SPIN, 0, g, (Proto)p, 0);
  // the kernels did their work: set wrote 1s, copy copies A (0s) over them
  k_set<<<64, 256, 0, b.stream>>>(C, 64 * 256, 1.0f);
  CK_LAUNCH();
  CK(cudaStreamSynchronize(b.stream));
  REQUIRE(to_host((const float *)C, 16)[7] == 1.0f, "k_set wrote its value");
  k_copy<<<64, 256, 0, b.stream>>>(A, C, 64 * 256);
  CK_LAUNCH();
  CK(cudaStreamSynchronize(b.stream));
  REQUIRE(to_host((const float *)C, 16)[7] == 0.0f, "k_copy copied");
  fprintf(stderr, "rated SM clock %d kHz\n", khz);
  CK(cudaFree(A));
  CK(cudaFree(C));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
