// bench_misdram.cu - what a stream read off its lines' boundaries costs from DRAM: one
// element per thread, `in[i + OFF]`, OFF = 0, 1, 2, 4, 8, 16, 24, 32 floats (0 to 128
// bytes), over 2^24 and 2^26 floats behind the memset flush (time_case cold), as
//   copy  out[i] = in[i + OFF]                 (bench_own's copy_misaligned at OFF = 1)
//   sum   a read-only sum: every thread reads in[i + OFF], nothing is stored
//         (a store only where the value is a sentinel the data never hold).
// A warp's 128 bytes at an offset of 4 bytes span five 32-byte sectors and two
// 128-byte lines; the next warp reads the fifth sector too. Whether DRAM moves the
// shared sectors (or 64-byte granules) once or once per warp, and what the time
// does, is what the rows tell; in profile mode (MISDRAM_PROFILE=1) each case runs
// once behind the flush, untimed, for ncu (DRAM bytes read and written, the L2's
// read requests, sectors and sector misses from the SMs).
//
// usage: bench_misdram OUT.csv [device]
//        MISDRAM_PROFILE=1 bench_misdram OUT.csv [device]
#include "common.cuh"

template <int OFF>
__global__ void k_copy(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + OFF];
}

template <int OFF>
__global__ void k_sum(const float *__restrict__ in, float *__restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float v = in[i + OFF];
    if (v == -12345.0f) out[i] = v;  // never: the data are small whole numbers
  }
}

typedef void (*MisK)(const float *, float *, int);

template <int OFF>
static void add(std::vector<std::pair<int, MisK>> &cp, std::vector<std::pair<int, MisK>> &sm) {
  cp.push_back({OFF, k_copy<OFF>});
  sm.push_back({OFF, k_sum<OFF>});
}

__global__ void k_fill(float *p, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = float(i % 7);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUT.csv [device]\n", argv[0]);
    return 2;
  }
  const bool profile = getenv("MISDRAM_PROFILE") != nullptr;
  Bench b;
  bench_open(b, argv[1], argc > 2 ? atoi(argv[2]) : 0);
  const size_t nmax = size_t(1) << 26;
  float *in, *out;
  CK(cudaMalloc(&in, (nmax + 64) * sizeof(float)));
  CK(cudaMalloc(&out, nmax * sizeof(float)));
  k_fill<<<4 * b.sm_count, 256>>>(in, nmax + 64);
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
  std::vector<std::pair<int, MisK>> cp, sm;
  add<0>(cp, sm);
  add<1>(cp, sm);
  add<2>(cp, sm);
  add<4>(cp, sm);
  add<8>(cp, sm);
  add<16>(cp, sm);
  add<24>(cp, sm);
  add<32>(cp, sm);
  for (int lg : {24, 26}) {
    const int n = 1 << lg;
    const dim3 grid(unsigned(n / 256)), block(256);
    for (int kind = 0; kind < 2; ++kind)
      for (const auto &c : kind == 0 ? cp : sm) {
        MisK k = c.second;
        auto launch = [&] { k<<<grid, block, 0, b.stream>>>(in, out, n); };
        if (profile) {
          profile_case(b, launch);
          continue;
        }
        Row r;
        r.family = "misdram";
        r.name = kind == 0 ? "copy" : "sum";
        r.params = "off=" + std::to_string(c.first) + " n=2^" + std::to_string(lg);
        row_shape(r, k, grid, block, 0);
        r.t = time_case(b, 9, true, launch);
        r.bytes = (unsigned long long)n * 4 * (kind == 0 ? 2 : 1);
        emit(b, r);
        if (kind == 0) {  // out[i] == in[i + OFF] for a few i
          float h[4];
          const size_t at[4] = {0, 1, (size_t)n / 2 + 3, (size_t)n - 1};
          for (int q = 0; q < 4; ++q) {
            CK(cudaMemcpy(&h[q], out + at[q], sizeof(float), cudaMemcpyDeviceToHost));
            REQUIRE(h[q] == float((at[q] + c.first) % 7), "copy off=%d: out[%zu] = %g", c.first,
                    at[q], h[q]);
          }
        }
      }
  }
  CK(cudaFree(in));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
