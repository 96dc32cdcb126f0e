// transpose_row.cuh - one timed row of an n x n float transpose or staged copy (bench_tpose,
// bench_tconf, bench_tloop): the output zeroed, the launch timed cold (the L2 flushed,
// CUDA-event median of 7 after 2 warm-ups), the row emitted, and the output checked at
// 1024 spread entries against in[i] = i % 1024 (fill_pattern, TransposeBuffers): out =
// in^T, or out = in for a copy. Include after common.cuh.
#ifndef GPUPERF_BENCH_TRANSPOSE_ROW_CUH
#define GPUPERF_BENCH_TRANSPOSE_ROW_CUH

#include "common.cuh"

// The input's pattern: in[i] = (i % kTransposePeriod) * kTransposeScale.
static const unsigned kTransposePeriod = 1024;
static const float kTransposeScale = 1.0f;

// A transpose's n x n input, filled with the pattern transpose_row checks against, and
// its output, on the device for the life of the object.
struct TransposeBuffers {
  float *in = nullptr, *out = nullptr;
  explicit TransposeBuffers(int n) {
    const size_t nn = (size_t)n * n;
    CK(cudaMalloc(&in, nn * 4));
    CK(cudaMalloc(&out, nn * 4));
    fill_pattern(in, nn, kTransposePeriod, kTransposeScale);
  }
  ~TransposeBuffers() {
    CK(cudaFree(in));
    CK(cudaFree(out));
  }
  TransposeBuffers(const TransposeBuffers &) = delete;
  TransposeBuffers &operator=(const TransposeBuffers &) = delete;
};

// kern: the kernel the row's shape is read from; launch: its launch on b.stream.
template <typename K, typename L>
static void transpose_row(Bench &b, const char *family, const std::string &name, K kern,
                          dim3 grid, dim3 block, float *out, int n, bool transposed,
                          const L &launch) {
  Row r;
  r.family = family;
  r.name = name;
  r.params = "n=" + std::to_string(n);
  row_shape(r, kern, grid, block, 0);
  r.bytes = 8ull * n * n;
  const size_t nn = (size_t)n * n;
  CK(cudaMemsetAsync(out, 0, nn * 4, b.stream));
  r.t = time_case(b, 7, true, launch);
  emit(b, r);
  check_spread(name.c_str(), out, nn, [&](size_t i) {
    size_t row = i / n, col = i % n;
    return pattern_at(transposed ? col * n + row : i, kTransposePeriod, kTransposeScale);
  });
}

#endif  // GPUPERF_BENCH_TRANSPOSE_ROW_CUH
