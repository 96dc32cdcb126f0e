// bench_shared.cu - re-measures the shared H200 calibration set
// (validation/h200/KERNELS.md): the same kernels, launch shapes, timing
// method and CSV columns as calibration.csv, one row per case, same order.
//
// usage: bench_shared OUT.csv [device]
#include "common.cuh"
#include "kernels.cuh"

// ---------------------------------------------------------------- helpers

static const unsigned kPeriod = 1000003;  // fill pattern: in[i] = (i % kPeriod) * kScale
static const float kScale = 1.0f / 1024;

// ---------------------------------------------------------------- families

// stream: copy, triad (block size sweep), copy_float4.
static void run_stream(Bench &b, float *A, float *B, float *C) {
  const int reps = 15;
  for (int lg = 20; lg <= 28; lg += 2) {
    size_t n = size_t(1) << lg;
    Row r;
    r.family = "stream"; r.name = "copy"; r.params = "n=2^" + std::to_string(lg);
    dim3 grid(unsigned(n / 256)), block(256);
    row_shape(r, k_copy, grid, block, 0);
    CK(cudaMemset(B, 0, n * sizeof(float)));
    r.t = time_case(b, reps, true, [&] { k_copy<<<grid, block, 0, b.stream>>>(A, B, n); });
    check_spread("copy", B, n, [](size_t i) { return pattern_at(i, kPeriod, kScale); });
    r.bytes = 8ull * n;
    emit(b, r);
  }
  size_t n = size_t(1) << 26;
  const float s = 3.0f;
  fill_pattern(B, n, kPeriod, 2 * kScale);
  for (int bs = 32; bs <= 1024; bs *= 2) {
    Row r;
    r.family = "stream"; r.name = "triad"; r.params = "n=2^26 bs=" + std::to_string(bs);
    dim3 grid(unsigned(n / bs)), block(bs);
    row_shape(r, k_triad, grid, block, 0);
    CK(cudaMemset(C, 0, n * sizeof(float)));
    // a = C, b = A, c = B: three distinct arrays (B holds a second fill pattern)
    r.t = time_case(b, reps, true,
                    [&] { k_triad<<<grid, block, 0, b.stream>>>(C, A, B, s, n); });
    check_spread("triad", C, n, [&](size_t i) {
      return pattern_at(i, kPeriod, kScale) + s * pattern_at(i, kPeriod, 2 * kScale);
    });
    r.bytes = 12ull * n;
    r.flops = 2ull * n;
    emit(b, r);
  }
  for (int lg : {24, 28}) {
    size_t nf = size_t(1) << lg, n4 = nf / 4;
    Row r;
    r.family = "stream"; r.name = "copy_float4"; r.params = "n=2^" + std::to_string(lg);
    dim3 grid(unsigned(n4 / 256)), block(256);
    row_shape(r, k_copy4, grid, block, 0);
    CK(cudaMemset(B, 0, nf * sizeof(float)));
    r.t = time_case(b, reps, true, [&] {
      k_copy4<<<grid, block, 0, b.stream>>>((const float4 *)A, (float4 *)B, n4);
    });
    check_spread("copy_float4", B, nf, [](size_t i) { return pattern_at(i, kPeriod, kScale); });
    r.bytes = 8ull * nf;
    emit(b, r);
  }
}

// access/strided: out[i] = in[i*stride], 2^24 outputs, stride 1..64 (input up to 4 GiB).
static void run_access(Bench &b, float *out) {
  size_t n = size_t(1) << 24;
  float *in = nullptr;
  size_t in_n = n * 64;
  CK(cudaMalloc(&in, in_n * sizeof(float)));
  fill_pattern(in, in_n, kPeriod, kScale);
  for (int stride = 1; stride <= 64; stride *= 2) {
    Row r;
    r.family = "access"; r.name = "strided";
    r.params = "n=2^24 stride=" + std::to_string(stride);
    dim3 grid(unsigned(n / 256)), block(256);
    row_shape(r, k_strided, grid, block, 0);
    CK(cudaMemset(out, 0, n * sizeof(float)));
    r.t = time_case(b, 15, true,
                    [&] { k_strided<<<grid, block, 0, b.stream>>>(in, out, n, stride); });
    check_spread("strided", out, n,
                 [&](size_t i) { return pattern_at(i * stride, kPeriod, kScale); });
    r.bytes = 8ull * n;
    emit(b, r);
  }
  CK(cudaFree(in));
}

// One alu/wave row: k_fma<ILP> on `grid` blocks of `bs` threads with `dyn` bytes of smem.
template <int ILP>
static Row fma_row(Bench &b, float *out, const char *family, const char *name,
                   const std::string &params, int grid, int bs, size_t dyn, int iters, int reps) {
  Row r;
  r.family = family; r.name = name; r.params = params;
  if (dyn > 48 * 1024) allow_dyn_smem(k_fma<ILP>, dyn);
  row_shape(r, k_fma<ILP>, dim3(grid), dim3(bs), dyn);
  r.t = time_case(b, reps, false, [&] {
    k_fma<ILP><<<grid, bs, dyn, b.stream>>>(out, iters, kFmaA, kFmaB);
  });
  size_t threads = (size_t)grid * bs;
  float got = 0;
  CK(cudaMemcpy(&got, out + threads - 1, sizeof(float), cudaMemcpyDeviceToHost));
  float want = fma_expected(ILP, unsigned(bs - 1), iters);
  REQUIRE(fabsf(got - want) <= 1e-4f * fabsf(want), "%s/%s %s: got %g, expected %g", family, name,
          params.c_str(), got, want);
  r.bytes = 4ull * threads;
  r.flops = 2ull * threads * iters * ILP;
  return r;
}

// alu: fma_ilp1/ilp4 at 1,2,4,8 blocks per SM (4 waves), then ilp4 block-size rows.
static void run_alu(Bench &b, float *out) {
  const int iters = 4096, reps = 9;
  for (int bpsm : {1, 2, 4, 8}) {
    size_t dyn = dyn_smem_for_bpsm(b.prop, bpsm);
    int grid = b.sm_count * bpsm * 4;
    std::string params = "iters=4096 bpsm=" + std::to_string(bpsm);
    Row r1 = fma_row<1>(b, out, "alu", "fma_ilp1", params, grid, 256, dyn, iters, reps);
    REQUIRE(r1.blocks_per_sm == bpsm, "fma_ilp1: %lld blocks/SM, wanted %d", r1.blocks_per_sm,
            bpsm);
    emit(b, r1);
    Row r4 = fma_row<4>(b, out, "alu", "fma_ilp4", params, grid, 256, dyn, iters, reps);
    REQUIRE(r4.blocks_per_sm == bpsm, "fma_ilp4: %lld blocks/SM, wanted %d", r4.blocks_per_sm,
            bpsm);
    emit(b, r4);
  }
  const size_t threads = (size_t)b.sm_count * 2048 * 4;  // 4 full waves at full occupancy
  for (int bs : {64, 128, 1024}) {
    std::string params = "iters=4096 bs=" + std::to_string(bs);
    emit(b, fma_row<4>(b, out, "alu", "fma_ilp4", params, int(threads / bs), bs, 0, iters,
                       reps));
  }
}

// simt: diverge (1..32 paths) and bank (stride 1..32), 2112 blocks of 256.
static void run_simt(Bench &b, float *out) {
  const int grid = 2112, bs = 256, reps = 9;
  const size_t threads = (size_t)grid * bs;
  for (int paths = 1; paths <= 32; paths *= 2) {
    const int iters = 1024;
    Row r;
    r.family = "simt"; r.name = "diverge";
    r.params = "iters=1024 paths=" + std::to_string(paths);
    row_shape(r, k_diverge, dim3(grid), dim3(bs), 0);
    r.t = time_case(b, reps, false,
                    [&] { k_diverge<<<grid, bs, 0, b.stream>>>(out, iters, paths); });
    // thread 0 runs path 0: x = fmaf(x, 1, 0.5) iters times from 0
    float got = 0;
    CK(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
    REQUIRE(got == 0.5f * iters, "diverge paths=%d: got %g", paths, got);
    r.bytes = 4ull * threads;
    r.flops = 2ull * threads * iters;
    emit(b, r);
  }
  for (int stride = 1; stride <= 32; stride *= 2) {
    const int iters = 4096;
    Row r;
    r.family = "simt"; r.name = "bank";
    r.params = "iters=4096 stride=" + std::to_string(stride);
    row_shape(r, k_bank, dim3(grid), dim3(bs), 0);
    r.t = time_case(b, reps, false,
                    [&] { k_bank<<<grid, bs, 0, b.stream>>>(out, iters, stride); });
    float got = 0;  // thread 0: idx 0 and 1024 alternate: s[0] = 0, s[1024] = 512
    CK(cudaMemcpy(&got, out, sizeof(float), cudaMemcpyDeviceToHost));
    REQUIRE(got == 512.0f * (iters / 2), "bank stride=%d: got %g", stride, got);
    r.bytes = 4ull * threads;
    r.flops = 1ull * threads * iters;
    emit(b, r);
  }
}

// app: reduce (block 128/256/512) and sgemm_tiled16 (n = 1024, 2048).
static void run_app(Bench &b, float *in, float *out, float *M1, float *M2, float *M3) {
  size_t n = size_t(1) << 26;
  const unsigned period = 7;
  const float scale = 0.5f;  // values 0..3 in halves: block sums are exact
  fill_pattern(in, n, period, scale);
  for (int bs : {128, 256, 512}) {
    Row r;
    r.family = "app"; r.name = "reduce"; r.params = "n=2^26 bs=" + std::to_string(bs);
    size_t dyn = bs * sizeof(float);
    unsigned grid = unsigned(n / (2 * bs));
    row_shape(r, k_reduce, dim3(grid), dim3(bs), dyn);
    r.t = time_case(b, 15, true,
                    [&] { k_reduce<<<grid, bs, dyn, b.stream>>>(in, out, n); });
    std::vector<float> h = to_host(out, grid);
    for (unsigned blk = 0; blk < grid; blk += 97) {
      double want = 0;
      for (size_t i = (size_t)blk * 2 * bs; i < (size_t)(blk + 1) * 2 * bs; ++i)
        want += pattern_at(i, period, scale);
      REQUIRE(h[blk] == (float)want, "reduce bs=%d block %u: got %g, expected %g", bs, blk,
              h[blk], want);
    }
    r.bytes = 4ull * n;
    r.flops = n;
    emit(b, r);
  }
  for (int nn : {1024, 2048}) {
    size_t nel = (size_t)nn * nn;
    fill_pattern(M1, nel, 13, 0.125f);
    fill_pattern(M2, nel, 11, 0.25f);
    Row r;
    r.family = "app"; r.name = "sgemm_tiled16"; r.params = "n=" + std::to_string(nn);
    dim3 grid(nn / 16, nn / 16), block(16, 16);
    row_shape(r, k_sgemm_tiled<16>, grid, block, 0);
    r.t = time_case(b, 7, true,
                    [&] { k_sgemm_tiled<16><<<grid, block, 0, b.stream>>>(M1, M2, M3, nn); });
    std::vector<float> hc = to_host(M3, nel);
    for (int t = 0; t < 64; ++t) {
      size_t row = (size_t)(t * 131) % nn, col = (size_t)(t * 977 + 5) % nn;
      double want = 0;
      for (int k = 0; k < nn; ++k)
        want += (double)pattern_at(row * nn + k, 13, 0.125f) *
                pattern_at((size_t)k * nn + col, 11, 0.25f);
      double got = hc[row * nn + col];
      REQUIRE(fabs(got - want) <= 1e-5 * fabs(want) + 1e-3, "sgemm n=%d C[%zu][%zu]=%g want %g",
              nn, row, col, got, want);
    }
    r.bytes = 12ull * nel;
    r.flops = 2ull * nel * nn;
    emit(b, r);
  }
}

// wave: one 256-thread block per SM, grids of 66..528 blocks.
static void run_wave(Bench &b, float *out) {
  size_t dyn = dyn_smem_for_bpsm(b.prop, 1);
  for (int blocks : {66, 132, 133, 198, 264, 265, 528}) {
    std::string params = "iters=8192 blocks=" + std::to_string(blocks);
    Row r = fma_row<4>(b, out, "wave", "fma_ilp4_1bpsm", params, blocks, 256, dyn, 8192, 7);
    REQUIRE(r.blocks_per_sm == 1, "wave: %lld blocks/SM", r.blocks_per_sm);
    emit(b, r);
  }
}

// launch: 2000 back-to-back empty launches (per launch) and one empty launch.
static void run_launch(Bench &b) {
  const int count = 2000;
  Row r;
  r.family = "launch"; r.name = "empty_back_to_back"; r.params = "per launch";
  row_shape(r, k_empty, dim3(1), dim3(32), 0);
  r.t = time_case(b, 15, false, [&] {
    for (int i = 0; i < count; ++i) k_empty<<<1, 32, 0, b.stream>>>();
  });
  r.t.median_us /= count; r.t.min_us /= count; r.t.max_us /= count;
  emit(b, r);
  Row s = r;
  s.name = "empty_single"; s.params = "one launch";
  s.t = time_case(b, 15, false, [&] { k_empty<<<1, 32, 0, b.stream>>>(); });
  emit(b, s);
}

// Streams and events for the concurrency rows.
struct Fork {
  cudaStream_t s[8];
  cudaEvent_t fork, join[8];
};

// Run launches[i] on stream i (i >= 1 on the side streams) between b.stream's fork and join.
static void fork_join(Bench &b, Fork &f, const std::vector<std::function<void(cudaStream_t)>> &l) {
  CK(cudaEventRecord(f.fork, b.stream));
  l[0](b.stream);
  for (size_t i = 1; i < l.size(); ++i) {
    CK(cudaStreamWaitEvent(f.s[i], f.fork, 0));
    l[i](f.s[i]);
    CK_LAUNCH();
    CK(cudaEventRecord(f.join[i], f.s[i]));
    CK(cudaStreamWaitEvent(b.stream, f.join[i], 0));
  }
}

// concurrent: the design seed's two kernels, two full-GPU kernels, eight small kernels.
static void run_concurrent(Bench &b, float *out) {
  Fork f;
  for (int i = 0; i < 8; ++i) {
    CK(cudaStreamCreateWithFlags(&f.s[i], cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&f.join[i], cudaEventDisableTiming));
  }
  CK(cudaEventCreateWithFlags(&f.fork, cudaEventDisableTiming));
  const int reps = 7;
  const size_t slot = size_t(1) << 20;  // each stream writes its own part of `out`
  float *outA = out, *outB = out + slot;

  auto seedA = [&](cudaStream_t s) { k_fma<1><<<40, 256, 0, s>>>(outA, 65536, kFmaA, kFmaB); };
  auto seedB = [&](cudaStream_t s) { k_fma<1><<<20, 512, 8192, s>>>(outB, 65536, kFmaA, kFmaB); };
  Row r;
  r.family = "concurrent";
  r.name = "seedA_alone"; r.params = "40x256 fma_ilp1 iters=65536";
  row_shape(r, k_fma<1>, dim3(40), dim3(256), 0);
  r.t = time_case(b, reps, false, [&] { seedA(b.stream); });
  r.flops = 2ull * 40 * 256 * 65536;
  emit(b, r);
  r = Row(); r.family = "concurrent";
  r.name = "seedB_alone"; r.params = "20x512 dyn=8K fma_ilp1 iters=65536";
  row_shape(r, k_fma<1>, dim3(20), dim3(512), 8192);
  r.t = time_case(b, reps, false, [&] { seedB(b.stream); });
  r.flops = 2ull * 20 * 512 * 65536;
  emit(b, r);
  long long regs1 = r.regs;

  // Multi-kernel rows: launch-shape columns as in calibration.csv.
  auto multi = [&](const char *name, const char *params, long long gx, long long bx,
                   long long regs, long long bpsm, const std::function<void()> &launch) {
    Row m;
    m.family = "concurrent"; m.name = name; m.params = params;
    m.grid_x = gx; m.block_x = bx; m.regs = regs; m.blocks_per_sm = bpsm;
    m.t = time_case(b, reps, false, launch);
    emit(b, m);
  };
  multi("seedAB_serial", "same stream", 60, 0, regs1, -1, [&] { seedA(b.stream); seedB(b.stream); });
  multi("seedAB_streams", "two streams", 60, 0, regs1, -1, [&] { fork_join(b, f, {seedA, seedB}); });

  auto full1 = [&](cudaStream_t s) { k_fma<1><<<2112, 256, 0, s>>>(outA, 8192, kFmaA, kFmaB); };
  auto full2 = [&](cudaStream_t s) { k_fma<1><<<1056, 512, 0, s>>>(outB, 8192, kFmaA, kFmaB); };
  r = Row(); r.family = "concurrent";
  r.name = "full1_alone"; r.params = "2 waves of 8x256 per SM";
  row_shape(r, k_fma<1>, dim3(2112), dim3(256), 0);
  r.t = time_case(b, reps, false, [&] { full1(b.stream); });
  emit(b, r);
  r = Row(); r.family = "concurrent";
  r.name = "full2_alone"; r.params = "2 waves of 4x512 per SM";
  row_shape(r, k_fma<1>, dim3(1056), dim3(512), 0);
  r.t = time_case(b, reps, false, [&] { full2(b.stream); });
  emit(b, r);
  multi("full12_serial", "same stream", 0, 0, regs1, -1, [&] { full1(b.stream); full2(b.stream); });
  multi("full12_streams", "two streams", 0, 0, regs1, -1, [&] { fork_join(b, f, {full1, full2}); });

  auto small = [&](int i) {
    return [&, i](cudaStream_t s) {
      k_fma<4><<<16, 256, 0, s>>>(out + i * 4096, 16384, kFmaA, kFmaB);
    };
  };
  r = Row(); r.family = "concurrent";
  r.name = "small_alone"; r.params = "16x256 fma_ilp4 iters=16384";
  row_shape(r, k_fma<4>, dim3(16), dim3(256), 0);
  r.t = time_case(b, reps, false, [&] { small(0)(b.stream); });
  emit(b, r);
  Row s8 = r;
  s8.name = "small8_serial"; s8.params = "8 kernels one stream"; s8.grid_x = 128;
  s8.t = time_case(b, reps, false, [&] {
    for (int i = 0; i < 8; ++i) small(i)(b.stream);
  });
  emit(b, s8);
  s8.name = "small8_streams"; s8.params = "8 kernels 8 streams";
  std::vector<std::function<void(cudaStream_t)>> eight;
  for (int i = 0; i < 8; ++i) eight.push_back(small(i));
  s8.t = time_case(b, reps, false, [&] { fork_join(b, f, eight); });
  emit(b, s8);

  for (int i = 0; i < 8; ++i) {
    CK(cudaStreamDestroy(f.s[i]));
    CK(cudaEventDestroy(f.join[i]));
  }
  CK(cudaEventDestroy(f.fork));
}

// Run every family of KERNELS.md and write OUT.csv.
int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  fprintf(stderr, "bench_shared on %s (%d SMs)\n", b.prop.name, b.sm_count);

  size_t big = size_t(1) << 28;  // 1 GiB of floats each
  float *A, *B, *C;
  CK(cudaMalloc(&A, big * sizeof(float)));
  CK(cudaMalloc(&B, big * sizeof(float)));
  CK(cudaMalloc(&C, big * sizeof(float)));
  fill_pattern(A, big, kPeriod, kScale);

  run_stream(b, A, B, C);
  run_access(b, B);
  run_alu(b, B);
  run_simt(b, B);
  run_app(b, A, B, A + (size_t(1) << 27), B + (size_t(1) << 27), C);
  run_wave(b, B);
  run_launch(b);
  run_concurrent(b, C);

  CK(cudaFree(A));
  CK(cudaFree(B));
  CK(cudaFree(C));
  bench_close(b);
  fprintf(stderr, "bench_shared: done\n");
  return 0;
}
