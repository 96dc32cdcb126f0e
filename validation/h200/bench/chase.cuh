// chase.cuh - the pointer chase of bench_chase and bench_spread: 64-bit pointers
// through one random cycle of a buffer's nodes, followed with ld.global.ca by the
// first L lanes of every warp, timed by clock64 per thread and %globaltimer per block.
#pragma once
#include "common.cuh"

typedef unsigned long long u64;

__device__ __forceinline__ u64 load_ca(u64 p) {
  u64 v;
  asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

// Build the chain on the device: node order[k] points to node order[k + 1].
__global__ void k_link(u64 *buf, const unsigned *order, size_t nodes, unsigned words) {
  size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (; k < nodes; k += stride) {
    size_t from = order[k], to = order[(k + 1) % nodes];
    buf[from * words] = (u64)(buf + to * words);
  }
}

// The chase. start[t] is the first node's address of thread t (block-major,
// 32 * W per block); out[t] the last address, cyc[t] the clock64 cycles of the
// timed hops, ns[block] the globaltimer span of thread 0 (for the SM clock).
__global__ void k_chase(const u64 *start, int L, int warm, int hops, u64 *out, long long *cyc,
                        u64 *ns_span, long long *cyc_span) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) >= (unsigned)L) return;
  u64 p = start[t];
  long long a0 = clk();
  u64 g0 = gtimer();
  for (int i = 0; i < warm; ++i) p = load_ca(p);
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i) p = load_ca(p);
  long long t1 = clk();
  u64 g1 = gtimer();
  out[t] = p;
  cyc[t] = t1 - t0;
  if (threadIdx.x == 0) {
    ns_span[blockIdx.x] = g1 - g0;
    cyc_span[blockIdx.x] = t1 - a0;
  }
}

// xorshift64* (host): a fixed-seed random stream for the cycles.
static u64 rng_state = 0x9e3779b97f4a7c15ull;
static u64 rng() {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 2685821657736338717ull;
}

struct Chain {
  size_t nodes = 0, node_bytes = 0;
  std::vector<unsigned> order;  // order[k]: the node at position k of the cycle
};

// A random cycle through `nodes` nodes of `node_bytes` each, linked on the device.
static void make_chain(Chain &c, u64 *buf, unsigned *d_order, size_t nodes, size_t node_bytes) {
  c.nodes = nodes;
  c.node_bytes = node_bytes;
  c.order.resize(nodes);
  for (size_t i = 0; i < nodes; ++i) c.order[i] = (unsigned)i;
  for (size_t i = nodes - 1; i > 0; --i) std::swap(c.order[i], c.order[rng() % (i + 1)]);
  CK(cudaMemcpy(d_order, c.order.data(), nodes * 4, cudaMemcpyHostToDevice));
  k_link<<<1024, 256>>>(buf, d_order, nodes, (unsigned)(node_bytes / 8));
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
}

static std::string fp_name(size_t f) {
  if (f >= (size_t(1) << 30)) return std::to_string(f >> 30) + "G";
  if (f >= (size_t(1) << 20)) return std::to_string(f >> 20) + "M";
  return std::to_string(f >> 10) + "K";
}

