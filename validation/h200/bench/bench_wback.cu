// bench_wback.cu - what a kernel's output leaves in L2 for the next kernel that reads it,
// against what a kernel's input leaves (family `wback`).
//
// k_wr writes S MiB (one float4 a thread, coalesced STG.E.128); k_rd reads S MiB (one
// float4 a thread, LDG.E.128, summed; nothing stored unless the sum is -1). Before
// each repetition the L2 is emptied by reading the 1 GiB scratch (k_readall: it ends
// full of clean lines, unlike the memset flush) and the stream synchronized, so the
// first launch of the timed pair starts from an idle GPU. Rows (events around the
// launches named, back to back on one stream):
//   wr_rd  k_wr(S) then k_rd(S): the consumer reads what the producer wrote;
//   rd_rd  k_rd(S) then k_rd(S): the second reads what the first read;
//   wr     k_wr(S) alone;   rd     k_rd(S) alone (the consumer from a cold L2).
// S = 4 .. 96 MiB. Median of 7 repetitions after 2 warm-ups.
// WBACK_SET=idle times k_rd alone after an untimed k_wr instead (the events around k_rd
// only), to see whether the lines k_wr left dirty wait for the reader or are written
// back while the GPU idles:
//   q_rd   k_wr, then the events and k_rd at once (k_rd queued behind k_wr);
//   s_rd   k_wr, the host waits for it, then the events and k_rd (the GPU idle between);
//   c_rd   k_rd after the clean flush alone, timed the same way (no k_wr).
// S = 16 .. 96 MiB.
//
// usage: bench_wback OUT.csv [device]
//        WBACK_PROFILE=1 bench_wback OUT.csv [device]: each case once after the clean
//        flush, untimed (for ncu with --cache-control none, so that its replays keep
//        the L2 the first kernel of a pair leaves; OUT.csv gets no rows)
#include "common.cuh"

__global__ void k_wr(float4 *a, size_t n4) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) a[i] = make_float4((float)(i & 3), 0.5f, 0.25f, 0.125f);
}

__global__ void k_rd(const float4 *__restrict__ a, size_t n4, float *out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = a[i];
    float s = (v.x + v.y) + (v.z + v.w);
    if (s == -1.0f) out[0] = s;  // never true
  }
}

static const int kReps = 7;

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const int mibs[] = {4, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96};
  const size_t maxn4 = (size_t)96 << 16;  // 96 MiB of float4
  float4 *a;
  float *out;
  CK(cudaMalloc(&a, maxn4 * sizeof(float4)));
  CK(cudaMalloc(&out, 4096));
  CK(cudaMemset(a, 0, maxn4 * sizeof(float4)));
  const char *modes[4] = {"wr_rd", "rd_rd", "wr", "rd"};
  const bool profile = getenv("WBACK_PROFILE") != nullptr;
  // the L2 emptied by reading the scratch (clean lines), the GPU idle after it
  auto clean = [&] {
    k_readall<<<b.sm_count * 8, 256, 0, b.stream>>>((const float4 *)b.scratch,
                                                    kScratchBytes / 16, out);
    CK_LAUNCH();
    CK(cudaStreamSynchronize(b.stream));
  };
  const bool idle = getenv("WBACK_SET") && std::string(getenv("WBACK_SET")) == "idle";
  const char *idle_modes[3] = {"q_rd", "s_rd", "c_rd"};
  const std::vector<int> sizes = idle ? std::vector<int>{16, 32, 48, 64, 80, 96}
                                      : std::vector<int>(std::begin(mibs), std::end(mibs));
  for (int m = 0; m < (idle ? 3 : 4); ++m) {
    for (int S : sizes) {
      const size_t n4 = (size_t)S << 16;
      const int grid = (int)((n4 + 255) / 256);
      Row r;
      r.family = "wback";
      r.name = idle ? idle_modes[m] : modes[m];
      r.params = "mib=" + std::to_string(S);
      row_shape(r, k_rd, dim3(grid), dim3(256), 0);
      r.flops = 0;
      if (idle) {
        // k_rd alone between the events, after k_wr (m < 2) queued or waited for (m == 1)
        r.t = time_case(
            b, kReps, false, [&] { k_rd<<<grid, 256, 0, b.stream>>>(a, n4, out); },
            [&] {
              clean();
              if (m < 2) k_wr<<<grid, 256, 0, b.stream>>>(a, n4);
              CK_LAUNCH();
              if (m == 1) CK(cudaStreamSynchronize(b.stream));
            });
        r.bytes = (unsigned long long)n4 * 16;
        emit(b, r);
        continue;
      }
      auto launch = [&] {
        if (m == 0 || m == 2) k_wr<<<grid, 256, 0, b.stream>>>(a, n4);
        if (m == 1) k_rd<<<grid, 256, 0, b.stream>>>(a, n4, out);
        if (m != 2) k_rd<<<grid, 256, 0, b.stream>>>(a, n4, out);
      };
      if (profile) {
        profile_case(b, launch, clean);
        continue;
      }
      r.t = time_case(b, kReps, false, launch, clean);
      r.bytes = (unsigned long long)n4 * 16 * (m < 2 ? 2 : 1);
      emit(b, r);
    }
  }
  CK(cudaFree(a));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
