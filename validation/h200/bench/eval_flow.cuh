// eval_flow.cuh - evaluation families of control and composition: scans, a
// radix-sort pass, reductions, multi-kernel pipelines, streams, CUDA graphs,
// elementwise kernels and barrier-heavy loops. Included by bench_eval.cu only.

// ---------------------------------------------------------------- scan

// Inclusive scan of each tile of 4*BS elements: thread t owns elements base + 4t .. +3
// (base = blockIdx.x * 4 * BS), scans them, then a warp-shuffle scan of thread totals
// and of warp totals. Writes the tile's total to sums[blockIdx.x] when sums != 0.
template <int BS>
__global__ void __launch_bounds__(BS) k_scan_block(const unsigned *in, unsigned *out,
                                                   unsigned *sums, size_t n) {
  __shared__ unsigned ws[BS / 32];
  size_t base = (size_t)blockIdx.x * BS * 4 + threadIdx.x * 4;
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned v[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) v[i] = base + i < n ? in[base + i] : 0u;
#pragma unroll
  for (int i = 1; i < 4; ++i) v[i] += v[i - 1];
  unsigned t = v[3], x = t;
  for (int o = 1; o < 32; o <<= 1) {
    unsigned y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  if (lane == 31) ws[w] = x;
  __syncthreads();
  if (w == 0) {
    unsigned s = lane < BS / 32 ? ws[lane] : 0u;
    for (int o = 1; o < 32; o <<= 1) {
      unsigned y = __shfl_up_sync(0xffffffffu, s, o);
      if (lane >= o) s += y;
    }
    if (lane < BS / 32) ws[lane] = s;
  }
  __syncthreads();
  unsigned excl = x - t + (w ? ws[w - 1] : 0u);
#pragma unroll
  for (int i = 0; i < 4; ++i)
    if (base + i < n) out[base + i] = v[i] + excl;
  if (sums && threadIdx.x == BS - 1) sums[blockIdx.x] = ws[BS / 32 - 1];
}

// Adds the scanned total of the previous tiles: out[i] += sums[i / tile - 1] (tile > 0).
__global__ void k_scan_add(unsigned *out, const unsigned *__restrict__ sums, size_t n,
                           size_t tile) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n && i >= tile) out[i] += sums[i / tile - 1];
}

// Multi-kernel full inclusive scan: tile scans writing tile totals to tmp, the totals
// scanned recursively (in place), then added back. Returns the blocks launched.
template <int BS>
static long long scan_full(const unsigned *in, unsigned *out, size_t n, unsigned *tmp,
                           cudaStream_t s) {
  size_t tile = 4 * BS, nb = (n + tile - 1) / tile;
  k_scan_block<BS><<<unsigned(nb), BS, 0, s>>>(in, out, nb > 1 ? tmp : nullptr, n);
  long long blocks = (long long)nb;
  if (nb > 1) {
    blocks += scan_full<BS>(tmp, tmp, nb, tmp + nb, s);
    k_scan_add<<<cdiv(n, 256), 256, 0, s>>>(out, tmp, n, tile);
    blocks += cdiv(n, 256);
  }
  return blocks;
}

// Inclusive prefix of p[i] = i & 3 (mod 2^32): m = i + 1 elements.
static unsigned and3_prefix(size_t i) {
  size_t m = i + 1;
  static const unsigned part[4] = {0, 0, 1, 3};
  return unsigned(6 * (m / 4) + part[m % 4]);
}

static void fam_scan(Eval &e) {
  for (int full = 0; full < 2; ++full) {
    for (int lg : {16, 20, 24, 26}) {
      size_t n = size_t(1) << lg;
      for (int bs : {256, 1024}) {
        const char *nm = full ? "full_multi_kernel" : "block_scan";
        std::string ps = "n=" + p2(lg) + " u32 block=" + std::to_string(bs) + " 4 per thread";
        if (!want(e, "scan", nm, ps)) continue;
        unsigned *in = e.u(0), *out = e.u(1), *tmp = e.u(2);
        fill_and3(in, n);
        size_t tile = 4 * bs;
        auto chk = [&] {
          size_t count = 512, step = n / count;
          std::vector<unsigned> h = pull(out, 7, step, count);
          for (size_t k = 0; k < count; ++k) {
            size_t i = 7 + k * step;
            size_t t0 = i / tile * tile;
            unsigned w = full ? and3_prefix(i) : and3_prefix(i) - (t0 ? and3_prefix(t0 - 1) : 0u);
            REQUIRE(h[k] == w, "scan %s %s: out[%zu] = %u, expected %u", nm, ps.c_str(), i, h[k], w);
          }
        };
        unsigned nb = cdiv(n, tile);
        if (!full) {
          auto go = [&](auto kern) {
            row1(e, "scan", nm, ps, kern, dim3(nb), dim3(bs), 0, 7, true,
                 [&] { kern<<<nb, bs, 0, e.b.stream>>>(in, out, nullptr, n); }, 8ull * n, n, chk);
          };
          if (bs == 256) go(k_scan_block<256>);
          else go(k_scan_block<1024>);
        } else {
          long long blocks = bs == 256 ? scan_full<256>(in, out, n, tmp, e.b.stream)
                                       : scan_full<1024>(in, out, n, tmp, e.b.stream);
          CK(cudaDeviceSynchronize());
          auto launch = [&] {
            if (bs == 256) scan_full<256>(in, out, n, tmp, e.b.stream);
            else scan_full<1024>(in, out, n, tmp, e.b.stream);
          };
          if (bs == 256)
            rowN(e, "scan", nm, ps, k_scan_block<256>, blocks, dim3(bs), 0, 7, true, launch,
                 16ull * n, 2ull * n, chk);
          else
            rowN(e, "scan", nm, ps, k_scan_block<1024>, blocks, dim3(bs), 0, 7, true, launch,
                 16ull * n, 2ull * n, chk);
        }
      }
    }
  }
}

// ---------------------------------------------------------------- radix

static const int kRadixItems = 8;  // keys per thread; tile = 256 * 8 = 2048 keys per block

// Digit histogram per block: counts[d * nblocks + blockIdx.x] (digit-major).
template <int BITS>
__global__ void k_radix_hist(const unsigned *__restrict__ keys, size_t n, int shift,
                             unsigned *counts) {
  const int B = 1 << BITS;
  __shared__ unsigned c[B];
  for (int d = threadIdx.x; d < B; d += blockDim.x) c[d] = 0;
  __syncthreads();
  size_t base = (size_t)blockIdx.x * 256 * kRadixItems;
  for (int k = 0; k < kRadixItems; ++k) {
    size_t i = base + k * 256 + threadIdx.x;
    if (i < n) atomicAdd(&c[(keys[i] >> shift) & (B - 1)], 1u);
  }
  __syncthreads();
  for (int d = threadIdx.x; d < B; d += blockDim.x) counts[(size_t)d * gridDim.x + blockIdx.x] = c[d];
}

// Scatter: key goes to (exclusive offset of its digit in this block) + its rank among the
// block's keys of that digit (taken with a shared atomic: not stable within a block).
template <int BITS>
__global__ void k_radix_scatter(const unsigned *__restrict__ keys, size_t n, int shift,
                                const unsigned *__restrict__ counts,
                                const unsigned *__restrict__ incl, unsigned *out) {
  const int B = 1 << BITS;
  __shared__ unsigned off[B], c[B];
  for (int d = threadIdx.x; d < B; d += blockDim.x) {
    size_t o = (size_t)d * gridDim.x + blockIdx.x;
    off[d] = incl[o] - counts[o];
    c[d] = 0;
  }
  __syncthreads();
  size_t base = (size_t)blockIdx.x * 256 * kRadixItems;
  for (int k = 0; k < kRadixItems; ++k) {
    size_t i = base + k * 256 + threadIdx.x;
    if (i < n) {
      unsigned key = keys[i], d = (key >> shift) & (B - 1);
      out[off[d] + atomicAdd(&c[d], 1u)] = key;
    }
  }
}

__global__ void k_radix_keys(unsigned *keys, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    keys[i] = hash32(unsigned(i) + 0xabcdu);
}

template <int BITS>
static void radix_rows(Eval &e, int lg) {
  const int B = 1 << BITS;
  size_t n = size_t(1) << lg;
  unsigned nb = cdiv(n, 256 * kRadixItems);
  size_t ncnt = (size_t)B * nb;
  unsigned *keys = e.u(0), *out = e.u(1), *counts = e.u(2), *incl = e.u(3), *tmp = e.u(4);
  std::vector<unsigned> ref;
  auto setup = [&] {
    if (!ref.empty()) return;
    k_radix_keys<<<4096, 256>>>(keys, n);
    CK_LAUNCH();
    CK(cudaDeviceSynchronize());
    ref.assign(B, 0);
    for (size_t i = 0; i < n; ++i) ++ref[hash32(unsigned(i) + 0xabcdu) & (B - 1)];
  };
  auto check_counts = [&](const char *what) {
    std::vector<unsigned> h = pull(counts, 0, 1, ncnt);
    for (int d = 0; d < B; ++d) {
      unsigned long long s = 0;
      for (unsigned b = 0; b < nb; ++b) s += h[(size_t)d * nb + b];
      REQUIRE(s == ref[d], "radix %s: digit %d counted %llu, expected %u", what, d, s, ref[d]);
    }
  };
  std::string ps = "n=" + p2(lg) + " bits=" + std::to_string(BITS) + " block=256 8 per thread";
  if (want(e, "radix", "histogram", ps)) {
    setup();
    row1(e, "radix", "histogram", ps, k_radix_hist<BITS>, dim3(nb), dim3(256), 0, 7, true,
         [&] { k_radix_hist<BITS><<<nb, 256, 0, e.b.stream>>>(keys, n, 0, counts); }, 4ull * n +
         4ull * ncnt, 0, [&] { check_counts("histogram"); });
  }
  if (want(e, "radix", "pass_hist_scan_scatter", ps)) {
    setup();
    auto launch = [&] {
      k_radix_hist<BITS><<<nb, 256, 0, e.b.stream>>>(keys, n, 0, counts);
      scan_full<256>(counts, incl, ncnt, tmp, e.b.stream);
      k_radix_scatter<BITS><<<nb, 256, 0, e.b.stream>>>(keys, n, 0, counts, incl, out);
    };
    long long blocks = 2ll * nb + scan_full<256>(counts, incl, ncnt, tmp, e.b.stream);
    CK(cudaDeviceSynchronize());
    rowN(e, "radix", "pass_hist_scan_scatter", ps, k_radix_scatter<BITS>, blocks, dim3(256), 0, 7,
         true, launch, 8ull * n + 16ull * ncnt, 0, [&] {
           std::vector<unsigned> h = pull(out, 0, 1, n);
           unsigned long long sum_in = 0, sum_out = 0;
           for (size_t i = 0; i < n; ++i) {
             sum_in += hash32(unsigned(i) + 0xabcdu);
             sum_out += h[i];
             if (i) REQUIRE((h[i - 1] & (B - 1)) <= (h[i] & (B - 1)),
                            "radix pass: digit order broken at %zu", i);
           }
           REQUIRE(sum_in == sum_out, "radix pass: keys lost (sum %llu vs %llu)", sum_out, sum_in);
         });
  }
}

static void fam_radix(Eval &e) {
  for (int lg : {20, 22, 24}) {
    radix_rows<4>(e, lg);
    radix_rows<8>(e, lg);
  }
}

// ---------------------------------------------------------------- reduce

// One global atomicAdd per element.
__global__ void k_red_atomic_elem(const unsigned *__restrict__ in, size_t n, unsigned *sum) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(sum, in[i]);
}

// Grid-stride sum per thread, one global atomicAdd per thread.
__global__ void k_red_atomic_thread(const unsigned *__restrict__ in, size_t n, unsigned *sum) {
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    s += in[i];
  atomicAdd(sum, s);
}

// Pass 1 of the two-pass reduction: each thread adds 2 elements (i and i + BS of the
// block's 2*BS), then a shared-memory tree; part[blockIdx.x] = block sum.
template <int BS>
__global__ void k_red_tree(const unsigned *__restrict__ in, size_t n, unsigned *part) {
  __shared__ unsigned s[BS];
  size_t i = (size_t)blockIdx.x * 2 * BS + threadIdx.x;
  unsigned v = i < n ? in[i] : 0u;
  if (i + BS < n) v += in[i + BS];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int o = BS / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) part[blockIdx.x] = s[0];
}

// Pass 2: one block of BS threads sums m partials (strided loop + tree).
template <int BS>
__global__ void k_red_final(const unsigned *__restrict__ part, size_t m, unsigned *sum) {
  __shared__ unsigned s[BS];
  unsigned v = 0;
  for (size_t i = threadIdx.x; i < m; i += BS) v += part[i];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int o = BS / 2; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) *sum = s[0];
}

// Grid-stride sum, warp shuffle, warp totals in shared, warp 0 shuffles, one atomic per block.
__global__ void k_red_shfl(const unsigned *__restrict__ in, size_t n, unsigned *sum) {
  __shared__ unsigned ws[32];
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    s += in[i];
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0) ws[w] = s;
  __syncthreads();
  if (w == 0) {
    s = lane < (int)(blockDim.x >> 5) ? ws[lane] : 0u;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if (lane == 0) atomicAdd(sum, s);
  }
}

static void fam_reduce(Eval &e) {
  unsigned *in = e.u(0), *part = e.u(1), *sum = e.u(2);
  bool filled = false;
  auto fill = [&] {
    if (!filled) fill_and3(in, size_t(1) << 27);
    filled = true;
  };
  auto chk = [&](size_t n, const char *what) {
    return [=] {
      unsigned got = pull1(sum, 0), w = and3_prefix(n - 1);
      REQUIRE(got == w, "reduce %s n=%zu: sum %u, expected %u", what, n, got, w);
    };
  };
  auto zero = [&] { CK(cudaMemsetAsync(sum, 0, 4, e.b.stream)); };
  for (int lg : {16, 20}) {
    size_t n = size_t(1) << lg;
    std::string ps = "n=" + p2(lg) + " u32 block=256";
    if (!want(e, "reduce", "atomic_per_element", ps)) continue;
    fill();
    unsigned g = cdiv(n, 256);
    row1(e, "reduce", "atomic_per_element", ps, k_red_atomic_elem, dim3(g), dim3(256), 0, 7, true,
         [&] { k_red_atomic_elem<<<g, 256, 0, e.b.stream>>>(in, n, sum); }, 4ull * n, 0,
         chk(n, "atomic_per_element"), zero);
  }
  for (int lg : {20, 24, 27}) {
    size_t n = size_t(1) << lg;
    unsigned g = e.list ? 0 : e.b.sm_count * 8;
    std::string ps = "n=" + p2(lg) + " u32 grid=8xSMs block=256";
    if (!want(e, "reduce", "atomic_per_thread", ps)) continue;
    fill();
    row1(e, "reduce", "atomic_per_thread", ps, k_red_atomic_thread, dim3(g), dim3(256), 0, 7, true,
         [&] { k_red_atomic_thread<<<g, 256, 0, e.b.stream>>>(in, n, sum); }, 4ull * n, 0,
         chk(n, "atomic_per_thread"), zero);
  }
  for (int lg : {20, 24, 27}) {
    size_t n = size_t(1) << lg;
    for (int bs : {256, 512}) {
      std::string ps = "n=" + p2(lg) + " u32 block=" + std::to_string(bs) + " 2 kernels";
      if (!want(e, "reduce", "two_pass_tree", ps)) continue;
      fill();
      unsigned g = cdiv(n, 2 * bs);
      if (bs == 256)
        rowN(e, "reduce", "two_pass_tree", ps, k_red_tree<256>, g + 1, dim3(bs), 0, 7, true,
             [&] {
               k_red_tree<256><<<g, 256, 0, e.b.stream>>>(in, n, part);
               k_red_final<256><<<1, 256, 0, e.b.stream>>>(part, g, sum);
             },
             4ull * n, 0, chk(n, "two_pass_tree"));
      else
        rowN(e, "reduce", "two_pass_tree", ps, k_red_tree<512>, g + 1, dim3(bs), 0, 7, true,
             [&] {
               k_red_tree<512><<<g, 512, 0, e.b.stream>>>(in, n, part);
               k_red_final<512><<<1, 512, 0, e.b.stream>>>(part, g, sum);
             },
             4ull * n, 0, chk(n, "two_pass_tree"));
    }
  }
  for (int lg : {20, 24, 27}) {
    size_t n = size_t(1) << lg;
    for (int bs : {256, 1024}) {
      unsigned g = e.list ? 0 : e.b.sm_count * (2048 / bs);
      std::string ps = "n=" + p2(lg) + " u32 grid=full occupancy block=" + std::to_string(bs);
      if (!want(e, "reduce", "warp_shuffle", ps)) continue;
      fill();
      row1(e, "reduce", "warp_shuffle", ps, k_red_shfl, dim3(g), dim3(bs), 0, 7, true,
           [&] { k_red_shfl<<<g, bs, 0, e.b.stream>>>(in, n, sum); }, 4ull * n, 0,
           chk(n, "warp_shuffle"), zero);
    }
  }
}

// ---------------------------------------------------------------- pipeline

// Producer: b[i] = a[i] + 1 (u32).
__global__ void k_pipe_produce(const unsigned *__restrict__ a, unsigned *__restrict__ b, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] + 1u;
}

// Consumer: sums b (uint4 loads, grid-stride), warp shuffle, one atomic per warp.
__global__ void k_pipe_consume(const uint4 *__restrict__ b, size_t n4, unsigned *sum) {
  unsigned s = 0;
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
       i += (size_t)gridDim.x * blockDim.x) {
    uint4 v = b[i];
    s += v.x + v.y + v.z + v.w;
  }
  for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, s);
}

static void fam_pipeline(Eval &e) {
  // Separable convolution, rows then columns (tmp stays between the two kernels).
  for (int n : {1024, 4096, 8192}) {
    std::string ps = "n=" + std::to_string(n) + " K=9 block=32x8 2 kernels";
    if (!want(e, "pipeline", "conv_rows_then_cols", ps)) continue;
    size_t px = (size_t)n * n;
    fill_small(e.f(0), px, 14);
    set_filter();
    float *tmp = e.f(1), *out = e.f(2);
    dim3 g(n / 32, n / 8), bl(32, 8);
    rowN(e, "pipeline", "conv_rows_then_cols", ps, k_conv_rows, 2ll * g.x * g.y, bl, 0, 7, true,
         [&] {
           k_conv_rows<<<g, bl, 0, e.b.stream>>>(e.f(0), tmp, n);
           k_conv_cols<<<g, bl, 0, e.b.stream>>>(tmp, out, n);
         },
         16ull * px, 36ull * px, [&] {
           check_f("pipeline conv", out, px, [&](size_t i) {
             long x = i % n, y = i / n;
             double s = 0;
             for (long k = 0; k < kSepK; ++k) {
               long yy = std::min(std::max(y + k - kSepK / 2, 0L), (long)n - 1);
               s += filt_w(int(k)) * sep_want(yy * n + x, n, true, 14);
             }
             return s;
           }, 1e-5);
         });
  }
  // Producer then consumer over a buffer of S MiB: both timed (cold start); the consumer
  // alone right after the producer (untimed) left b in L2 (warm); the consumer alone
  // with the L2 flushed between (cold).
  unsigned *a = e.u(0), *bb = e.u(1), *sum = e.u(2);
  for (int mib : {16, 48, 64, 256}) {
    size_t n = (size_t(mib) << 20) / 4, n4 = n / 4;
    unsigned gp = cdiv(n, 256), gc = e.list ? 0 : e.b.sm_count * 8;
    std::string ps = "buffer=" + std::to_string(mib) + "MiB u32";
    auto chk = [&] {
      unsigned got = pull1(sum, 0);
      unsigned w = and3_prefix(n - 1) + unsigned(n);
      REQUIRE(got == w, "pipeline %s: sum %u, expected %u", ps.c_str(), got, w);
    };
    auto produce = [&] { k_pipe_produce<<<gp, 256, 0, e.b.stream>>>(a, bb, n); };
    auto consume = [&] { k_pipe_consume<<<gc, 256, 0, e.b.stream>>>((const uint4 *)bb, n4, sum); };
    auto zero = [&] { CK(cudaMemsetAsync(sum, 0, 4, e.b.stream)); };
    if (want(e, "pipeline", "produce_consume", ps + " 2 kernels cold")) {
      fill_and3(a, n);
      rowN(e, "pipeline", "produce_consume", ps + " 2 kernels cold", k_pipe_consume,
           (long long)gp + gc, dim3(256), 0, 7, true, [&] { produce(); consume(); }, 12ull * n, 0,
           chk, zero);
    }
    if (want(e, "pipeline", "consume_after_produce_warm", ps + " L2 left by producer")) {
      fill_and3(a, n);
      row1(e, "pipeline", "consume_after_produce_warm", ps + " L2 left by producer",
           k_pipe_consume, dim3(gc), dim3(256), 0, 7, false, consume, 4ull * n, 0, chk, [&] {
             zero();
             flush_l2(e.b);
             produce();
           });
    }
    if (want(e, "pipeline", "consume_after_produce_cold", ps + " L2 flushed after producer")) {
      fill_and3(a, n);
      row1(e, "pipeline", "consume_after_produce_cold", ps + " L2 flushed after producer",
           k_pipe_consume, dim3(gc), dim3(256), 0, 7, true, consume, 4ull * n, 0, chk, [&] {
             zero();
             produce();
           });
    }
  }
}

// ---------------------------------------------------------------- streams

// Compute-bound: 4 Horner chains of x = x*t + c per step; dynamic shared memory only pins
// the blocks per SM.
__global__ void k_poly(float *out, int iters, float t, float c) {
  extern __shared__ float pad[];
  float x0 = threadIdx.x * 1e-3f, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3;
  for (int k = 0; k < iters; ++k) {
    x0 = x0 * t + c;
    x1 = x1 * t + c;
    x2 = x2 * t + c;
    x3 = x3 * t + c;
  }
  float s = x0 + x1 + x2 + x3;
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
  if (s == -1.0f) pad[0] = s;
}

// Memory-bound: a = b + s * c.
__global__ void k_axpby(float *__restrict__ a, const float *__restrict__ b,
                        const float *__restrict__ c, float s, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

static void fam_streams(Eval &e) {
  if (!fam_on(e, "streams")) return;
  cudaStream_t st[4] = {};
  cudaEvent_t fork = nullptr, join[4] = {};
  if (!e.list) {
    for (int k = 0; k < 4; ++k) {
      CK(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
      CK(cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming));
    }
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  }
  // Run kernels 0..m-1 either in b.stream one after another or one per stream.
  auto run = [&](int m, bool par, const std::function<void(int, cudaStream_t)> &k) {
    if (!par) {
      for (int j = 0; j < m; ++j) k(j, e.b.stream);
      return;
    }
    CK(cudaEventRecord(fork, e.b.stream));
    for (int j = 0; j < m; ++j) {
      CK(cudaStreamWaitEvent(st[j], fork, 0));
      k(j, st[j]);
      CK(cudaEventRecord(join[j], st[j]));
    }
    for (int j = 0; j < m; ++j) CK(cudaStreamWaitEvent(e.b.stream, join[j], 0));
  };
  const int iters = 65536;
  const float pt = 0.999f, pc = 1e-3f;
  struct Kind { const char *name; int lg; } kinds[] = {{"poly_quarter_gpu", 0},
                                                      {"axpby_16MiB", 22},
                                                      {"axpby_128MiB", 25}};
  size_t dyn = e.list ? 0 : dyn_smem_for_bpsm(e.b.prop, 1);
  if (!e.list) allow_dyn_smem(k_poly, dyn);
  int quarter = e.list ? 0 : e.b.sm_count / 4;
  for (const Kind &kd : kinds) {
    bool poly = kd.lg == 0;
    size_t n = size_t(1) << kd.lg;
    // kernel j: poly writes e.f(7) + j * 2^20; axpby j uses a = buf j, b = buf 4, c = buf 5
    // at offset j * n (each kernel its own arrays).
    auto k = [&](int j, cudaStream_t s) {
      if (poly)
        k_poly<<<quarter, 256, dyn, s>>>(e.f(7) + ((size_t)j << 20), iters, pt, pc);
      else
        k_axpby<<<cdiv(n, 256), 256, 0, s>>>(e.f(j), e.f(4) + j * n, e.f(5) + j * n, 2.0f, n);
    };
    struct Mode { int m; bool par; } modes[] = {{1, false}, {4, false}, {2, true}, {3, true},
                                                {4, true}};
    bool ready = false;
    for (Mode md : modes) {
      std::string nm = std::string(kd.name) + (md.par ? "_streams" : "_serial");
      std::string ps = "kernels=" + std::to_string(md.m) + (poly ? " 33x256 1bpsm iters=65536"
                                                                   : " n=" + p2(kd.lg) + " block=256");
      if (!want(e, "streams", nm, ps)) continue;
      if (!ready && !poly) {
        fill_small(e.f(4), 4 * n, 101);
        fill_small(e.f(5), 4 * n, 102);
      }
      ready = true;
      auto chk = [&] {
        for (int j = 0; j < md.m; ++j) {
          if (poly) {
            float got = pull1(e.f(7), ((size_t)j << 20) + 5), x[4];
            for (int q = 0; q < 4; ++q) x[q] = 5 * 1e-3f + q;
            for (int it = 0; it < iters; ++it)
              for (int q = 0; q < 4; ++q) x[q] = fmaf(x[q], pt, pc);
            float w = x[0] + x[1] + x[2] + x[3];
            REQUIRE(fabsf(got - w) <= 1e-4f * (1 + fabsf(w)), "streams poly: got %g want %g", got, w);
          } else {
            check_f("streams axpby", e.f(j), n, [&](size_t i) {
              return fval(j * n + i, 101) + 2.0 * fval(j * n + i, 102);
            }, 0);
          }
        }
      };
      if (poly) {
        rowN(e, "streams", nm, ps, k_poly, (long long)md.m * quarter, dim3(256), dyn, 7, false,
             [&] { run(md.m, md.par, k); }, 0, 8ull * md.m * quarter * 256 * iters, chk);
      } else {
        rowN(e, "streams", nm, ps, k_axpby, (long long)md.m * cdiv(n, 256), dim3(256), 0, 7, true,
             [&] { run(md.m, md.par, k); }, 12ull * n * md.m, 2ull * n * md.m, chk);
      }
    }
  }
  // Mixed: one poly kernel (quarter GPU) and one 128 MiB axpby, serial or in two streams.
  for (int par = 0; par < 2; ++par) {
    std::string nm = par ? "mixed_poly_axpby_streams" : "mixed_poly_axpby_serial";
    std::string ps = "poly 33x256 iters=65536 + axpby n=2^25";
    if (!want(e, "streams", nm, ps)) continue;
    size_t n = size_t(1) << 25;
    fill_small(e.f(4), n, 101);
    fill_small(e.f(5), n, 102);
    auto k = [&](int j, cudaStream_t s) {
      if (j == 0) k_poly<<<quarter, 256, dyn, s>>>(e.f(7), iters, pt, pc);
      else k_axpby<<<cdiv(n, 256), 256, 0, s>>>(e.f(0), e.f(4), e.f(5), 2.0f, n);
    };
    rowN(e, "streams", nm, ps, k_poly, (long long)quarter + cdiv(n, 256), dim3(256), dyn, 7, true,
         [&] { run(2, par, k); }, 12ull * n, 8ull * quarter * 256 * iters + 2ull * n, [&] {
           check_f("streams mixed", e.f(0), n,
                   [&](size_t i) { return fval(i, 101) + 2.0 * fval(i, 102); }, 0);
         });
  }
  if (!e.list) {
    for (int k = 0; k < 4; ++k) {
      CK(cudaStreamDestroy(st[k]));
      CK(cudaEventDestroy(join[k]));
    }
    CK(cudaEventDestroy(fork));
  }
}

// ---------------------------------------------------------------- graph

// Tiny kernel: thread 0 of block 0 adds 1 to p[slot].
__global__ void k_tiny(unsigned *p, int slot) {
  if (threadIdx.x == 0 && blockIdx.x == 0) p[slot] += 1u;
}

static void fam_graph(Eval &e) {
  if (!fam_on(e, "graph")) return;
  unsigned *cnt = e.u(0);
  cudaStream_t st[4] = {};
  cudaEvent_t fork = nullptr, join[4] = {};
  if (!e.list) {
    for (int k = 0; k < 4; ++k) {
      CK(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
      CK(cudaEventCreateWithFlags(&join[k], cudaEventDisableTiming));
    }
    CK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  }
  // Capture `body` (which enqueues on b.stream) into an executable graph.
  auto capture = [&](const std::function<void()> &body) {
    cudaGraph_t g;
    cudaGraphExec_t x;
    CK(cudaStreamBeginCapture(e.b.stream, cudaStreamCaptureModeThreadLocal));
    body();
    CK(cudaStreamEndCapture(e.b.stream, &g));
    CK(cudaGraphInstantiate(&x, g, 0));
    CK(cudaGraphDestroy(g));
    return x;
  };
  auto zero = [&] { CK(cudaMemsetAsync(cnt, 0, 16, e.b.stream)); };
  auto chk_count = [&](int slots, unsigned per) {
    return [=] {
      std::vector<unsigned> h = pull(cnt, 0, 1, slots);
      for (int s = 0; s < slots; ++s)
        REQUIRE(h[s] == per, "graph: counter %d = %u, expected %u", s, h[s], per);
    };
  };
  // N tiny launches in sequence, in the stream or as one graph.
  for (int N : {100, 1000}) {
    for (int gr = 0; gr < 2; ++gr) {
      std::string nm = gr ? "tiny_launches_graph" : "tiny_launches_stream";
      std::string ps = "launches=" + std::to_string(N) + " 1x32";
      if (!want(e, "graph", nm, ps)) continue;
      auto body = [&] {
        for (int i = 0; i < N; ++i) k_tiny<<<1, 32, 0, e.b.stream>>>(cnt, 0);
      };
      cudaGraphExec_t x = nullptr;
      if (gr) x = capture(body);
      rowN(e, "graph", nm, ps, k_tiny, N, dim3(32), 0, 7, false,
           [&] {
             if (gr) CK(cudaGraphLaunch(x, e.b.stream));
             else body();
           },
           0, 0, chk_count(1, N), zero);
      if (x) CK(cudaGraphExecDestroy(x));
    }
  }
  // Four independent chains of 250 tiny launches: four streams, or one graph of four branches.
  for (int gr = 0; gr < 2; ++gr) {
    std::string nm = gr ? "four_branches_graph" : "four_branches_streams";
    std::string ps = "launches=4x250 1x32";
    if (!want(e, "graph", nm, ps)) continue;
    auto body = [&] {
      CK(cudaEventRecord(fork, e.b.stream));
      for (int j = 0; j < 4; ++j) {
        CK(cudaStreamWaitEvent(st[j], fork, 0));
        for (int i = 0; i < 250; ++i) k_tiny<<<1, 32, 0, st[j]>>>(cnt, j);
        CK(cudaEventRecord(join[j], st[j]));
      }
      for (int j = 0; j < 4; ++j) CK(cudaStreamWaitEvent(e.b.stream, join[j], 0));
    };
    cudaGraphExec_t x = nullptr;
    if (gr) x = capture(body);
    rowN(e, "graph", nm, ps, k_tiny, 1000, dim3(32), 0, 7, false,
         [&] {
           if (gr) CK(cudaGraphLaunch(x, e.b.stream));
           else body();
         },
         0, 0, chk_count(4, 250), zero);
    if (x) CK(cudaGraphExecDestroy(x));
  }
  // Captured pipelines replayed: the full scan of 2^20 u32 (block 256) and the separable
  // convolution of a 1024 x 1024 image, each in the stream and as a graph.
  for (int gr = 0; gr < 2; ++gr) {
    std::string nm = gr ? "scan_pipeline_graph" : "scan_pipeline_stream";
    std::string ps = "n=2^20 u32 block=256";
    if (!want(e, "graph", nm, ps)) continue;
    size_t n = size_t(1) << 20;
    unsigned *in = e.u(1), *out = e.u(2), *tmp = e.u(3);
    fill_and3(in, n);
    auto body = [&] { scan_full<256>(in, out, n, tmp, e.b.stream); };
    long long blocks = scan_full<256>(in, out, n, tmp, e.b.stream);
    CK(cudaDeviceSynchronize());
    cudaGraphExec_t x = nullptr;
    if (gr) x = capture(body);
    rowN(e, "graph", nm, ps, k_scan_block<256>, blocks, dim3(256), 0, 7, false,
         [&] {
           if (gr) CK(cudaGraphLaunch(x, e.b.stream));
           else body();
         },
         8ull * n, 2ull * n, [&] {
           std::vector<unsigned> h = pull(out, 3, 4099, 255);
           for (size_t k = 0; k < 255; ++k)
             REQUIRE(h[k] == and3_prefix(3 + k * 4099), "graph scan: out[%zu] = %u", 3 + k * 4099,
                     h[k]);
         });
    if (x) CK(cudaGraphExecDestroy(x));
  }
  for (int gr = 0; gr < 2; ++gr) {
    std::string nm = gr ? "conv_pipeline_graph" : "conv_pipeline_stream";
    std::string ps = "n=1024 K=9 rows then cols";
    if (!want(e, "graph", nm, ps)) continue;
    const int n = 1024;
    fill_small(e.f(1), (size_t)n * n, 14);
    set_filter();
    dim3 g(n / 32, n / 8), bl(32, 8);
    auto body = [&] {
      k_conv_rows<<<g, bl, 0, e.b.stream>>>(e.f(1), e.f(2), n);
      k_conv_cols<<<g, bl, 0, e.b.stream>>>(e.f(2), e.f(3), n);
    };
    cudaGraphExec_t x = nullptr;
    if (gr) x = capture(body);
    rowN(e, "graph", nm, ps, k_conv_rows, 2ll * g.x * g.y, bl, 0, 7, false,
         [&] {
           if (gr) CK(cudaGraphLaunch(x, e.b.stream));
           else body();
         },
         16ull * n * n, 36ull * n * n, [&] {
           float got = pull1(e.f(3), (size_t)500 * n + 7);
           double s = 0;
           for (long k = 0; k < kSepK; ++k) s += filt_w(int(k)) * sep_want((496 + k) * n + 7, n, true, 14);
           REQUIRE(fabs(got - s) <= 1e-5 * (1 + fabs(s)), "graph conv: got %g want %g", got, s);
         });
    if (x) CK(cudaGraphExecDestroy(x));
  }
  if (!e.list) {
    for (int k = 0; k < 4; ++k) {
      CK(cudaStreamDestroy(st[k]));
      CK(cudaEventDestroy(join[k]));
    }
    CK(cudaEventDestroy(fork));
  }
}

// ---------------------------------------------------------------- elementwise

__global__ void k_vadd(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void k_vadd4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                        float4 *__restrict__ c, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

// GELU, tanh approximation: 0.5 x (1 + tanh(0.7978845608 (x + 0.044715 x^3))).
__global__ void k_gelu(const float *__restrict__ x, float *__restrict__ y, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

// Fused per-column scale and bias on a row-major matrix with `cols` columns:
// y[i] = x[i] * s[i % cols] + b[i % cols].
__global__ void k_scale_bias(const float *__restrict__ x, const float *__restrict__ s,
                             const float *__restrict__ b, float *__restrict__ y, size_t n,
                             int cols) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    int c = int(i % cols);
    y[i] = x[i] * s[c] + b[c];
  }
}

static void fam_elementwise(Eval &e) {
  const float *a = e.f(0), *b = e.f(1);
  float *c = e.f(2);
  bool filled = false;
  auto fill = [&] {
    if (filled) return;
    fill_small(e.f(0), size_t(1) << 28, 111);
    fill_small(e.f(1), size_t(1) << 28, 112);
    filled = true;
  };
  auto chk_add = [&](size_t n) {
    return [=] {
      check_f("vadd", c, n, [](size_t i) { return (double)fval(i, 111) + fval(i, 112); }, 0);
    };
  };
  for (int lg : {12, 16, 20, 24, 28}) {
    size_t n = size_t(1) << lg;
    std::string ps = "n=" + p2(lg) + " block=256";
    if (!want(e, "elementwise", "vadd_cold", ps)) continue;
    fill();
    unsigned g = cdiv(n, 256);
    row1(e, "elementwise", "vadd_cold", ps, k_vadd, dim3(g), dim3(256), 0, 7, true,
         [&] { k_vadd<<<g, 256, 0, e.b.stream>>>(a, b, c, n); }, 12ull * n, n, chk_add(n));
  }
  for (int lg : {16, 20, 22}) {
    size_t n = size_t(1) << lg;
    std::string ps = "n=" + p2(lg) + " block=256 no flush";
    if (!want(e, "elementwise", "vadd_warm", ps)) continue;
    fill();
    unsigned g = cdiv(n, 256);
    row1(e, "elementwise", "vadd_warm", ps, k_vadd, dim3(g), dim3(256), 0, 9, false,
         [&] { k_vadd<<<g, 256, 0, e.b.stream>>>(a, b, c, n); }, 12ull * n, n, chk_add(n));
  }
  for (int lg : {24, 28}) {
    size_t n = size_t(1) << lg;
    std::string ps = "n=" + p2(lg) + " float4 block=256";
    if (!want(e, "elementwise", "vadd_float4", ps)) continue;
    fill();
    unsigned g = cdiv(n / 4, 256);
    row1(e, "elementwise", "vadd_float4", ps, k_vadd4, dim3(g), dim3(256), 0, 7, true,
         [&] { k_vadd4<<<g, 256, 0, e.b.stream>>>((const float4 *)a, (const float4 *)b, (float4 *)c, n / 4); },
         12ull * n, n, chk_add(n));
  }
  for (int lg : {20, 24, 28}) {
    size_t n = size_t(1) << lg;
    std::string ps = "n=" + p2(lg) + " block=256";
    if (!want(e, "elementwise", "gelu_tanh", ps)) continue;
    fill();
    unsigned g = cdiv(n, 256);
    row1(e, "elementwise", "gelu_tanh", ps, k_gelu, dim3(g), dim3(256), 0, 7, true,
         [&] { k_gelu<<<g, 256, 0, e.b.stream>>>(a, c, n); }, 8ull * n, 8ull * n, [&] {
           check_f("gelu", c, n, [](size_t i) {
             double v = fval(i, 111);
             return 0.5 * v * (1 + tanh(0.7978845608 * (v + 0.044715 * v * v * v)));
           }, 1e-5);
         });
  }
  for (int lg : {20, 24, 28}) {
    size_t n = size_t(1) << lg;
    const int cols = 1024;
    std::string ps = "n=" + p2(lg) + " cols=1024 block=256";
    if (!want(e, "elementwise", "scale_bias", ps)) continue;
    fill();
    fill_small(e.f(3), cols, 113);
    fill_small(e.f(4), cols, 114);
    unsigned g = cdiv(n, 256);
    row1(e, "elementwise", "scale_bias", ps, k_scale_bias, dim3(g), dim3(256), 0, 7, true,
         [&] { k_scale_bias<<<g, 256, 0, e.b.stream>>>(a, e.f(3), e.f(4), c, n, cols); }, 8ull * n,
         2ull * n, [&] {
           check_f("scale_bias", c, n, [&](size_t i) {
             return (double)fval(i, 111) * fval(i % cols, 113) + fval(i % cols, 114);
           }, 0);
         });
  }
}

// ---------------------------------------------------------------- barrier

// One FMA and one __syncthreads() per step.
__global__ void k_bar_fma(float *out, int iters, float a, float b) {
  float x = threadIdx.x * 1e-3f;
  for (int k = 0; k < iters; ++k) {
    x = fmaf(x, a, b);
    __syncthreads();
  }
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = x;
}

// Neighbour exchange through shared memory: two barriers per step.
__global__ void k_bar_exchange(float *out, int iters) {
  extern __shared__ float s[];
  float x = threadIdx.x * 1e-3f;
  for (int k = 0; k < iters; ++k) {
    s[threadIdx.x] = x;
    __syncthreads();
    x = 0.5f * x + 0.25f * s[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = x;
}

static void fam_barrier(Eval &e) {
  const int iters = 4096;
  const float a = 0.9999f, bb = 1e-4f;
  float *out = e.f(0);
  for (int ex = 0; ex < 2; ++ex) {
    for (int bs : {64, 128, 256, 512, 1024}) {
      const char *nm = ex ? "smem_exchange_2_barriers" : "fma_1_barrier";
      unsigned g = e.list ? 0 : e.b.sm_count * (2048 / bs);
      std::string ps = "iters=4096 block=" + std::to_string(bs) + " grid=2048 threads per SM";
      if (!want(e, "barrier", nm, ps)) continue;
      size_t dyn = ex ? bs * sizeof(float) : 0;
      auto chk = [&] {
        std::vector<float> h = pull(out, 0, 1, bs);
        std::vector<float> x(bs), s(bs);
        for (int t = 0; t < bs; ++t) x[t] = t * 1e-3f;
        for (int k = 0; k < iters; ++k) {
          if (ex) {
            s = x;
            for (int t = 0; t < bs; ++t) x[t] = 0.5f * x[t] + 0.25f * s[(t + 1) % bs];
          } else {
            for (int t = 0; t < bs; ++t) x[t] = fmaf(x[t], a, bb);
          }
        }
        for (int t = 0; t < bs; ++t)
          REQUIRE(fabsf(h[t] - x[t]) <= 1e-5f * (1 + fabsf(x[t])),
                  "barrier %s: thread %d = %g, expected %g", nm, t, h[t], x[t]);
      };
      if (ex)
        row1(e, "barrier", nm, ps, k_bar_exchange, dim3(g), dim3(bs), dyn, 7, false,
             [&] { k_bar_exchange<<<g, bs, dyn, e.b.stream>>>(out, iters); }, 0,
             3ull * g * bs * iters, chk);
      else
        row1(e, "barrier", nm, ps, k_bar_fma, dim3(g), dim3(bs), 0, 7, false,
             [&] { k_bar_fma<<<g, bs, 0, e.b.stream>>>(out, iters, a, bb); }, 0,
             2ull * g * bs * iters, chk);
    }
  }
}
