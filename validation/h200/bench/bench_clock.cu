// bench_clock.cu - the SM clock a kernel runs at, by kind of load and by how long it
// runs. Thread 0 of every block stamps clock64 and %globaltimer at the start of its
// loop, at 16 checkpoints through it and at its end (after a barrier); the SM clock of
// a block is its clock64 cycles over its %globaltimer nanoseconds. The side table
// CLOCK_STAMPS.csv gives per row the median / min / max of that clock over the blocks,
// the clock in each sixteenth of the loop (median over blocks, so that a clock that
// falls while the kernel runs shows), the loop cycles and the event time.
//
// Loads (256-thread blocks unless said; every kernel's iteration count is scaled so
// that the kernel runs about a target time: 50 us, 500 us, 5 ms, 50 ms; then 2 s for
// the heaviest, so that the 100 ms nvidia-smi samples see it):
//   ffma8      8 independent FFMA chains per thread (the FP32 pipe at full rate from
//              8 warps per SM on): bpsm 1, 8 on all SMs; bpsm 8 on 16 SMs only
//   ffma1      1 FFMA chain, 1 warp per SM (light: a quarter of one scheduler)
//   tnl        the register-blocked SGEMM compute of bench_tiles3 tnl_g128 (LDS.128
//              broadcasts + 64 FFMA per k step, 8x8 outputs per thread, 2 and 1
//              blocks/SM; 1 is tiles3's tnl_g128 blocks=132 shape)
//   lds        LDS.128 only, 8 a step, summed (the LSU busy, few FFMA)
//   hmma       wmma m16n16k16 fp16->fp32, 4 accumulators from registers (bpsm 4, 1);
//              they start equal, and ptxas keeps 4 HMMA.16816 a trip
//   dram       float4 grid-stride reads of a 1 GiB buffer (memory-bound)
//
// usage: bench_clock OUT.csv STAMPS.csv [device]
#include "common.cuh"

#include <mma.h>
#include <unistd.h>

static const int kCp = 16;  // checkpoints per loop

// Stamps of a block: [0] start, [1..kCp] checkpoints (the last is the end, after a
// barrier); clock64 in c, globaltimer in g.
struct Stamp {
  long long c[kCp + 1];
  unsigned long long g[kCp + 1];
};

#define STAMP(k)                                   \
  do {                                             \
    if (threadIdx.x == 0) {                        \
      st[blockIdx.x].c[k] = clock64();             \
      st[blockIdx.x].g[k] = gtimer();              \
    }                                              \
  } while (0)

enum Mode { FFMA8 = 0, FFMA1, TNL, LDS, HMMA, DRAM, NMODES };
static const char *kModeName[NMODES] = {"ffma8", "ffma1", "tnl", "lds", "hmma", "dram"};

__global__ void __launch_bounds__(256) k_ffma8(float *out, int iters, Stamp *st) {
  float a[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) a[j] = threadIdx.x * 0.001f + j;
  const float m = 0.999f, c = 0.5f;
  STAMP(0);
  for (int p = 0; p < kCp; ++p) {
    for (int i = 0; i < iters; ++i) {
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int j = 0; j < 8; ++j) a[j] = fmaf(a[j], m, c);
    }
    if (p == kCp - 1) __syncthreads();
    STAMP(p + 1);
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += a[j];
  if (s == 12345.f) out[blockIdx.x] = s;
}

__global__ void __launch_bounds__(32) k_ffma1(float *out, int iters, Stamp *st) {
  float a = threadIdx.x * 0.001f;
  const float m = 0.999f, c = 0.5f;
  STAMP(0);
  for (int p = 0; p < kCp; ++p) {
    for (int i = 0; i < iters; ++i) {
#pragma unroll
      for (int u = 0; u < 32; ++u) a = fmaf(a, m, c);
    }
    STAMP(p + 1);
  }
  if (a == 12345.f) out[blockIdx.x] = a;
}

// bench_tiles3 k_tnl<128, 8> with its shared tile constant: each k step reads 2 LDS.128
// broadcasts pairs and issues 64 FFMA per thread.
__global__ void __launch_bounds__(256, 2) k_tnl(float *out, int iters, Stamp *st) {
  constexpr int BK = 8, BM = 128, TM = 8, T = 256, TX = BM / TM;
  __shared__ __align__(16) float As[BK][BM];
  __shared__ __align__(16) float Bs[BK][BM];
  const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
  for (int i = tid; i < BK * BM; i += T) {
    As[i / BM][i % BM] = float((i * 7) % 5) * 0.25f;
    Bs[i / BM][i % BM] = float((i * 3) % 7) * 0.125f;
  }
  __syncthreads();
  float acc[TM][TM];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TM; ++j) acc[i][j] = 0.f;
  STAMP(0);
  for (int p = 0; p < kCp; ++p) {
    for (int t = 0; t < iters; ++t) {
#pragma unroll
      for (int kk = 0; kk < BK; ++kk) {
        float a[TM], bb[TM];
#pragma unroll
        for (int i = 0; i < TM; ++i) a[i] = As[kk][ty * TM + i];
#pragma unroll
        for (int j = 0; j < TM; ++j) bb[j] = Bs[kk][tx * TM + j];
#pragma unroll
        for (int i = 0; i < TM; ++i)
#pragma unroll
          for (int j = 0; j < TM; ++j) acc[i][j] += a[i] * bb[j];
      }
      __syncthreads();
    }
    STAMP(p + 1);
  }
  float s = 0;
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TM; ++j) s += acc[i][j];
  if (s == 12345.f) out[blockIdx.x] = s;
}

__global__ void __launch_bounds__(256) k_lds(float *out, int iters, Stamp *st) {
  __shared__ __align__(16) float4 sm[1024];
  const int tid = threadIdx.x;
  for (int i = tid; i < 1024; i += 256) sm[i] = make_float4(i, i + 1, i + 2, i + 3);
  __syncthreads();
  float4 s = make_float4(0, 0, 0, 0);
  int o = 0;
  STAMP(0);
  for (int p = 0; p < kCp; ++p) {
    for (int i = 0; i < iters; ++i) {
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        float4 v = sm[(tid + u * 128 + o) & 1023];
        s.x += v.x, s.y += v.y, s.z += v.z, s.w += v.w;
      }
      o += 8;
    }
    if (p == kCp - 1) __syncthreads();
    STAMP(p + 1);
  }
  if (s.x + s.y + s.z + s.w == 12345.f) out[blockIdx.x] = s.x;
}

__global__ void __launch_bounds__(256) k_hmma(float *out, int iters, Stamp *st) {
  using namespace nvcuda;
  __shared__ __align__(32) half hs[2][256];
  for (int i = threadIdx.x; i < 512; i += 256) hs[i / 256][i % 256] = __float2half((i % 3) * 0.25f);
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> c0, c1, c2, c3;
  wmma::load_matrix_sync(fa, hs[0], 16);
  wmma::load_matrix_sync(fb, hs[1], 16);
  wmma::fill_fragment(c0, 0.f);
  wmma::fill_fragment(c1, 0.f);
  wmma::fill_fragment(c2, 0.f);
  wmma::fill_fragment(c3, 0.f);
  STAMP(0);
  for (int p = 0; p < kCp; ++p) {
    for (int i = 0; i < iters; ++i) {
      wmma::mma_sync(c0, fa, fb, c0);
      wmma::mma_sync(c1, fa, fb, c1);
      wmma::mma_sync(c2, fa, fb, c2);
      wmma::mma_sync(c3, fa, fb, c3);
    }
    if (p == kCp - 1) __syncthreads();
    STAMP(p + 1);
  }
  float s = c0.x[0] + c1.x[1] + c2.x[2] + c3.x[3];
  if (s == 12345.f) out[blockIdx.x] = s;
}

// iters: passes over the buffer per checkpoint; n4 float4 in the buffer.
__global__ void __launch_bounds__(256) k_dram(const float4 *buf, size_t n4, float *out, int iters,
                                              Stamp *st) {
  const size_t g = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  float s = 0;
  STAMP(0);
  for (int p = 0; p < kCp; ++p) {
    for (int i = 0; i < iters; ++i)
      for (size_t e = g; e < n4; e += stride) {
        float4 v = __ldcs(buf + e);
        s += v.x + v.y + v.z + v.w;
      }
    if (p == kCp - 1) __syncthreads();
    STAMP(p + 1);
  }
  if (s == 12345.f) out[blockIdx.x] = s;
}

struct Case {
  Mode mode;
  int bpsm;    // blocks per SM
  int sms;     // SMs used (blocks = sms * bpsm)
};

static FILE *g_st;

int main(int argc, char **argv) {
  REQUIRE(argc >= 3, "usage: bench_clock OUT.csv STAMPS.csv [device]");
  const int dev = argc > 3 ? atoi(argv[3]) : 0;
  Bench b;
  bench_open(b, argv[1], dev);
  g_st = fopen(argv[2], "w");
  REQUIRE(g_st, "cannot write %s", argv[2]);
  fprintf(g_st, "family,name,params,blocks,block_threads,median_us,loop_us,loop_cycles_med,"
                "ghz_med,ghz_min,ghz_max,ghz_all");
  for (int k = 0; k < kCp; ++k) fprintf(g_st, ",t%d_us", k);
  for (int k = 0; k < kCp; ++k) fprintf(g_st, ",ghz%d", k);
  fprintf(g_st, "\n");
  const int sms = b.sm_count;
  float *out;
  CK(cudaMalloc(&out, 1 << 20));
  Stamp *st;
  const int maxb = sms * 8;
  CK(cudaMalloc(&st, sizeof(Stamp) * maxb));
  const size_t n4 = (size_t(128) << 20) / 16;  // 128 MiB window: twice the L2
  CK(cudaMemset(b.scratch, 0, kScratchBytes));

  auto launch = [&](const Case &c, int iters) {
    const int G = c.sms * c.bpsm;
    switch (c.mode) {
      case FFMA8: k_ffma8<<<G, 256, 0, b.stream>>>(out, iters, st); break;
      case FFMA1: k_ffma1<<<G, 32, 0, b.stream>>>(out, iters, st); break;
      case TNL: k_tnl<<<G, 256, 0, b.stream>>>(out, iters, st); break;
      case LDS: k_lds<<<G, 256, 0, b.stream>>>(out, iters, st); break;
      case HMMA: k_hmma<<<G, 256, 0, b.stream>>>(out, iters, st); break;
      case DRAM:
        k_dram<<<G, 256, 0, b.stream>>>((const float4 *)b.scratch, n4, out, iters, st);
        break;
      default: break;
    }
  };
  auto shape = [&](Row &r, const Case &c) {
    const int G = c.sms * c.bpsm;
    switch (c.mode) {
      case FFMA8: row_shape(r, k_ffma8, dim3(G), dim3(256), 0); break;
      case FFMA1: row_shape(r, k_ffma1, dim3(G), dim3(32), 0); break;
      case TNL: row_shape(r, k_tnl, dim3(G), dim3(256), 0); break;
      case LDS: row_shape(r, k_lds, dim3(G), dim3(256), 0); break;
      case HMMA: row_shape(r, k_hmma, dim3(G), dim3(256), 0); break;
      case DRAM: row_shape(r, k_dram, dim3(G), dim3(256), 0); break;
      default: break;
    }
  };

  // One timed case: `reps` repetitions (after 2 warm-ups), then one stamped launch
  // (the last of time_case's launches already wrote the stamps).
  auto run = [&](const Case &c, int iters, const char *tag, int reps) {
    Row r;
    r.family = "clock";
    r.name = std::string(kModeName[c.mode]);
    const int G = c.sms * c.bpsm;
    r.params = std::string("sms=") + std::to_string(c.sms) + " bpsm=" + std::to_string(c.bpsm) +
               " iters=" + std::to_string(iters) + " t=" + tag;
    shape(r, c);
    REQUIRE(r.blocks_per_sm >= c.bpsm, "%s: %lld blocks per SM < %d", r.name.c_str(),
            r.blocks_per_sm, c.bpsm);
    r.t = time_case(b, reps, false, [&] { launch(c, iters); });
    emit(b, r);
    std::vector<Stamp> h(G);
    CK(cudaMemcpy(h.data(), st, sizeof(Stamp) * G, cudaMemcpyDeviceToHost));
    std::vector<double> ghz, cyc;
    unsigned long long g0 = ~0ull, g1 = 0;
    double csum = 0, gsum = 0;
    for (int i = 0; i < G; ++i) {
      const double dc = double(h[i].c[kCp] - h[i].c[0]);
      const double dg = double(h[i].g[kCp] - h[i].g[0]);
      if (dg > 0) ghz.push_back(dc / dg);
      cyc.push_back(dc);
      csum += dc, gsum += dg;
      g0 = std::min(g0, h[i].g[0]);
      g1 = std::max(g1, h[i].g[kCp]);
    }
    std::sort(ghz.begin(), ghz.end());
    fprintf(g_st, "clock,%s,%s,%d,%lld,%.3f,%.3f,%.0f,%.4f,%.4f,%.4f,%.4f", r.name.c_str(),
            r.params.c_str(), G, r.block_x, r.t.median_us, (g1 - g0) * 1e-3, median_of(cyc),
            ghz.empty() ? 0 : median_of(ghz), ghz.empty() ? 0 : ghz.front(),
            ghz.empty() ? 0 : ghz.back(), gsum > 0 ? csum / gsum : 0);
    for (int k = 0; k < kCp; ++k) {  // time of each checkpoint from the first start
      std::vector<double> v;
      for (int i = 0; i < G; ++i) v.push_back(double(h[i].g[k + 1] - g0) * 1e-3);
      fprintf(g_st, ",%.1f", median_of(v));
    }
    for (int k = 0; k < kCp; ++k) {
      std::vector<double> v;
      for (int i = 0; i < G; ++i) {
        const double dg = double(h[i].g[k + 1] - h[i].g[k]);
        if (dg > 0) v.push_back(double(h[i].c[k + 1] - h[i].c[k]) / dg);
      }
      fprintf(g_st, ",%.4f", v.empty() ? 0 : median_of(v));
    }
    fprintf(g_st, "\n");
    fflush(g_st);
    return r.t.median_us;
  };

  std::vector<Case> cases = {
      {FFMA8, 8, sms}, {FFMA8, 1, sms}, {FFMA8, 8, 16}, {FFMA1, 1, sms},
      {TNL, 2, sms},   {LDS, 8, sms},   {HMMA, 4, sms}, {DRAM, 8, sms},
      {TNL, 1, sms},   {HMMA, 1, sms},
  };
  const double targets[] = {50, 500, 5000, 50000};
  const char *tags[] = {"50us", "500us", "5ms", "50ms"};
  std::vector<int> it50;
  for (const Case &c : cases) {
    // Scale the iteration count from a short probe.
    int it = 1;
    double us = 0;
    for (;;) {
      us = run(c, it, "probe", 1);
      if (us > 20 || it > (1 << 24)) break;
      it *= 4;
    }
    const double per_it = us / it;
    for (int k = 0; k < 4; ++k) {
      const int iters = std::max(1, int(targets[k] / per_it + 0.5));
      run(c, iters, tags[k], k < 3 ? 5 : 3);
      if (k == 3) it50.push_back(iters);
    }
  }
  // Sustained: ~2 s each of the heaviest loads (idle 1 s between, so that the samples
  // part them), then the light one for contrast.
  const int longi[] = {4, 0, 6, 3};  // tnl, ffma8 bpsm 8, hmma, ffma1 (indices in cases)
  for (int i : longi) {
    usleep(1000000);
    run(cases[i], it50[i] * 40, "2s", 1);
  }
  CK(cudaFree(out));
  CK(cudaFree(st));
  fclose(g_st);
  bench_close(b);
  return 0;
}
