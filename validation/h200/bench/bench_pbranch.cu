// bench_pbranch.cu - one warp per SM walking an L1-resident buffer in a loop pinned to
// one copy (`#pragma unroll 1`), in the address forms common kernels use, with 1, 2 or
// 4 loads a trip and 0 to 4 dependent FFMA on their sum before `acc +=`: the cycles a
// trip takes (clock64) and, in the SASS, where ptxas puts the loop's exit compare
// (ISETP) and the stall cycles between it and the branch. Raw data for the rule that
// a trip whose work after its loads is short waits the rest of those stall cycles
// before the branch (devices/*.ini predicate_branch_cycles, docs/model.md).
//
// k_pb<FORM, NLD, DEP>: 4096 timed trips after 512 untimed ones over a 16 KiB window
// of x (4096 floats, every load an L1 hit), lane l reading float l of a 32-float group:
//   FORM 0  index  x[((j * 32 * NLD + lane) & 2047) + 32 q]: the address from the index
//                  every trip (LOP3, IMAD.WIDE), as bench_loopchain's k_lc;
//   FORM 1  ptr    p[32 q], p += 32 NLD, wrapping by a compare and a select every trip
//                  (the pointer's 64-bit add), as bench_uniform2's k_u2 with a window;
//   FORM 2  row    x[k * 32 NLD + 32 q + lane] for k < n, a counted pass of the window
//                  (nvcc strength-reduces the index to a pointer), the passes in an
//                  outer loop;
//   FORM 3  stride x[i + 32 q] with i += s at run time and i wrapped by a compare (the
//                  grid-stride shape: IMAD.WIDE or a 64-bit add from a run-time step).
// q = 0 .. NLD - 1. v = the sum of the NLD values; DEP dependent u = fmaf(u, 0.5, 0.75);
// acc += u.
// Launch: 1 block of 32 threads per SM (grid = SMs), carve-out preference 0. Thread 0
// writes clock64 around the timed loop; the side table has the median over the blocks
// per trip. Every thread's result is checked against a host recomputation.
//
// usage: bench_pbranch OUT.csv [device]
#include "common.cuh"

static const int kTrips = 4096, kWarm = 512, kWindow = 4096;

__host__ __device__ inline float pb_x(int i) { return float(i % 5) * 0.25f; }

template <int DEP>
__device__ __forceinline__ float pb_body(float v) {
  float u = v;
#pragma unroll
  for (int k = 0; k < DEP; ++k) u = fmaf(u, 0.5f, 0.75f);
  return u;
}

template <int NLD>
__device__ __forceinline__ float pb_sum(const float *p) {
  float v = p[0];
#pragma unroll
  for (int q = 1; q < NLD; ++q) v += p[32 * q];
  return v;
}

template <int FORM, int NLD, int DEP>
__device__ __forceinline__ float pb_loop(const float *__restrict__ x, int first, int trips,
                                         int s, float acc) {
  const int lane = threadIdx.x & 31;
  const int step = 32 * NLD;
  if constexpr (FORM == 0) {
#pragma unroll 1
    for (int j = first; j < first + trips; ++j)
      acc += pb_body<DEP>(pb_sum<NLD>(x + ((unsigned(j) * step + lane) & (kWindow / 2 - 1))));
  } else if constexpr (FORM == 1) {
    const float *p = x + ((unsigned(first) * step) % (kWindow - step + 32)) + lane;
    const float *end = x + kWindow - step + 32;
#pragma unroll 1
    for (int j = 0; j < trips; ++j) {
      acc += pb_body<DEP>(pb_sum<NLD>(p));
      p += step;
      p = p >= end ? p - (kWindow - step + 32) : p;
    }
  } else if constexpr (FORM == 2) {
    const int per = (kWindow - 32 * (NLD - 1)) / step;  // trips a pass of the window
    for (int done = 0; done < trips; done += per) {
      const int n = min(per, trips - done);
#pragma unroll 1
      for (int k = 0; k < n; ++k) acc += pb_body<DEP>(pb_sum<NLD>(x + k * step + lane));
    }
  } else {
    int i = ((unsigned(first) * step) % (kWindow - step + 32)) + lane;
    const int lim = kWindow - step + 32;
#pragma unroll 1
    for (int j = 0; j < trips; ++j) {
      acc += pb_body<DEP>(pb_sum<NLD>(x + i));
      i += s;
      i = i >= lim ? i - lim : i;
    }
  }
  return acc;
}

template <int FORM, int NLD, int DEP>
__global__ void __launch_bounds__(32)
    k_pb(const float *__restrict__ x, int trips, int s, float *out, long long *cyc) {
  float acc = pb_loop<FORM, NLD, DEP>(x, 0, kWarm, s, 0.f);
  long long t0 = clock64();
  acc = pb_loop<FORM, NLD, DEP>(x, kWarm, trips, s, acc);
  long long t1 = clock64();
  out[blockIdx.x * 32 + threadIdx.x] = acc;
  if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}

// host mirror: the sum one lane computes
static double pb_want(int form, int nld, int dep, int lane) {
  const int step = 32 * nld;
  double acc = 0;
  auto one = [&](int base) {
    float v = pb_x(base);
    for (int q = 1; q < nld; ++q) v += pb_x(base + 32 * q);
    float u = v;
    for (int k = 0; k < dep; ++k) u = fmaf(u, 0.5f, 0.75f);
    acc += u;
  };
  auto walk = [&](int first, int trips) {
    if (form == 0) {
      for (int j = first; j < first + trips; ++j)
        one(int((unsigned(j) * step + lane) & unsigned(kWindow / 2 - 1)));
    } else if (form == 1 || form == 3) {
      const int lim = kWindow - step + 32;
      int i = int((unsigned(first) * step) % unsigned(lim)) + lane;
      for (int j = 0; j < trips; ++j) {
        one(i);
        i += step;
        i = i >= lim + (form == 1 ? lane : 0) ? i - lim : i;
      }
    } else {
      const int per = (kWindow - 32 * (nld - 1)) / step;
      for (int done = 0; done < trips; done += per)
        for (int k = 0; k < std::min(per, trips - done); ++k) one(k * step + lane);
    }
  };
  walk(0, kWarm);
  walk(kWarm, kTrips);
  return acc;
}

struct Var {
  void (*k)(const float *, int, int, float *, long long *);
  int form, nld, dep;
};
#define PB_DEPS(F, N) {k_pb<F, N, 0>, F, N, 0}, {k_pb<F, N, 1>, F, N, 1}, \
                      {k_pb<F, N, 2>, F, N, 2}, {k_pb<F, N, 4>, F, N, 4}
#define PB_LOADS(F) PB_DEPS(F, 1), PB_DEPS(F, 2), PB_DEPS(F, 4)
static const Var kVars[] = {PB_LOADS(0), PB_LOADS(1), PB_LOADS(2), PB_LOADS(3)};
static const char *kForm[] = {"index", "ptr", "row", "stride"};

int main(int argc, char **argv) {
  REQUIRE(argc == 2 || argc == 3, "usage: bench_pbranch OUT.csv [device]");
  const int dev = argc == 3 ? atoi(argv[2]) : 0;
  CK(cudaSetDevice(dev));
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, dev));
  const int clock_khz = dev_attr(cudaDevAttrClockRate, dev);
  const int blocks = p.multiProcessorCount;
  FILE *f = fopen(argv[1], "w");
  REQUIRE(f, "cannot write %s", argv[1]);
  fprintf(f, "# bench_pbranch on %s, %d SMs, %d MHz, %d blocks of 32 threads, %d trips after %d\n",
          p.name, blocks, clock_khz / 1000, blocks, kTrips, kWarm);
  fprintf(f, "form,loads,dep,regs,event_us,cycles_per_trip_clock64,cycles_per_trip_min,"
             "cycles_per_trip_max\n");
  std::vector<float> hx(kWindow);
  for (int i = 0; i < kWindow; ++i) hx[i] = pb_x(i);
  float *dx, *dout;
  long long *dcyc;
  CK(cudaMalloc(&dx, kWindow * sizeof(float)));
  CK(cudaMalloc(&dout, size_t(blocks) * 32 * sizeof(float)));
  CK(cudaMalloc(&dcyc, blocks * sizeof(long long)));
  CK(cudaMemcpy(dx, hx.data(), kWindow * sizeof(float), cudaMemcpyHostToDevice));
  Bench b;
  bench_stream(b);
  for (const Var &v : kVars) {
    long long regs, static_smem;
    const int s = 32 * v.nld;
    auto launch = [&] { v.k<<<blocks, 32, 0, b.stream>>>(dx, kTrips, s, dout, dcyc); };
    CK(cudaFuncSetAttribute(v.k, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
    kernel_attrs(v.k, &regs, &static_smem);
    const Stats st = time_case(b, 5, false, launch);
    std::vector<float> out(size_t(blocks) * 32);
    CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 32; lane += 7) {
      const double want = pb_want(v.form, v.nld, v.dep, lane);
      REQUIRE(fabs(out[lane] - want) <= 1e-3 * fabs(want) + 1e-2, "%s nld %d dep %d lane %d: %g, want %g",
              kForm[v.form], v.nld, v.dep, lane, out[lane], want);
    }
    const Cycles c = block_cycles(dcyc, blocks);
    fprintf(f, "%s,%d,%d,%lld,%.3f,%.3f,%.3f,%.3f\n", kForm[v.form], v.nld, v.dep, regs,
            st.median_us, c.median / kTrips, c.min / kTrips, c.max / kTrips);
    fprintf(stderr, "%-6s loads %d dep %d: %.2f cycles a trip\n", kForm[v.form], v.nld, v.dep,
            c.median / kTrips);
  }
  fclose(f);
  CK(cudaFree(dx));
  CK(cudaFree(dout));
  CK(cudaFree(dcyc));
  return 0;
}
