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
//
// usage: bench_wback OUT.csv [device]
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
  for (int m = 0; m < 4; ++m) {
    for (int S : mibs) {
      const size_t n4 = (size_t)S << 16;
      const int grid = (int)((n4 + 255) / 256);
      auto clean = [&] {
        k_readall<<<b.sm_count * 8, 256, 0, b.stream>>>((const float4 *)b.scratch,
                                                        kScratchBytes / 16, out);
        CK_LAUNCH();
        CK(cudaStreamSynchronize(b.stream));
      };
      Row r;
      r.family = "wback";
      r.name = modes[m];
      r.params = "mib=" + std::to_string(S);
      row_shape(r, k_rd, dim3(grid), dim3(256), 0);
      r.t = time_case(
          b, kReps, false,
          [&] {
            if (m == 0 || m == 2) k_wr<<<grid, 256, 0, b.stream>>>(a, n4);
            if (m == 1) k_rd<<<grid, 256, 0, b.stream>>>(a, n4, out);
            if (m != 2) k_rd<<<grid, 256, 0, b.stream>>>(a, n4, out);
          },
          clean);
      r.bytes = (unsigned long long)n4 * 16 * (m < 2 ? 2 : 1);
      r.flops = 0;
      emit(b, r);
    }
  }
  CK(cudaFree(a));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
