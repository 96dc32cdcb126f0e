// bench_launchq.cu - what a single launch between two events costs, by what the
// GPU was doing when the first event was recorded (family `launchq`).
//
// Kernels: k_nothing (empty), k_add (c[i] = a[i] + b[i], one element a thread, blocks of
// 256, n = 2^12 .. 2^20) and k_spin (one warp spins on clock64 for `cycles`, a block's
// known length). Each row is the median of 15 repetitions (2 more as warm-up) of
//     [before] ; cudaEventRecord(ev0) ; launch ; cudaEventRecord(ev1) ; sync
// where `before` is, by protocol:
//   idle         cudaStreamSynchronize: the GPU is idle when ev0 is recorded, the launch
//                is submitted after it (what "one launch between events" measures)
//   flush        a 1 GiB cudaMemsetAsync on the stream (the cold-L2 flush of the other
//                benches), not waited for: ev0 and the launch queue behind it
//   flush_sync   the same flush, then cudaStreamSynchronize: a cold L2 and an idle GPU
//   kernel       a 200 us k_spin on the stream, not waited for: ev0 and the launch queue
//                behind a kernel, the L2 as the previous repetition left it
//   flush_read   a kernel reading the 1 GiB scratch (sum, one float4 a thread a trip),
//                not waited for: a cold L2 that holds no dirty line, the launch queued
//   read_sync    the same, then cudaStreamSynchronize: cold, clean and idle
// and `back_to_back` rows time 200 launches between the events (per launch).
#include "common.cuh"

__global__ void k_nothing() {}

__global__ void k_add(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// s += a[i]: a read-only kernel, one element a thread.
__global__ void k_sum(const float *__restrict__ a, size_t n, float *out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] : 0.f;
  if (v == -1.0f) out[0] = v;  // never true
}

__global__ void k_spin(long long cycles, long long *out) {
  long long t0 = clock64(), t = t0;
  while (t - t0 < cycles) t = clock64();
  if (threadIdx.x == 0 && out) out[blockIdx.x] = t - t0;
}

enum Proto { IDLE, FLUSH, FLUSH_SYNC, KERNEL, B2B, FREAD, FREAD_SYNC };
static const char *const kProto[] = {"idle",         "flush",      "flush_sync", "kernel",
                                     "back_to_back", "flush_read", "read_sync"};

int main(int argc, char **argv) {
  REQUIRE(argc >= 2, "usage: bench_launchq OUT.csv [device]");
  const int dev = argc > 2 ? atoi(argv[2]) : 0;
  Bench b;
  bench_open(b, argv[1], dev);
  const size_t nmax = size_t(1) << 24;
  float *a, *bb, *c;
  long long *spun;
  CK(cudaMalloc(&a, nmax * 4));
  CK(cudaMalloc(&bb, nmax * 4));
  CK(cudaMalloc(&c, nmax * 4));
  CK(cudaMalloc(&spun, 64 * sizeof(long long)));
  CK(cudaMemset(a, 0, nmax * 4));
  CK(cudaMemset(bb, 0, nmax * 4));
  CK(cudaMemset(b.scratch, 0, kScratchBytes));
  const int khz = dev_attr(cudaDevAttrClockRate, dev);
  const long long busy = (long long)(200e-6 * khz * 1e3);  // ~200 us at the rated clock

  struct Case {
    const char *name;
    int kind;  // 0 nothing, 1 add, 2 spin, 3 sum
    long long arg;
  };
  const Case cases[] = {{"nothing", 0, 0},   {"add", 1, 1 << 12}, {"add", 1, 1 << 16},
                        {"add", 1, 1 << 20}, {"add", 1, 1 << 22}, {"add", 1, 1 << 24},
                        {"sum", 3, 1 << 20}, {"sum", 3, 1 << 22}, {"sum", 3, 1 << 24},
                        {"spin", 2, 2000},   {"spin", 2, 20000}};

  for (const Case &k : cases) {
    auto launch = [&] {
      unsigned g = (unsigned)((k.arg + 255) / 256);
      if (k.kind == 0) k_nothing<<<1, 32, 0, b.stream>>>();
      else if (k.kind == 1) k_add<<<g, 256, 0, b.stream>>>(a, bb, c, (size_t)k.arg);
      else if (k.kind == 3) k_sum<<<g, 256, 0, b.stream>>>(a, (size_t)k.arg, c);
      else k_spin<<<1, 32, 0, b.stream>>>(k.arg, spun);
      CK_LAUNCH();
    };
    for (int p = IDLE; p <= FREAD_SYNC; ++p) {
      std::vector<double> ms;
      const int reps = 15, per = p == B2B ? 200 : 1;
      for (int r = 0; r < reps + 2; ++r) {
        CK(cudaStreamSynchronize(b.stream));
        if (p == FLUSH || p == FLUSH_SYNC) flush_l2(b);
        if (p == FREAD || p == FREAD_SYNC) {
          k_readall<<<b.sm_count * 8, 256, 0, b.stream>>>((const float4 *)b.scratch,
                                                           kScratchBytes / 16, c);
          CK_LAUNCH();
        }
        if (p == FLUSH_SYNC || p == FREAD_SYNC) CK(cudaStreamSynchronize(b.stream));
        if (p == KERNEL) {
          k_spin<<<1, 32, 0, b.stream>>>(busy, nullptr);
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
      Row r;
      r.family = "launchq";
      r.name = std::string(k.name) + "_" + kProto[p];
      char ps[96];
      if (k.kind == 1 || k.kind == 3) snprintf(ps, sizeof ps, "n=2^%d", __builtin_ctzll(k.arg));
      else if (k.kind == 2) snprintf(ps, sizeof ps, "cycles=%lld", k.arg);
      else snprintf(ps, sizeof ps, "1x32");
      r.params = ps;
      if (k.kind == 0) row_shape(r, k_nothing, dim3(1), dim3(32), 0);
      else if (k.kind == 1) row_shape(r, k_add, dim3((unsigned)((k.arg + 255) / 256)), dim3(256), 0);
      else if (k.kind == 3) row_shape(r, k_sum, dim3((unsigned)((k.arg + 255) / 256)), dim3(256), 0);
      else row_shape(r, k_spin, dim3(1), dim3(32), 0);
      r.t = stats_of(ms);
      emit(b, r);
    }
  }
  fprintf(stderr, "rated SM clock %d kHz; busy kernel %lld cycles\n", khz, busy);
  return 0;
}
