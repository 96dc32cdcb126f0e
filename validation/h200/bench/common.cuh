// common.cuh - shared helpers of the validation microbenchmarks: error checks,
// the timing harness (CUDA events, warm-ups, median of N), the cold-L2 scratch
// flush, kernel attributes, the CSV writer and the in-kernel clock reads (clk,
// gtimer) and stamps. Included by each bench_*.cu.
#ifndef GPUPERF_BENCH_COMMON_CUH
#define GPUPERF_BENCH_COMMON_CUH

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

// Abort with file:line and the CUDA error string when a runtime call fails.
#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,         \
              cudaGetErrorString(e_));                                             \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// Check the last launch (configuration errors show up here).
#define CK_LAUNCH() CK(cudaGetLastError())

// Abort with a message when a result check fails.
#define REQUIRE(cond, ...)                                                         \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__);                \
      fprintf(stderr, __VA_ARGS__);                                                \
      fprintf(stderr, "\n");                                                       \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

static const size_t kScratchBytes = size_t(1) << 30;  // 1 GiB: > 16x the H200's L2

// Timing statistics of one case, in microseconds.
struct Stats {
  double median_us, min_us, max_us;
};

// One CSV row, in the column order of validation/h200/calibration.csv.
struct Row {
  std::string family, name, params;
  long long grid_x = 0, grid_y = 1, block_x = 0, block_y = 1;
  long long dyn_smem = 0, regs = 0, static_smem = 0, blocks_per_sm = -1;
  Stats t = {0, 0, 0};
  unsigned long long bytes = 0, flops = 0;
};

// Everything a bench program shares: the stream, events, scratch buffer, output.
struct Bench {
  cudaStream_t stream = nullptr;
  cudaEvent_t ev0 = nullptr, ev1 = nullptr;
  void *scratch = nullptr;
  unsigned flush_count = 0;
  FILE *csv = nullptr;
  int sm_count = 0;
  cudaDeviceProp prop;
};

// Median of a vector (sorted copy); the mean of the two middle values when even.
static inline double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  if (n == 0) return 0;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The SM's cycle counter and the GPU's nanosecond timer, read where the code puts
// them: the "memory" clobber keeps loads and stores from moving across the read.
__device__ __forceinline__ long long clk() {
  long long t;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(t)::"memory");
  return t;
}
__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// clk() where STAMP is 1 (the stamped build of a kernel, for a side table of
// per-phase cycles), else 0 with no clock read: a bench times the STAMP = 0
// build, whose registers and SASS the stamps do not change.
template <int STAMP> __device__ __forceinline__ long long stamp_clock() {
  return STAMP ? clk() : 0LL;
}

// The clock64 cycles each of `blocks` blocks wrote to d (device memory): their
// median, min and max.
struct Cycles {
  double median, min, max;
};

static inline Cycles block_cycles(const long long *d, int blocks) {
  std::vector<long long> h(blocks);
  CK(cudaMemcpy(h.data(), d, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  std::vector<double> v(h.begin(), h.end());
  Cycles c;
  c.median = median_of(v);
  c.min = *std::min_element(v.begin(), v.end());
  c.max = *std::max_element(v.begin(), v.end());
  return c;
}

// Where a launch's blocks ran: d_smid (device memory) holds each of its
// `blocks` blocks' %smid; the most blocks any SM held and the SMs used.
struct SmSpread {
  int most, used;
};

static inline SmSpread sm_spread(const int *d_smid, long long blocks) {
  std::vector<int> id(blocks), per(4096, 0);
  CK(cudaMemcpy(id.data(), d_smid, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  SmSpread r = {0, 0};
  for (long long q = 0; q < blocks; ++q) {
    int s = id[q] & 4095;
    if (per[s]++ == 0) ++r.used;
    r.most = std::max(r.most, per[s]);
  }
  return r;
}

// Thread 0 of each block writes the clock64 cycles of its loop (t1 - t0) to cyc and
// the SM it ran on to smid, both indexed by block (block_cycles and sm_spread read
// them back).
__device__ __forceinline__ void stamp_block(long long *cyc, int *smid, long long t0,
                                            long long t1) {
  if (threadIdx.x != 0) return;
  cyc[blockIdx.x] = t1 - t0;
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  smid[blockIdx.x] = (int)id;
}

// The columns of emit_request_cycles's side table.
static const char kRequestCyclesHeader[] =
    "family,name,params,blocks,trips,cycles_median,cycles_min,cycles_max,"
    "cycles_per_request,sm_cycles_per_load,max_blocks_per_sm,sms_used\n";

// Device arrays for stamp_block: a clock64 count and an SM id for each of `blocks`.
struct Stamps {
  long long *cyc = nullptr;
  int *smid = nullptr;
  explicit Stamps(int blocks) {
    CK(cudaMalloc(&cyc, blocks * sizeof(long long)));
    CK(cudaMalloc(&smid, blocks * sizeof(int)));
  }
  ~Stamps() {
    cudaFree(cyc);
    cudaFree(smid);
  }
  Stamps(const Stamps &) = delete;
  Stamps &operator=(const Stamps &) = delete;
};

// The side-table line of a row whose SM issues `reqs` warp requests of a kind (loads,
// address steps): the blocks' loop cycles (median, min, max, and the median per
// request), the SM cycles a request from the event time at clock_mhz, the most blocks
// an SM held and the SMs used (stamp_block's cyc and smid), in the columns of
// kRequestCyclesHeader; the per-request figure on stderr too. Returns the SM cycles
// a request.
static inline double emit_request_cycles(FILE *side, const Row &r, const long long *cyc,
                                         const int *smid, int blocks, int trips, double reqs,
                                         double clock_mhz) {
  const Cycles cy = block_cycles(cyc, blocks);
  const SmSpread sp = sm_spread(smid, blocks);
  const double sm_per = r.t.median_us * clock_mhz / reqs;
  fprintf(side, "%s,%s,%s,%d,%d,%.0f,%.0f,%.0f,%.3f,%.3f,%d,%d\n", r.family.c_str(),
          r.name.c_str(), r.params.c_str(), blocks, trips, cy.median, cy.min, cy.max,
          cy.median / reqs, sm_per, sp.most, sp.used);
  fflush(side);
  fprintf(stderr, "      %-24s %7.3f SM cycles a request (event time)\n", r.params.c_str(),
          sm_per);
  return sm_per;
}

// A tiled loop's cycles by phase (bench_tiles2, bench_tiles3): the clock64
// cycles of each of `blocks` blocks in slot p of cyc (cs entries a slot) for the
// tile load, the barrier after it, the compute, the closing barrier and the whole
// loop; one line of `side` (the side table) and one on stderr with each phase's
// median over the blocks per trip and the whole loop's median, min and max.
static const int kTilePhases = 5;
static inline void emit_phase_cycles(FILE *side, const Row &r, const long long *cyc, int cs,
                                     long long blocks, long long trips) {
  double ph[kTilePhases];
  Cycles whole = {0, 0, 0};
  for (int p = 0; p < kTilePhases; ++p) {
    Cycles c = block_cycles(cyc + (size_t)p * cs, (int)blocks);
    ph[p] = c.median / trips;
    if (p == kTilePhases - 1) whole = c;
  }
  fprintf(side, "%s,%s,%s,%lld,%lld,%.1f,%.1f,%.1f,%.1f,%.0f,%.0f,%.0f,%.1f\n",
          r.family.c_str(), r.name.c_str(), r.params.c_str(), blocks, trips, ph[0], ph[1],
          ph[2], ph[3], whole.median, whole.min, whole.max, whole.median / trips);
  fflush(side);
  fprintf(stderr, "      %-18s %-34s load %7.1f bar %7.1f comp %7.1f bar %7.1f trip %8.1f\n",
          r.name.c_str(), r.params.c_str(), ph[0], ph[1], ph[2], ph[3], whole.median / trips);
}

// Reduce a list of samples (ms) to microsecond statistics.
static inline Stats stats_of(const std::vector<double> &ms) {
  Stats s;
  s.median_us = median_of(ms) * 1e3;
  s.min_us = *std::min_element(ms.begin(), ms.end()) * 1e3;
  s.max_us = *std::max_element(ms.begin(), ms.end()) * 1e3;
  return s;
}

// Write the 1 GiB scratch buffer on the bench stream so that L2 starts cold.
static inline void flush_l2(Bench &b) {
  CK(cudaMemsetAsync(b.scratch, int(++b.flush_count & 0xff), kScratchBytes, b.stream));
}

// A grid-stride float4 sum of n4 elements (bench_launchq, bench_flushq,
// bench_coldchain: reading the 1 GiB scratch empties the L2 of the benches'
// data and leaves it full of clean lines, unlike flush_l2's memset).
__global__ void k_readall(const float4 *__restrict__ p, size_t n4, float *out) {
  float s = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x) {
    float4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == -1.0f) out[0] = s;  // never true
}

// A 32-bit integer hash, the same on host and device (the benches' synthetic inputs
// and random indices; constants of lowbias32, C. Wellons' hash-prospector).
__host__ __device__ inline unsigned hash32(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// A grid-stride int4 sum of n4 elements that brings a buffer into L2 (its lines
// clean) before a launch that should find it there (bench_scatter, bench_scatterw).
__global__ void k_warm(const int4 *p, size_t n4, int *out) {
  int s = 0;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x) {
    int4 v = p[i];
    s += v.x + v.y + v.z + v.w;
  }
  if (s == 0x12345678) out[0] = s;  // never: keeps the loads
}

// A bench's profile mode (for ncu): the case launched once behind the flush (the
// memset, or `flush` where given), untimed, and waited for.
static inline void profile_case(Bench &b, const std::function<void()> &launch,
                                const std::function<void()> &flush = nullptr) {
  if (flush)
    flush();
  else
    flush_l2(b);
  launch();
  CK_LAUNCH();
  CK(cudaStreamSynchronize(b.stream));
}

// A stamped kernel's side-table launch after its unstamped build was timed
// (stamp_clock): once more, from the state the timed repetitions started from:
// behind its own flush where they were cold, else straight after them with no flush
// (the inputs still in L2 as the warm repetitions left them).
static inline void side_case(Bench &b, bool cold, const std::function<void()> &launch) {
  if (cold)
    profile_case(b, launch);
  else
    profile_case(b, launch, [] {});
}

// Time `launch` (which enqueues on b.stream) with events: 2 warm-ups, then `reps`
// timed repetitions; `pre` runs before each (outside the timed region), and the
// scratch flush too when `cold` is set. Returns the median/min/max in us.
static inline Stats time_case(Bench &b, int reps, bool cold,
                              const std::function<void()> &launch,
                              const std::function<void()> &pre = nullptr) {
  std::vector<double> ms;
  for (int r = 0; r < reps + 2; ++r) {
    if (pre) pre();
    if (cold) flush_l2(b);
    CK(cudaEventRecord(b.ev0, b.stream));
    launch();
    CK_LAUNCH();
    CK(cudaEventRecord(b.ev1, b.stream));
    CK(cudaEventSynchronize(b.ev1));
    float t = 0;
    CK(cudaEventElapsedTime(&t, b.ev0, b.ev1));
    if (r >= 2) ms.push_back(t);
  }
  return stats_of(ms);
}

// Registers per thread and static shared memory of a compiled kernel.
template <typename K>
static inline void kernel_attrs(K kernel, long long *regs, long long *static_smem) {
  cudaFuncAttributes a;
  CK(cudaFuncGetAttributes(&a, (const void *)kernel));
  *regs = a.numRegs;
  *static_smem = (long long)a.sharedSizeBytes;
}

// Resident blocks per SM for a launch shape (cudaOccupancyMaxActiveBlocksPerMultiprocessor).
template <typename K>
static inline long long occupancy(K kernel, int block_threads, size_t dyn_smem) {
  int n = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, (const void *)kernel, block_threads,
                                                   dyn_smem));
  return n;
}

// Allow a kernel `bytes` of dynamic shared memory (needed above 48 KiB).
template <typename K>
static inline void allow_dyn_smem(K kernel, size_t bytes) {
  CK(cudaFuncSetAttribute((const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                          (int)bytes));
}

// Fill the launch-shape columns of a row from a kernel and its launch.
template <typename K>
static inline void row_shape(Row &r, K kernel, dim3 grid, dim3 block, size_t dyn) {
  r.grid_x = grid.x;
  r.grid_y = grid.y;
  r.block_x = block.x;
  r.block_y = block.y;
  r.dyn_smem = (long long)dyn;
  kernel_attrs(kernel, &r.regs, &r.static_smem);
  r.blocks_per_sm = occupancy(kernel, block.x * block.y * block.z, dyn);
}

// Append a row to the CSV file and echo a short line to stderr.
static inline void emit(Bench &b, const Row &r) {
  fprintf(b.csv, "%s,%s,%s,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%.3f,%.3f,%.3f,%llu,%llu\n",
          r.family.c_str(), r.name.c_str(), r.params.c_str(), r.grid_x, r.grid_y, r.block_x,
          r.block_y, r.dyn_smem, r.regs, r.static_smem, r.blocks_per_sm, r.t.median_us,
          r.t.min_us, r.t.max_us, r.bytes, r.flops);
  fflush(b.csv);
  fprintf(stderr, "  %-12s %-26s %-34s %12.3f us\n", r.family.c_str(), r.name.c_str(),
          r.params.c_str(), r.t.median_us);
}

// Device attribute by enum (cudaDeviceProp no longer carries clock rates in CUDA 13).
static inline int dev_attr(cudaDeviceAttr a, int dev) {
  int v = 0;
  CK(cudaDeviceGetAttribute(&v, a, dev));
  return v;
}

// time_case's stream and events, on the current device (benches with their own CSV
// that need no scratch flush call this instead of bench_open).
static inline void bench_stream(Bench &b) {
  CK(cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
  CK(cudaEventCreate(&b.ev0));
  CK(cudaEventCreate(&b.ev1));
}

// Open the CSV, create stream/events/scratch on device `dev`, write the header.
static inline void bench_open(Bench &b, const char *path, int dev) {
  CK(cudaSetDevice(dev));
  CK(cudaGetDeviceProperties(&b.prop, dev));
  b.sm_count = b.prop.multiProcessorCount;
  bench_stream(b);
  CK(cudaMalloc(&b.scratch, kScratchBytes));
  b.csv = fopen(path, "w");
  REQUIRE(b.csv, "cannot write %s", path);
  const cudaDeviceProp &p = b.prop;
  fprintf(b.csv,
          "# device=%s cc=%d.%d sms=%d clock_khz=%d mem_clock_khz=%d bus_bits=%d l2=%d "
          "smem_per_sm=%zu smem_optin=%zu reserved_smem=%zu regs_per_sm=%d max_threads_sm=%d\n",
          p.name, p.major, p.minor, p.multiProcessorCount, dev_attr(cudaDevAttrClockRate, dev),
          dev_attr(cudaDevAttrMemoryClockRate, dev), p.memoryBusWidth, p.l2CacheSize,
          p.sharedMemPerMultiprocessor, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock,
          p.regsPerMultiprocessor, p.maxThreadsPerMultiProcessor);
  fprintf(b.csv, "family,name,params,grid_x,grid_y,block_x,block_y,dyn_smem,regs,static_smem,"
                 "blocks_per_sm,median_us,min_us,max_us,bytes,flops\n");
}

// The command line of a bench that writes its rows alone, `OUT.csv [device]`:
// bench_open on OUT.csv and device. A missing path prints the usage and exits
// with status 2.
static inline void bench_open_args(Bench &b, int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.csv [device]\n", argv[0]);
    exit(2);
  }
  bench_open(b, argv[1], argc > 2 ? atoi(argv[2]) : 0);
}

// The command line of a bench that writes a side table beside its rows,
// `OUT.csv SIDE.csv [device]`: bench_open on OUT.csv and device, and SIDE.csv
// opened with `header` as its first line. A missing path prints the usage
// (`side`: the side table's name in it) and exits with status 2.
static inline FILE *bench_open_side(Bench &b, int argc, char **argv, const char *side,
                                    const char *header) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s OUT.csv %s [device]\n", argv[0], side);
    exit(2);
  }
  bench_open(b, argv[1], argc > 3 ? atoi(argv[3]) : 0);
  FILE *f = fopen(argv[2], "w");
  REQUIRE(f, "cannot write %s", argv[2]);
  fputs(header, f);
  return f;
}

// Release what bench_open created.
static inline void bench_close(Bench &b) {
  fclose(b.csv);
  CK(cudaFree(b.scratch));
  CK(cudaEventDestroy(b.ev0));
  CK(cudaEventDestroy(b.ev1));
  CK(cudaStreamDestroy(b.stream));
}

// Dynamic shared memory that lets exactly `bpsm` blocks share an SM (KERNELS.md `alu`):
// the per-SM share minus the per-block reservation, rounded down to 1 KiB, capped at
// the opt-in limit.
static inline size_t dyn_smem_for_bpsm(const cudaDeviceProp &p, int bpsm) {
  size_t share = p.sharedMemPerMultiprocessor / bpsm - p.reservedSharedMemPerBlock;
  share = share / 1024 * 1024;
  return std::min(share, p.sharedMemPerBlockOptin);
}

// Copy n floats from the device and return them (for result checks).
static inline std::vector<float> to_host(const float *d, size_t n) {
  std::vector<float> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

// Fill a float buffer on the device with in[i] = (i % period) * scale.
__global__ void k_fill_pattern(float *p, size_t n, unsigned period, float scale) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (; i < n; i += stride) p[i] = float(i % period) * scale;
}

// Enqueue k_fill_pattern over n floats and wait for it.
static inline void fill_pattern(float *p, size_t n, unsigned period, float scale) {
  k_fill_pattern<<<4096, 256>>>(p, n, period, scale);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}

// Host mirror of k_fill_pattern's value at index i.
static inline float pattern_at(size_t i, unsigned period, float scale) {
  return float(i % period) * scale;
}

// Read `count` floats spaced `step` apart starting at d[first] (one strided copy).
static inline std::vector<float> sample(const float *d, size_t first, size_t step,
                                        size_t count) {
  std::vector<float> h(count);
  CK(cudaMemcpy2D(h.data(), sizeof(float), d + first, step * sizeof(float), sizeof(float),
                  count, cudaMemcpyDeviceToHost));
  return h;
}

// Check out[i] == want(i) at 1024 indices spread over [0, n).
static inline void check_spread(const char *what, const float *d, size_t n,
                         const std::function<float(size_t)> &want) {
  size_t count = std::min<size_t>(1024, n), step = n / count;
  std::vector<float> h = sample(d, 0, step, count);
  for (size_t k = 0; k < count; ++k) {
    float w = want(k * step);
    REQUIRE(h[k] == w, "%s: out[%zu] = %g, expected %g", what, k * step, h[k], w);
  }
}

#endif  // GPUPERF_BENCH_COMMON_CUH
