// bench_multigpu.cu - the two-GPU family `multigpu`: peer copies GPU0 <-> GPU1
// (cudaMemcpyPeerAsync, 1 MiB .. 1 GiB) and the stream triad (n = 2^28) on one
// GPU versus split in halves over two GPUs, with and without copying GPU1's half
// of the result back to GPU0. Runs only when there are at least two GPUs (it
// writes the CSV header and exits 0 otherwise). Same CSV columns as the others.
//
// usage: bench_multigpu OUT.csv
#include "common.cuh"
#include "kernels.cuh"

static const unsigned kPeriod = 1000003;
static const float kScale = 1.0f / 1024;

// What one GPU holds for the split triad: stream, scratch (flushes GPU1's L2; GPU0
// uses the Bench one), an event, and the triad arrays a/b/c.
struct Gpu {
  int dev;
  cudaStream_t s;
  void *scratch;
  cudaEvent_t done;  // recorded when this GPU's part is finished
  float *a, *b, *c;
};

// Allocate one GPU's buffers (a, b, c of n floats) and fill b and c.
static void gpu_open(Gpu &g, int dev, size_t n) {
  g.dev = dev;
  CK(cudaSetDevice(dev));
  CK(cudaStreamCreateWithFlags(&g.s, cudaStreamNonBlocking));
  CK(cudaEventCreateWithFlags(&g.done, cudaEventDisableTiming));
  CK(cudaMalloc(&g.scratch, kScratchBytes));
  CK(cudaMalloc(&g.a, n * sizeof(float)));
  CK(cudaMalloc(&g.b, n * sizeof(float)));
  CK(cudaMalloc(&g.c, n * sizeof(float)));
  fill_pattern(g.b, n, kPeriod, kScale);
  fill_pattern(g.c, n, kPeriod, 2 * kScale);
  CK(cudaMemset(g.a, 0, n * sizeof(float)));
}

// Free what gpu_open allocated.
static void gpu_close(Gpu &g) {
  CK(cudaSetDevice(g.dev));
  CK(cudaFree(g.a));
  CK(cudaFree(g.b));
  CK(cudaFree(g.c));
  CK(cudaFree(g.scratch));
  CK(cudaEventDestroy(g.done));
  CK(cudaStreamDestroy(g.s));
}

// Write GPU g's scratch buffer and wait: its L2 is cold when the timed part starts.
static void flush_and_wait(Gpu &g) {
  CK(cudaSetDevice(g.dev));
  CK(cudaMemsetAsync(g.scratch, 0x5a, kScratchBytes, g.s));
  CK(cudaStreamSynchronize(g.s));
  CK(cudaSetDevice(0));
}

// Check triad results a[i] = b[i] + s*c[i] at 1024 spread indices; b, c hold the
// fill patterns at global index (i + offset).
static void check_triad(const char *what, const float *a, size_t n, size_t offset, float s) {
  check_spread(what, a, n, [&](size_t i) {
    return pattern_at(i + offset, kPeriod, kScale) + s * pattern_at(i + offset, kPeriod, 2 * kScale);
  });
}

// Peer copy rows: GPU0 -> GPU1 for 1 MiB .. 1 GiB, GPU1 -> GPU0 and both at once for 1 GiB.
static void run_peer_copies(Bench &b, Gpu &g0, Gpu &g1) {
  const size_t max_bytes = size_t(1) << 30;
  for (int mib : {1, 16, 256, 1024}) {
    size_t bytes = size_t(mib) << 20;
    Row r;
    r.family = "multigpu"; r.name = "peer_copy_0to1";
    r.params = "bytes=" + std::to_string(mib) + "MiB";
    r.grid_x = 0; r.blocks_per_sm = -1; r.bytes = bytes;
    CK(cudaSetDevice(1));
    CK(cudaMemset(g1.a, 0, max_bytes));
    CK(cudaSetDevice(0));
    r.t = time_case(b, 9, false,
                    [&] { CK(cudaMemcpyPeerAsync(g1.a, 1, g0.b, 0, bytes, b.stream)); });
    check_spread("peer_copy_0to1", g1.a, bytes / 4,
                 [](size_t i) { return pattern_at(i, kPeriod, kScale); });
    emit(b, r);
  }
  Row r;
  r.family = "multigpu"; r.name = "peer_copy_1to0"; r.params = "bytes=1024MiB";
  r.grid_x = 0; r.blocks_per_sm = -1; r.bytes = max_bytes;
  CK(cudaMemset(g0.a, 0, max_bytes));
  r.t = time_case(b, 9, false,
                  [&] { CK(cudaMemcpyPeerAsync(g0.a, 0, g1.c, 1, max_bytes, b.stream)); });
  check_spread("peer_copy_1to0", g0.a, max_bytes / 4,
               [](size_t i) { return pattern_at(i, kPeriod, 2 * kScale); });
  emit(b, r);

  // Both directions at once: 0->1 on GPU0's stream, 1->0 on GPU1's stream.
  cudaEvent_t fork;
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  r.name = "peer_copy_bidir"; r.params = "bytes=1024MiB each way";
  r.bytes = 2 * max_bytes;
  r.t = time_case(b, 9, false, [&] {
    CK(cudaEventRecord(fork, b.stream));
    CK(cudaMemcpyPeerAsync(g1.a, 1, g0.b, 0, max_bytes, b.stream));
    CK(cudaSetDevice(1));
    CK(cudaStreamWaitEvent(g1.s, fork, 0));
    CK(cudaMemcpyPeerAsync(g0.a, 0, g1.c, 1, max_bytes, g1.s));
    CK(cudaEventRecord(g1.done, g1.s));
    CK(cudaSetDevice(0));
    CK(cudaStreamWaitEvent(b.stream, g1.done, 0));
  });
  CK(cudaEventDestroy(fork));
  emit(b, r);
}

// Triad rows: one GPU (n), two GPUs (n/2 each), two GPUs then GPU1's half -> GPU0.
static void run_split_triad(Bench &b, Gpu &g0, Gpu &g1, size_t n) {
  const float s = 3.0f;
  const int bs = 256;
  const size_t half = n / 2;
  cudaEvent_t fork;
  CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));

  Row r;
  r.family = "multigpu"; r.name = "triad_1gpu"; r.params = "n=2^28 on GPU0";
  row_shape(r, k_triad, dim3(unsigned(n / bs)), dim3(bs), 0);
  r.bytes = 12ull * n;
  r.flops = 2ull * n;
  r.t = time_case(b, 9, true, [&] {
    k_triad<<<unsigned(n / bs), bs, 0, b.stream>>>(g0.a, g0.b, g0.c, s, n);
  });
  check_triad("triad_1gpu", g0.a, n, 0, s);
  emit(b, r);

  // GPU0 computes elements [0, half) into g0.a; GPU1 computes [half, n) into g1.a
  // from its own copies of b and c (filled with the same pattern, shifted by half).
  CK(cudaMemcpyPeer(g1.b, 1, g0.b + half, 0, half * sizeof(float)));
  CK(cudaMemcpyPeer(g1.c, 1, g0.c + half, 0, half * sizeof(float)));
  CK(cudaMemset(g0.a, 0, n * sizeof(float)));

  // Enqueue both halves (and optionally the copy back) between a fork and a join on b.stream.
  auto split = [&](bool gather) {
    CK(cudaEventRecord(fork, b.stream));
    k_triad<<<unsigned(half / bs), bs, 0, b.stream>>>(g0.a, g0.b, g0.c, s, half);
    CK_LAUNCH();
    CK(cudaSetDevice(1));
    CK(cudaStreamWaitEvent(g1.s, fork, 0));
    k_triad<<<unsigned(half / bs), bs, 0, g1.s>>>(g1.a, g1.b, g1.c, s, half);
    CK_LAUNCH();
    if (gather) CK(cudaMemcpyPeerAsync(g0.a + half, 0, g1.a, 1, half * sizeof(float), g1.s));
    CK(cudaEventRecord(g1.done, g1.s));
    CK(cudaSetDevice(0));
    CK(cudaStreamWaitEvent(b.stream, g1.done, 0));
  };
  Row r2 = r;
  r2.grid_x = half / bs;
  r2.name = "triad_2gpu_split"; r2.params = "n=2^28 as 2^27 on each of 2 GPUs";
  r2.t = time_case(b, 9, true, [&] { split(false); }, [&] { flush_and_wait(g1); });
  check_triad("triad_2gpu_split GPU0", g0.a, half, 0, s);
  CK(cudaSetDevice(1));
  check_triad("triad_2gpu_split GPU1", g1.a, half, half, s);
  CK(cudaSetDevice(0));
  emit(b, r2);

  r2.name = "triad_2gpu_split_gather"; r2.params = "split then GPU1 half -> GPU0 (512MiB)";
  r2.bytes = 12ull * n + 4ull * half;
  r2.t = time_case(b, 9, true, [&] { split(true); }, [&] { flush_and_wait(g1); });
  check_triad("triad_2gpu_split_gather", g0.a, n, 0, s);
  emit(b, r2);
  CK(cudaEventDestroy(fork));
}

// Report peer access and P2P attributes; enable peer access both ways.
static void setup_peers() {
  for (int d = 0; d < 2; ++d) {
    int peer = 1 - d, can = 0, rank = 0, atomics = 0;
    CK(cudaDeviceCanAccessPeer(&can, d, peer));
    CK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, d, peer));
    CK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, d, peer));
    fprintf(stderr, "GPU%d -> GPU%d: can access peer %d, performance rank %d, native atomics %d\n",
            d, peer, can, rank, atomics);
    if (!can) continue;
    CK(cudaSetDevice(d));
    cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
    else CK(e);
  }
  CK(cudaSetDevice(0));
}

// Run the two-GPU family when at least two GPUs are present.
int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.csv\n", argv[0]);
    return 2;
  }
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  Bench b;
  bench_open(b, argv[1], 0);
  if (count < 2) {
    fprintf(stderr, "bench_multigpu: %d GPU(s), two needed: skipped\n", count);
    bench_close(b);
    return 0;
  }
  fprintf(stderr, "bench_multigpu on %d GPUs (%s)\n", count, b.prop.name);
  setup_peers();
  const size_t n = size_t(1) << 28;
  Gpu g0, g1;
  gpu_open(g1, 1, n);
  gpu_open(g0, 0, n);
  run_peer_copies(b, g0, g1);
  run_split_triad(b, g0, g1, n);
  gpu_close(g1);
  gpu_close(g0);
  CK(cudaSetDevice(0));
  bench_close(b);
  fprintf(stderr, "bench_multigpu: done\n");
  return 0;
}
