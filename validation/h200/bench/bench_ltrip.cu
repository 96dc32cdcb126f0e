// bench_ltrip.cu - what one trip of a short loop of one L1-hit load costs a lone warp
// (raw data only, no family): the `loopchain` loops' k0 trip (LOP3 and IMAD.WIDE for
// the address, LDG, FADD, BRA) takes 68 clock64 cycles where the same with 4 dependent
// FFMA before the FADD takes 73 (run10/loopchain), and the `uniform2` loop of one load
// behind a pointer increment 47 to 48 (run9/uniform2). This separates the address form
// from the work after the load.
//
// k_lt<FORM, D, XI>: one warp per SM (132 blocks of 32 threads), x of 16 KiB read once
// untimed (L1-resident), then T = 4096 timed trips, each loading one float
// a lane (coalesced, one line a trip):
//   FORM 0 (idx)  element (j * 32 + lane) & mask: a LOP3 and an IMAD.WIDE before the load
//   FORM 1 (ptr)  passes of an inner loop of 128 / NL trips stepping a pointer by 32
//                 floats (a 64-bit add, not on the load's chain)
// then D dependent FFMA on the value (v = v * 0.5 + 0.75) and acc += v; XI 1 adds two
// integer ops on a chain of their own (k = k * 3 + 1, k ^= k >> 7). NL 2 loads a second
// float 8 KiB further (an immediate offset from the first's address, the elements
// masked to the first 8 KiB), with its own chain and accumulation. Every loop is
// `#pragma unroll 1`. Thread 0 of each block reads clock64 around the timed loops;
// ltrip.csv has per variant the median, min and max over blocks of the cycles a trip.
// The sums are checked against a host recomputation.
//
// usage: bench_ltrip OUT.csv
#include "common.cuh"

static const int kTrips = 4096;
static const int kElems = 4096;  // 16 KiB of floats
static const int kBlocks = 132;

__host__ __device__ inline float lt_x(int i) { return float(i % 5) * 0.25f; }

template <int D, int XI, int NL>
__device__ __forceinline__ void lt_body(const float *q, float &acc, float &acc2, unsigned &k) {
  float v = q[0], w = NL == 2 ? q[2048] : 0.f;
#pragma unroll
  for (int d = 0; d < D; ++d) {
    v = fmaf(v, 0.5f, 0.75f);
    if (NL == 2) w = fmaf(w, 0.5f, 0.75f);
  }
  acc += v;
  if (NL == 2) acc2 += w;
  if (XI) {
    k = k * 3u + 1u;
    k ^= k >> 7;
  }
}

template <int FORM, int D, int XI, int NL>
__global__ void __launch_bounds__(32) k_lt(const float *x, unsigned mask, int trips, float *out,
                                           unsigned *kout, long long *cyc) {
  const int lane = threadIdx.x & 31;
  float acc = 0.f, acc2 = 0.f, warm = 0.f;
  unsigned k = threadIdx.x;
#pragma unroll 1
  for (int i = lane; i <= (int)mask; i += 32) warm += x[i];
  long long t0 = clock64();
  if (FORM == 0) {
#pragma unroll 1
    for (int j = 0; j < trips; ++j) lt_body<D, XI, NL>(x + ((unsigned(j) * 32u + lane) & mask), acc, acc2, k);
  } else {
#pragma unroll 1
    for (int o = 0; o < trips / (128 / NL); ++o) {
      const float *p = x + lane;
#pragma unroll 1
      for (int i = 0; i < 128 / NL; ++i) {
        lt_body<D, XI, NL>(p, acc, acc2, k);
        p += 32;
      }
    }
  }
  long long t1 = clock64();
  if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
  out[blockIdx.x * 32 + threadIdx.x] = acc + acc2 + 0.f * warm;
  kout[blockIdx.x * 32 + threadIdx.x] = k;
}

// The host's sum of one lane's trips (the same float operations in the same order).
template <int FORM, int D, int XI, int NL>
static float host_sum(int lane, int trips, unsigned mask, unsigned *k) {
  float acc = 0.f, acc2 = 0.f;
  *k = unsigned(lane);
  for (int j = 0; j < trips; ++j) {
    int e = FORM == 0 ? int((unsigned(j) * 32u + lane) & mask) : (j % (128 / NL)) * 32 + lane;
    float v = lt_x(e), w = NL == 2 ? lt_x(e + 2048) : 0.f;
    for (int d = 0; d < D; ++d) {
      v = fmaf(v, 0.5f, 0.75f);
      w = fmaf(w, 0.5f, 0.75f);
    }
    acc += v;
    if (NL == 2) acc2 += w;
    if (XI) {
      *k = *k * 3u + 1u;
      *k ^= *k >> 7;
    }
  }
  return acc + acc2;
}

template <int FORM, int D, int XI, int NL>
static void run_case(FILE *f, const float *dx, float *dout, unsigned *dk, long long *dcyc) {
  const unsigned mask = kElems / NL - 1;
  const char *form = FORM == 0 ? "idx" : "ptr";
  for (int rep = 0; rep < 3; ++rep) {  // two warm-ups, the third recorded
    k_lt<FORM, D, XI, NL><<<kBlocks, 32>>>(dx, mask, kTrips, dout, dk, dcyc);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
  }
  std::vector<long long> cyc(kBlocks);
  std::vector<float> out(kBlocks * 32);
  std::vector<unsigned> kk(kBlocks * 32);
  CK(cudaMemcpy(cyc.data(), dcyc, kBlocks * sizeof(long long), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(kk.data(), dk, kk.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int lane = 0; lane < 32; ++lane) {
    unsigned hk;
    float want = host_sum<FORM, D, XI, NL>(lane, kTrips, mask, &hk);
    for (int b = 0; b < kBlocks; b += 37) {
      float got = out[b * 32 + lane];
      REQUIRE(fabsf(got - want) <= 1e-3f * fabsf(want) + 1e-3f,
              "k_lt<%s, %d, %d, %d> lane %d: %g, want %g", form, D, XI, NL, lane, got, want);
      REQUIRE(!XI || kk[b * 32 + lane] == hk, "k_lt<%s, %d, %d, %d> lane %d: k differs", form, D,
              XI, NL, lane);
    }
  }
  std::vector<double> per;
  for (long long c : cyc) per.push_back(double(c) / kTrips);
  std::sort(per.begin(), per.end());
  fprintf(f, "%s,%d,%d,%d,%d,%.3f,%.3f,%.3f\n", form, NL, D, XI, kTrips, median_of(per),
          per.front(), per.back());
  fflush(f);
}

template <int FORM>
static void run_form(FILE *f, const float *dx, float *dout, unsigned *dk, long long *dcyc) {
  run_case<FORM, 0, 0, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 1, 0, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 2, 0, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 3, 0, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 4, 0, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 8, 0, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 0, 1, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 4, 1, 1>(f, dx, dout, dk, dcyc);
  run_case<FORM, 0, 0, 2>(f, dx, dout, dk, dcyc);
  run_case<FORM, 1, 0, 2>(f, dx, dout, dk, dcyc);
  run_case<FORM, 2, 0, 2>(f, dx, dout, dk, dcyc);
  run_case<FORM, 4, 0, 2>(f, dx, dout, dk, dcyc);
}

int main(int argc, char **argv) {
  REQUIRE(argc == 2, "usage: bench_ltrip OUT.csv");
  FILE *f = fopen(argv[1], "w");
  REQUIRE(f, "cannot write %s", argv[1]);
  std::vector<float> hx(kElems);
  for (int i = 0; i < kElems; ++i) hx[i] = lt_x(i);
  float *dx, *dout;
  unsigned *dk;
  long long *dcyc;
  CK(cudaMalloc(&dx, kElems * sizeof(float)));
  CK(cudaMalloc(&dout, kBlocks * 32 * sizeof(float)));
  CK(cudaMalloc(&dk, kBlocks * 32 * sizeof(unsigned)));
  CK(cudaMalloc(&dcyc, kBlocks * sizeof(long long)));
  CK(cudaMemcpy(dx, hx.data(), kElems * sizeof(float), cudaMemcpyHostToDevice));
  fprintf(f, "form,loads,dep_ffma,int_ops,trips,cycles_per_trip_median,cycles_per_trip_min,"
             "cycles_per_trip_max\n");
  run_form<0>(f, dx, dout, dk, dcyc);
  run_form<1>(f, dx, dout, dk, dcyc);
  fclose(f);
  CK(cudaFree(dx));
  CK(cudaFree(dout));
  CK(cudaFree(dk));
  CK(cudaFree(dcyc));
  return 0;
}
