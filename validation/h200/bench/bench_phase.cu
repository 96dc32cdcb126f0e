// bench_phase.cu - streaming blocks with a compute phase between their loads and their
// stores, by block size (family `phase`).
//
// k_phase<BS>: block b owns the tile of BS uint4 at b * BS (16 bytes a thread, one
// coalesced LDG.E.128), sums its four words, then runs R rounds of (variant)
//   bar   a block all-reduce: a __shfl_xor_sync tree (5 steps), lane 0 writes its
//         warp's total to shared memory, __syncthreads, every warp reads the BS/32
//         totals (lane l the l-th) and reduces them with a second tree, __syncthreads;
//   warp  the two shuffle trees alone (no shared memory, no barrier);
// each round's total feeding the next (x = (x ^ t) * 2654435761 + r), and stores its
// four words plus x (one coalesced STG.E.128). Blocks of 128, 256, 512 and 1024
// threads (16, 8, 4 and 2 a SM at full occupancy), R = 0, 1, 2, 4, 8 (R = 0 is the
// copy, one row), n = 2^24 and 2^26 u32; at n = 2^26 also bar4 (copy4 at R = 0, R <= 2):
// the barrier's kernel with four 4-byte LDG.E and STG.E a thread, 4 bytes apart (a
// block's blocked arrangement, as a tile scan reads it). The memset flush before each
// repetition. At n = 2^26 and R = 0, 1 also the two halves of it: copy4l and bar4l (the
// four 4-byte loads, one STG.E.128) and copy4s and bar4s (one LDG.E.128, the four stores).
// k_tail, at n = 2^26, R = 1, 256 and 1024 threads: bar4s's stores after the last barrier
// predicated (tail_pred), after a warp-0 phase (tail_w0) or as they are (tail_lds).
// Median of 7 repetitions after 2 warm-ups. The output is checked against the host.
//
// usage: bench_phase OUT.csv [device]
#include "common.cuh"

__device__ __forceinline__ unsigned tree(unsigned s) {
#pragma unroll
  for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  return s;
}

template <int BS, bool BAR, bool VL, bool VS>
__global__ void __launch_bounds__(BS) k_phase(const uint4 *__restrict__ in, uint4 *out, int R,
                                               int off) {
  __shared__ unsigned ws[BS / 32];
  const size_t i = (size_t)blockIdx.x * BS + threadIdx.x;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  uint4 v;
  if (VL) {
    v = in[i];
  } else {
    // four LDG.E 4 bytes apart (off = 0 at run time hides the alignment)
    const unsigned *p = (const unsigned *)in + 4 * i + off;
    v = make_uint4(p[0], p[1], p[2], p[3]);
  }
  unsigned x = v.x + v.y + v.z + v.w;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    unsigned t = tree(x);
    if (BAR) {
      if (lane == 0) ws[w] = t;
      __syncthreads();
      t = lane < BS / 32 ? ws[lane] : 0u;
    }
    t = tree(t);
    if (BAR) __syncthreads();
    x = (x ^ t) * 2654435761u + (unsigned)r;
  }
  if (VS) {
    out[i] = make_uint4(v.x + x, v.y + x, v.z + x, v.w + x);
  } else {
    unsigned *q = (unsigned *)out + 4 * i + off;
    q[0] = v.x + x;
    q[1] = v.y + x;
    q[2] = v.z + x;
    q[3] = v.w + x;
  }
}

// The stores after a block scan's last barrier, by what precedes them (n = 2^26, R = 1,
// one uint4 load, four 4-byte stores; MODE 1: each store predicated on a run-time
// bound; 2: the second tree by warp 0 alone between the barriers, as a block scan does
// it, every warp reading warp 0's result after the second barrier (LDS); 3: as bar4s,
// then each warp reads its own total back from shared memory before storing).
template <int BS, int MODE>
__global__ void __launch_bounds__(BS) k_tail(const uint4 *__restrict__ in, uint4 *out, int R,
                                             int off, size_t n) {
  __shared__ unsigned ws[BS / 32 + 1];
  const size_t i = (size_t)blockIdx.x * BS + threadIdx.x;
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  const uint4 v = in[i];
  unsigned x = v.x + v.y + v.z + v.w;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    unsigned t = tree(x);
    if (lane == 0) ws[w] = t;
    __syncthreads();
    if (MODE == 2) {
      if (w == 0) {
        t = tree(lane < BS / 32 ? ws[lane] : 0u);
        if (lane == 0) ws[BS / 32] = t;
      }
      __syncthreads();
      t = ws[BS / 32];
    } else {
      t = tree(lane < BS / 32 ? ws[lane] : 0u);
      __syncthreads();
      if (MODE == 3) t += ws[w] - ws[w];
    }
    x = (x ^ t) * 2654435761u + (unsigned)r;
  }
  unsigned *q = (unsigned *)out + 4 * i + off;
  const size_t e = 4 * i + off;
  if (MODE != 1 || e + 0 < n) q[0] = v.x + x;
  if (MODE != 1 || e + 1 < n) q[1] = v.y + x;
  if (MODE != 1 || e + 2 < n) q[2] = v.z + x;
  if (MODE != 1 || e + 3 < n) q[3] = v.w + x;
}

// The host's x of thread `tid` of the block whose tile starts at uint4 `base4`.
static unsigned host_x(const std::vector<unsigned> &h, size_t base4, int bs, int tid, int R,
                       bool bar) {
  std::vector<unsigned> xs(bs);
  for (int t = 0; t < bs; ++t) {
    const unsigned *p = &h[(base4 + t) * 4];
    xs[t] = p[0] + p[1] + p[2] + p[3];
  }
  for (int r = 0; r < R; ++r) {
    std::vector<unsigned> nx(bs);
    if (bar) {
      unsigned tot = 0;
      for (int t = 0; t < bs; ++t) tot += xs[t];
      // every lane ends with the block's total (lanes past BS/32 add 0)
      for (int t = 0; t < bs; ++t) nx[t] = (xs[t] ^ tot) * 2654435761u + (unsigned)r;
    } else {
      for (int t = 0; t < bs; ++t) {
        const int w0 = t / 32 * 32;
        unsigned s = 0;
        for (int l = 0; l < 32; ++l) s += xs[w0 + l];
        // the second tree sums 32 copies of the warp total
        nx[t] = (xs[t] ^ (s * 32u)) * 2654435761u + (unsigned)r;
      }
    }
    xs.swap(nx);
  }
  return xs[tid];
}

template <int BS>
static void run_bs(Bench &b, const uint4 *in, uint4 *out, const std::vector<unsigned> &h,
                   int lg) {
  const size_t n4 = (size_t)1 << (lg - 2);
  const int grid = (int)(n4 / BS);
  const int rounds[] = {0, 1, 2, 4, 8};
  // bar = 2: the barrier's kernel with four 4-byte loads and stores a thread (n = 2^26);
  // bar = 3: four 4-byte loads, one uint4 store; bar = 4: one uint4 load, four stores
  for (int bar = 4; bar >= 0; --bar) {
    if (bar >= 2 && lg != 26) continue;
    for (int R : rounds) {
      if (R == 0 && bar == 0) continue;  // the copy: one row
      if (bar == 2 && R > 2) continue;
      if (bar > 2 && R > 1) continue;
      Row r;
      r.family = "phase";
      r.name = bar == 4   ? (R == 0 ? "copy4s" : "bar4s")
               : bar == 3 ? (R == 0 ? "copy4l" : "bar4l")
               : bar == 2 ? (R == 0 ? "copy4" : "bar4")
               : R == 0   ? "copy"
                          : (bar ? "bar" : "warp");
      r.params = "n=2^" + std::to_string(lg) + " block=" + std::to_string(BS) +
                 " R=" + std::to_string(R);
      auto k = bar == 4   ? k_phase<BS, true, true, false>
               : bar == 3 ? k_phase<BS, true, false, true>
               : bar == 2 ? k_phase<BS, true, false, false>
               : bar      ? k_phase<BS, true, true, true>
                          : k_phase<BS, false, true, true>;
      row_shape(r, k, dim3(grid), dim3(BS), 0);
      r.t = time_case(b, 7, true, [&] { k<<<grid, BS, 0, b.stream>>>(in, out, R, 0); });
      r.bytes = (unsigned long long)n4 * 32;
      r.flops = 0;
      // check a few threads of a few blocks against the host
      std::vector<uint4> o(BS);
      const int blks[3] = {0, grid / 2, grid - 1};
      for (int q = 0; q < 3; ++q) {
        const size_t base4 = (size_t)blks[q] * BS;
        CK(cudaMemcpy(o.data(), out + base4, BS * sizeof(uint4), cudaMemcpyDeviceToHost));
        for (int t = 0; t < BS; t += BS / 4 + 3) {
          const unsigned x = host_x(h, base4, BS, t, R, bar != 0);
          const unsigned *p = &h[(base4 + t) * 4];
          REQUIRE(o[t].x == p[0] + x && o[t].w == p[3] + x,
                  "phase %s %s: block %d thread %d got %u want %u", r.name.c_str(),
                  r.params.c_str(), blks[q], t, o[t].x, p[0] + x);
        }
      }
      emit(b, r);
    }
  }
}

template <int BS, int MODE>
static void run_tail(Bench &b, const uint4 *in, uint4 *out, const std::vector<unsigned> &h) {
  const size_t n4 = (size_t)1 << 24;
  const int grid = (int)(n4 / BS);
  const char *names[4] = {"", "tail_pred", "tail_w0", "tail_lds"};
  Row r;
  r.family = "phase";
  r.name = names[MODE];
  r.params = "n=2^26 block=" + std::to_string(BS) + " R=1";
  row_shape(r, k_tail<BS, MODE>, dim3(grid), dim3(BS), 0);
  r.t = time_case(b, 7, true,
                  [&] { k_tail<BS, MODE><<<grid, BS, 0, b.stream>>>(in, out, 1, 0, n4 * 4); });
  r.bytes = (unsigned long long)n4 * 32;
  r.flops = 0;
  std::vector<uint4> o(BS);
  const size_t base4 = (size_t)(grid / 2) * BS;
  CK(cudaMemcpy(o.data(), out + base4, BS * sizeof(uint4), cudaMemcpyDeviceToHost));
  for (int t = 0; t < BS; t += 37) {
    const unsigned x = host_x(h, base4, BS, t, 1, true);
    const unsigned *p = &h[(base4 + t) * 4];
    REQUIRE(o[t].x == p[0] + x && o[t].w == p[3] + x, "phase %s %s: thread %d got %u want %u",
            r.name.c_str(), r.params.c_str(), t, o[t].x, p[0] + x);
  }
  emit(b, r);
}

int main(int argc, char **argv) {
  Bench b;
  bench_open_args(b, argc, argv);
  const size_t maxn = (size_t)1 << 26;
  std::vector<unsigned> h(maxn);
  for (size_t i = 0; i < maxn; ++i) h[i] = hash32((unsigned)i) & 0xffffu;
  uint4 *in, *out;
  CK(cudaMalloc(&in, maxn * 4));
  CK(cudaMalloc(&out, maxn * 4));
  CK(cudaMemcpy(in, h.data(), maxn * 4, cudaMemcpyHostToDevice));
  for (int lg : {24, 26}) {
    run_bs<128>(b, in, out, h, lg);
    run_bs<256>(b, in, out, h, lg);
    run_bs<512>(b, in, out, h, lg);
    run_bs<1024>(b, in, out, h, lg);
  }
  run_tail<256, 1>(b, in, out, h);
  run_tail<256, 2>(b, in, out, h);
  run_tail<256, 3>(b, in, out, h);
  run_tail<1024, 1>(b, in, out, h);
  run_tail<1024, 2>(b, in, out, h);
  run_tail<1024, 3>(b, in, out, h);
  CK(cudaFree(in));
  CK(cudaFree(out));
  bench_close(b);
  return 0;
}
