// bench_shist.cu - shared-memory histogram throughput against the number of bins (family
// `shist`): how fast the warps of a block can add into B words of shared memory when
// many of them hit the same words, as a block histogram, a radix sort's digit count or
// its ranking does.
//
// k_shist<MODE, RET>: a block of 256 threads clears B = mask + 1 words of dynamic shared
// memory, a barrier, then each thread runs `iters` trips (`#pragma unroll 4`) of
//   x = x * 1664525 + 1013904223                      (an IMAD: the thread's LCG)
//   b = bin(x)                                        (a shift and an AND, or an add and
//                                                      an AND)
//   atomicAdd(&h[b], 1u)                              (RET = 0: the result unused)
//   acc += atomicAdd(&h[b], 1u)                       (RET = 1: the old value used)
// with the bins drawn three ways:
//   hash  (MODE 0)  b = (x >> 16) & mask, x seeded by the thread: each lane its own
//                   uniform draw (a histogram of hashed keys);
//   warp  (MODE 1)  the same, x seeded by the warp: all 32 lanes of a warp the same bin,
//                   a uniform draw per warp and trip;
//   lane  (MODE 2)  b = (lane + trip) & mask: lane l on bin l mod B, no two lanes of a
//                   warp on one word from 32 bins on, every warp of the block on the
//                   same 32 words at a trip;
// and, at 1, 32 and 256 bins, four variants that take the loop apart:
//   fixed   (MODE 3)  b = lane & mask, the same word every trip (no address work);
//   lanemad (MODE 4)  lane's bins and, beside them, the LCG's IMAD on a value that no
//                     address uses (folded into the check at the end);
//   alu     (MODE 5)  hash's bins XORed into a register, no atomic (the loop's integer
//                     work alone);
//   xs      (MODE 6)  b = x & mask after a xorshift step (x ^= x << 13, >> 17, << 5:
//                     shifts and LOP3, no IMAD).
// Then a barrier and each block adds its B counts into `out` with global atomics (B of
// them a block). 8, 32 or 64 warps per SM (1, 4 or 8 blocks per SM, grid sms x blocks,
// one wave). Nothing is read from device memory in the loop. Checked: the sum of the B
// counts in `out` equals grid x 256 x iters. CUDA-event medians of 7 after 2 warm-ups,
// no flush (nothing to flush: the loop touches shared memory only).
//
// usage: bench_shist OUT.csv [device]
//        SHIST_PROFILE=1 bench_shist OUT.csv [device]: one launch of every kernel at 64
//        warps per SM and 1, 32 and 256 bins, untimed and checked (for ncu: which pipe
//        each instruction of the loop runs on); OUT.csv gets its header only
#include "common.cuh"

template <int MODE, int RET>
__global__ void __launch_bounds__(256)
    k_shist(unsigned *__restrict__ out, unsigned *__restrict__ sink, int iters, unsigned mask,
            unsigned seed) {
  extern __shared__ unsigned h[];
  const unsigned tid = threadIdx.x, lane = tid & 31;
  const unsigned gtid = blockIdx.x * blockDim.x + tid, gwarp = gtid >> 5;
  for (unsigned i = tid; i <= mask; i += blockDim.x) h[i] = 0;
  __syncthreads();
  unsigned x = hash32((MODE == 1 ? gwarp : gtid) ^ seed), acc = 0, y = x;
#pragma unroll 4
  for (int it = 0; it < iters; ++it) {
    unsigned b;
    if (MODE == 2) {
      b = (lane + (unsigned)it) & mask;
    } else if (MODE == 3) {
      b = lane & mask;
    } else if (MODE == 4) {
      b = (lane + (unsigned)it) & mask;
      y = y * 1664525u + 1013904223u;
    } else if (MODE == 6) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      b = x & mask;
    } else {
      x = x * 1664525u + 1013904223u;
      b = (x >> 16) & mask;
    }
    if (MODE == 5)
      acc ^= b;
    else if (RET)
      acc += atomicAdd(&h[b], 1u);
    else
      atomicAdd(&h[b], 1u);
  }
  __syncthreads();
  if (MODE == 5 && acc == 0x9e3779b9u) h[0] = 0;  // never: keeps the loop
  for (unsigned i = tid; i <= mask; i += blockDim.x) atomicAdd(&out[i], h[i]);
  if ((RET || MODE == 5 || MODE == 4) && (acc ^ (MODE == 4 ? y : 0u)) == 0x9e3779b9u)
    sink[gtid & 1023] = acc;  // keeps the results used
}

typedef void (*Kern)(unsigned *, unsigned *, int, unsigned, unsigned);

static Kern pick(int mode, int ret) {
  switch (mode * 2 + ret) {
  case 0: return k_shist<0, 0>;
  case 1: return k_shist<0, 1>;
  case 2: return k_shist<1, 0>;
  case 3: return k_shist<1, 1>;
  case 4: return k_shist<2, 0>;
  case 5: return k_shist<2, 1>;
  case 6: return k_shist<3, 0>;
  case 7: return k_shist<3, 1>;
  case 8: return k_shist<4, 0>;
  case 9: return k_shist<4, 1>;
  case 10: return k_shist<5, 0>;
  case 12: return k_shist<6, 0>;
  default: return k_shist<6, 1>;
  }
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const char *modes[] = {"hash", "warp", "lane", "fixed", "lanemad", "alu", "xs"};
  const int iters = 512, maxB = 1024;
  unsigned *out, *sink;
  CK(cudaMalloc(&out, maxB * sizeof(unsigned)));
  CK(cudaMalloc(&sink, 1024 * sizeof(unsigned)));
  const bool profile = getenv("SHIST_PROFILE") != nullptr;
  for (int mode = 0; mode < 7; ++mode)
    for (int ret = 0; ret < (mode == 5 ? 1 : 2); ++ret)
      for (int bpsm : {1, 4, 8})
        for (int B : {1, 2, 4, 8, 16, 32, 64, 256, 1024}) {
          if ((mode >= 3 || profile) && B != 1 && B != 32 && B != 256) continue;
          if (profile && bpsm != 8) continue;
          Kern k = pick(mode, ret);
          const int grid = b.sm_count * bpsm;
          const size_t dyn = (size_t)B * sizeof(unsigned);
          Row row;
          row.family = "shist";
          row.name = std::string(modes[mode]) + (mode == 5 ? "" : ret ? "_ret" : "_inc");
          row.params = "bins=" + std::to_string(B) + " warps=" + std::to_string(8 * bpsm) +
                       " iters=" + std::to_string(iters);
          row_shape(row, k, dim3(grid), dim3(256), dyn);
          if (!profile)
            row.t = time_case(b, 7, false, [&] {
              k<<<grid, 256, dyn, b.stream>>>(out, sink, iters, (unsigned)(B - 1), 0x5bd1e995u);
            });
          // one more launch on cleared counts, checked
          CK(cudaMemset(out, 0, maxB * sizeof(unsigned)));
          k<<<grid, 256, dyn, b.stream>>>(out, sink, iters, (unsigned)(B - 1), 0x5bd1e995u);
          CK_LAUNCH();
          CK(cudaStreamSynchronize(b.stream));
          std::vector<unsigned> hc(B);
          CK(cudaMemcpy(hc.data(), out, B * sizeof(unsigned), cudaMemcpyDeviceToHost));
          unsigned long long sum = 0;
          for (int i = 0; i < B; ++i) sum += hc[i];
          const unsigned long long want = mode == 5 ? 0 : (unsigned long long)grid * 256 * iters;
          REQUIRE(sum == want, "shist %s %s: counts sum to %llu, want %llu", row.name.c_str(),
                  row.params.c_str(), sum, want);
          row.bytes = 0;
          row.flops = want;
          if (!profile)
            emit(b, row);
        }
  CK(cudaFree(out));
  CK(cudaFree(sink));
  bench_close(b);
  return 0;
}
