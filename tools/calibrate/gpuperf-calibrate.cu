// gpuperf-calibrate - measures the GPU it runs on and writes a gpuperf device INI
// file (devices/NAME.ini schema) to stdout or to -o FILE. Progress goes to stderr.
//
// What it measures and how is documented in README.md beside this file. Values it
// cannot measure come from a small built-in table per compute capability and are
// marked as such in the file.
//
// usage: gpuperf-calibrate [-d DEVICE] [-o FILE] [--arch NAME]
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

// ---------------------------------------------------------------- errors

// Abort with file:line and the CUDA error string when a runtime call fails.
#define CK(call)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "gpuperf-calibrate: %s:%d: %s failed: %s\n", __FILE__,       \
              __LINE__, #call, cudaGetErrorString(e_));                            \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)
#define CK_LAUNCH() CK(cudaGetLastError())

typedef unsigned long long u64;

// ---------------------------------------------------------------- device helpers

// SM cycle counter.
__device__ __forceinline__ long long clk() {
  long long c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
  return c;
}

// Global nanosecond timer (coarse, but common to all SMs).
__device__ __forceinline__ u64 gtimer() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

// Index of the SM this thread runs on.
__device__ __forceinline__ unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Dependent 8-byte loads for pointer chasing: cached in L1 (.ca) or in L2 only (.cg).
__device__ __forceinline__ u64 load_ca(u64 p) {
  u64 v;
  asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ u64 load_cg(u64 p) {
  u64 v;
  asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

// ---------------------------------------------------------------- latency kernels

// One thread follows a pointer chain: `warm` untimed hops, then `hops` timed hops.
template <bool L2_ONLY>
__global__ void k_chase(u64 start, int warm, int hops, u64 *sink, long long *cycles) {
  u64 p = start;
  for (int i = 0; i < warm; ++i) p = L2_ONLY ? load_cg(p) : load_ca(p);
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i) p = L2_ONLY ? load_cg(p) : load_ca(p);
  long long t1 = clk();
  sink[0] = p;
  cycles[0] = t1 - t0;
}

// One thread chases through shared memory (each word holds the next word's address).
__global__ void k_smem_chase(int hops, unsigned *sink, long long *cycles) {
  const int n = 4096, step = 97;  // gcd(97, 4096) = 1: one cycle through all words
  __shared__ unsigned s[n];
  unsigned base = (unsigned)__cvta_generic_to_shared(s);
  for (int i = 0; i < n; ++i) s[i] = base + 4u * ((i + step) % n);
  __syncthreads();
  unsigned p = base;
  for (int i = 0; i < 64; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p)::"memory");
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(p)::"memory");
  long long t1 = clk();
  sink[0] = p;
  cycles[0] = t1 - t0;
}

// Constant-memory chain: each node holds the byte offset of the next node.
__constant__ unsigned c_chain[512];

// One thread chases through the constant cache (LDC with a register offset).
__global__ void k_const_chase(int hops, unsigned *sink, long long *cycles) {
  unsigned p = 0;
  for (int i = 0; i < 64; ++i) p = *(const unsigned *)((const char *)c_chain + p);
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i) p = *(const unsigned *)((const char *)c_chain + p);
  long long t1 = clk();
  sink[0] = p;
  cycles[0] = t1 - t0;
}

// Run-time operands of the instruction chains (kernel arguments: nothing folds).
struct OpArgs {
  float fa, fb;
  double da, db;
  unsigned ia, ib, ic;
  __half2 ha, hb;
  int num;  // numerator of the integer division chains (positive)
};

// Instruction classes: T is the register type, step() one dependent step, OPS the
// instructions per step, RESULTS the results per instruction per thread.
struct OpFp32 {
  typedef float T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1.0f + t * 1e-3f; }
  __device__ static T step(T x, const OpArgs &a) { return fmaf(x, a.fa, a.fb); }
  __device__ static float fold(T x) { return x; }
};
struct OpFp64 {
  typedef double T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1.0 + t * 1e-3; }
  __device__ static T step(T x, const OpArgs &a) { return fma(x, a.da, a.db); }
  __device__ static float fold(T x) { return (float)x; }
};
struct OpFp16 {
  typedef __half2 T;
  enum { OPS = 1, RESULTS = 2 };
  __device__ static T init(unsigned t) { return __floats2half2_rn(1.0f, 0.5f + (t & 7) * 0.01f); }
  __device__ static T step(T x, const OpArgs &a) { return __hfma2(x, a.ha, a.hb); }
  __device__ static float fold(T x) { return __low2float(x) + __high2float(x); }
};
struct OpInt32 {  // add then xor (two instructions that cannot fuse; VIADD + LOP3 on sm_90)
  typedef unsigned T;
  enum { OPS = 2, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("add.u32 %0, %0, %1;\n\txor.b32 %0, %0, %2;" : "+r"(x) : "r"(a.ib), "r"(a.ic));
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
struct OpImad {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(x) : "r"(a.ia), "r"(a.ib));
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
struct OpSfu {  // MUFU.RSQ
  typedef float T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 2.0f + t * 1e-3f; }
  __device__ static T step(T x, const OpArgs &) {
    asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
    return x;
  }
  __device__ static float fold(T x) { return x; }
};
struct OpCvt {  // F2I then I2F
  typedef float T;
  enum { OPS = 2, RESULTS = 1 };
  __device__ static T init(unsigned t) { return (float)(t + 3); }
  __device__ static T step(T x, const OpArgs &) {
    int i;
    asm volatile("cvt.rni.s32.f32 %0, %1;" : "=r"(i) : "f"(x));
    asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(x) : "r"(i));
    return x;
  }
  __device__ static float fold(T x) { return x; }
};
struct OpF2i {  // F2I only (the result's bits feed the next conversion)
  typedef float T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return (float)(t + 3); }
  __device__ static T step(T x, const OpArgs &) {
    int i;
    asm volatile("cvt.rni.s32.f32 %0, %1;" : "=r"(i) : "f"(x));
    return __int_as_float(i);
  }
  __device__ static float fold(T x) { return x; }
};
struct OpTensor {  // mma.sync m16n8k16 f16 -> f32, dependent through the accumulator
  struct T {
    float d[4];
  };
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) {
    T x;
    for (int i = 0; i < 4; ++i) x.d[i] = t * 1e-3f + i;
    return x;
  }
  __device__ static T step(T x, const OpArgs &a) {
#if __CUDA_ARCH__ >= 800
    unsigned ra = *(const unsigned *)&a.ha, rb = *(const unsigned *)&a.hb;
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};"
        : "+f"(x.d[0]), "+f"(x.d[1]), "+f"(x.d[2]), "+f"(x.d[3])
        : "r"(ra), "r"(rb), "r"(ra), "r"(rb), "r"(ra), "r"(rb));
#endif
    return x;
  }
  __device__ static float fold(T x) { return x.d[0] + x.d[1] + x.d[2] + x.d[3]; }
};

// ---------------------------------------------------------------- integer, conversion and
// warp-operation chains (the extended measurements). The SASS named per class is what
// each step is meant to compile to on sm_90 (nvcc 13.0 -O3; the PTX was checked);
// validation/h200/bench/run.sh writes the opcode counts per kernel to check it.

// ptxas simplifies PTX algebraically even inside asm volatile (asm volatile binds NVVM
// only): a chain x ^= c, x &= c or rcp(rcp(x)) with a fixed operand folds to nothing and
// x + b + b becomes x + 2b (one LEA/IMAD per two adds). The chains below keep every step:
// the add chain is a Fibonacci pair (each sum feeds the next, no fixed operand), and
// the logic and reciprocal chains pair the instruction with an add or FFMA that mixes in
// a value which does not simplify with it; the measurement subtracts that partner's own
// latency (the same kernels give it). Opcode counts: run.sh's cuobjdump histogram.

// 32-bit add of the previous two values (a Fibonacci pair): IADD3 or IMAD.IADD/VIADD, as
// ptxas balances pipes.
struct OpIadd {
  struct T {
    unsigned a, b;
  };
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) {
    T x = {t * 2654435761u, t ^ 0x9e3779b9u};
    return x;
  }
  __device__ static T step(T x, const OpArgs &) {
    unsigned s;
    asm volatile("add.u32 %0, %1, %2;" : "=r"(s) : "r"(x.a), "r"(x.b));
    T y = {x.b, s};
    return y;
  }
  __device__ static float fold(T x) { return (float)(x.b & 0xffff); }
};
// xor.b32 of a run-time value, then add.u32 of another (LOP3 + add: (x ^ c) + b has no
// simpler form, so both stay); OPS counts the two.
struct OpXor {
  typedef unsigned T;
  enum { OPS = 2, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("xor.b32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;" : "+r"(x) : "r"(a.ic), "r"(a.ib));
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// and.b32 of a run-time value, then add.u32 of another (LOP3 + add, as OpXor).
struct OpAnd {
  typedef unsigned T;
  enum { OPS = 2, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("and.b32 %0, %0, %1;\n\tadd.u32 %0, %0, %2;" : "+r"(x) : "r"(a.ic), "r"(a.ib));
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// SHF.L.U32: a left shift by a run-time amount.
struct OpShl {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("shl.b32 %0, %0, %1;" : "+r"(x) : "r"(a.ia & 1u));
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// IMAD R, R, R, RZ: a 32-bit multiply by a run-time value.
struct OpMul {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("mul.lo.u32 %0, %0, %1;" : "+r"(x) : "r"(a.ia));
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// Signed 32-bit division by a run-time value, as nvcc emits it for int '/' (a branch-free
// sequence: I2F.U32.RP, MUFU.RCP, F2I, IMAD.HI and fix-ups). The chain value is the divisor.
struct OpIdiv {
  typedef int T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1000 + (int)(t & 7); }
  __device__ static T step(T x, const OpArgs &a) { return a.num / x; }
  __device__ static float fold(T x) { return (float)x; }
};
// Signed 32-bit modulo by a run-time value (the division sequence plus an IMAD).
struct OpImod {
  typedef int T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1000 + (int)(t & 7); }
  __device__ static T step(T x, const OpArgs &a) { return a.num % (x | 1); }
  __device__ static float fold(T x) { return (float)x; }
};
// IEEE fp32 division '/' (MUFU.RCP, FFMA refinement, FCHK and a branch to the slow path).
struct OpFdiv {
  typedef float T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1.5f + t * 1e-3f; }
  __device__ static T step(T x, const OpArgs &a) { return a.fa / x; }
  __device__ static float fold(T x) { return x; }
};
// IEEE reciprocal __frcp_rn (MUFU.RCP, FFMA refinement, a slow path for special operands).
struct OpRcp {
  typedef float T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1.5f + t * 1e-3f; }
  __device__ static T step(T x, const OpArgs &) { return __frcp_rn(x); }
  __device__ static float fold(T x) { return x; }
};
// Fast reciprocal rcp.approx.ftz.f32 (MUFU.RCP; what -use_fast_math gives) of an FFMA
// result: x = rcp(x * a + b). rcp(rcp(x)) = x let ptxas drop a bare rcp chain; the FFMA
// keeps it. OPS counts the two; the measurement subtracts the FFMA latency.
struct OpRcpFast {
  typedef float T;
  enum { OPS = 2, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 1.5f + t * 1e-3f; }
  __device__ static T step(T x, const OpArgs &a) {
    asm volatile("fma.rn.f32 %0, %0, %1, %2;\n\trcp.approx.ftz.f32 %0, %0;"
                 : "+f"(x)
                 : "f"(a.fa), "f"(a.fb));
    return x;
  }
  __device__ static float fold(T x) { return x; }
};
// I2F.S32 only (the float's bits feed the next conversion).
struct OpI2f {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t + 3; }
  __device__ static T step(T x, const OpArgs &) {
    float f;
    asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(x));
    return __float_as_uint(f);
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// fp32 -> fp16: cvt.rn.f16x2.f32 (F2FP.F16.F32.PACK_AB, sm_80+); the packed result's bits
// feed the next conversion as a float.
struct OpF2h {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return 0x3f800000u + t; }
  __device__ static T step(T x, const OpArgs &) {
#if __CUDA_ARCH__ >= 800
    asm volatile("cvt.rn.f16x2.f32 %0, %0, %0;" : "+r"(x));
#endif
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// __shfl_sync from the next lane (SHFL.IDX).
struct OpShfl {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &) {
    return __shfl_sync(0xffffffffu, x, threadIdx.x + 1);
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// __shfl_down_sync by one lane (SHFL.DOWN).
struct OpShflDown {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &) { return __shfl_down_sync(0xffffffffu, x, 1); }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// __ballot_sync of the value's low bit, added back (LOP3 to a predicate, VOTE.ANY, IADD3:
// a vote needs a predicate, so a dependent chain carries the instructions around it).
struct OpBallot {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &) { return __ballot_sync(0xffffffffu, x & 1u) + x; }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// __all_sync of the value's low bit, added back (as OpBallot, with VOTE.ALL).
struct OpAll {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t * 2654435761u; }
  __device__ static T step(T x, const OpArgs &) {
    return (unsigned)__all_sync(0xffffffffu, x & 1u) + x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// __match_any_sync of the value (MATCH.ANY); the mask it returns is the next value.
struct OpMatch {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t & 3u; }
  __device__ static T step(T x, const OpArgs &) {
#if __CUDA_ARCH__ >= 700
    x = __match_any_sync(0xffffffffu, x);
#endif
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};
// __reduce_add_sync of the value (REDUX.SUM, sm_80+); the sum is the next value.
struct OpRedux {
  typedef unsigned T;
  enum { OPS = 1, RESULTS = 1 };
  __device__ static T init(unsigned t) { return t; }
  __device__ static T step(T x, const OpArgs &) {
#if __CUDA_ARCH__ >= 800
    x = __reduce_add_sync(0xffffffffu, x);
#endif
    return x;
  }
  __device__ static float fold(T x) { return (float)(x & 0xffff); }
};

// One warp runs one dependent chain of iters*32 steps; thread 0 reports the cycles.
template <class Op>
__global__ void k_latency(float *out, long long *cycles, int iters, OpArgs a) {
  typename Op::T x = Op::init(threadIdx.x);
  for (int u = 0; u < 32; ++u) x = Op::step(x, a);  // warm the instruction cache
  long long t0 = clk();
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 32; ++u) x = Op::step(x, a);
  }
  long long t1 = clk();
  out[threadIdx.x] = Op::fold(x);
  if (threadIdx.x == 0) cycles[0] = t1 - t0;
}

// Per-block timing record of the throughput kernels.
struct BlockRec {
  unsigned sm;
  long long c0, c1;  // clock64 at start and end
  u64 g0, g1;        // globaltimer at start and end
};

// Record the start of a block's timed region (after all its threads arrived).
__device__ __forceinline__ void rec_start(long long *c0, u64 *g0) {
  __syncthreads();
  if (threadIdx.x == 0) {
    *g0 = gtimer();
    *c0 = clk();
  }
}

// Record the end of a block's timed region.
__device__ __forceinline__ void rec_end(BlockRec *rec, long long c0, u64 g0) {
  __syncthreads();
  if (threadIdx.x == 0) {
    long long c1 = clk();
    u64 g1 = gtimer();
    BlockRec r = {smid(), c0, c1, g0, g1};
    rec[blockIdx.x] = r;
  }
}

// Throughput: every thread runs ILP independent chains of iters*4 steps.
template <class Op, int ILP = 8>
__global__ void k_throughput(float *out, BlockRec *rec, int iters, OpArgs a) {
  typename Op::T x[ILP];
#pragma unroll
  for (int j = 0; j < ILP; ++j) x[j] = Op::init(threadIdx.x + 131 * j);
  long long c0 = 0;
  u64 g0 = 0;
  rec_start(&c0, &g0);
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 4; ++u) {
#pragma unroll
      for (int j = 0; j < ILP; ++j) x[j] = Op::step(x[j], a);
    }
  }
  rec_end(rec, c0, g0);
  float s = 0;
#pragma unroll
  for (int j = 0; j < ILP; ++j) s += Op::fold(x[j]);
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = s;
}

// Shared-memory bandwidth: conflict-free 16-byte loads (each warp reads 512 contiguous bytes).
__global__ void k_smem_bw(unsigned *out, BlockRec *rec, int iters) {
  __shared__ uint4 s[2048];  // 32 KiB
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = make_uint4(i, i + 1, i + 2, i + 3);
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s[threadIdx.x & 255]);
  unsigned acc = 0;
  long long c0 = 0;
  u64 g0 = 0;
  rec_start(&c0, &g0);
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) {  // 8 loads, 4 KiB apart
      unsigned v0, v1, v2, v3;
      // .volatile: ptxas must not hoist the (loop-invariant) loads out of the loop
      asm volatile("ld.volatile.shared.v4.u32 {%0,%1,%2,%3}, [%4];"
                   : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3)
                   : "r"(addr + u * 4096)
                   : "memory");
      acc ^= v0 ^ v1 ^ v2 ^ v3;
    }
  }
  rec_end(rec, c0, g0);
  out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = acc;
}

// Back-to-back barriers in a 256-thread block; thread 0 reports the cycles.
__global__ void k_barrier(long long *cycles, int iters) {
  __syncthreads();
  long long t0 = clk();
  for (int k = 0; k < iters; ++k) {
#pragma unroll
    for (int u = 0; u < 8; ++u) __syncthreads();
  }
  long long t1 = clk();
  if (threadIdx.x == 0) cycles[0] = t1 - t0;
}

// One thread: global atomics whose operand is the previous atomic's result.
__global__ void k_atomic_chain(unsigned *word, int hops, unsigned *sink, long long *cycles) {
  unsigned x = 1;
  for (int i = 0; i < 16; ++i)
    asm volatile("atom.global.add.u32 %0, [%1], %0;" : "+r"(x) : "l"(word) : "memory");
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i)
    asm volatile("atom.global.add.u32 %0, [%1], %0;" : "+r"(x) : "l"(word) : "memory");
  long long t1 = clk();
  sink[0] = x;
  cycles[0] = t1 - t0;
}

// One thread: a minimal counted loop (IADD, ISETP, taken BRA) per iteration; the
// nounroll pragma keeps ptxas from unrolling it.
__global__ void k_branch_loop(int iters, int *sink, long long *cycles) {
  int i = 0;
  long long t0 = clk();
  asm volatile(
      "{\n\t.reg .pred p;\n"
      "LOOP:\n\t"
      ".pragma \"nounroll\";\n\t"
      "add.s32 %0, %0, 1;\n\t"
      "setp.lt.s32 p, %0, %1;\n\t"
      "@p bra LOOP;\n\t}"
      : "+r"(i)
      : "r"(iters));
  long long t1 = clk();
  sink[0] = i;
  cycles[0] = t1 - t0;
}

// One thread reads clock64 and globaltimer `ns` nanoseconds apart (SM clock).
__global__ void k_clock(u64 ns, long long *cycles, u64 *elapsed_ns) {
  u64 g0 = gtimer();
  long long c0 = clk();
  u64 g1 = g0;
  while (g1 - g0 < ns) g1 = gtimer();
  long long c1 = clk();
  cycles[0] = c1 - c0;
  elapsed_ns[0] = g1 - g0;
}

// ---------------------------------------------------------------- bandwidth kernels

// Float4 copy, one element per thread.
__global__ void k_copy4(const float4 *__restrict__ in, float4 *__restrict__ out, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

// Float4 read, one element per thread; writes only if the data holds a sentinel.
__global__ void k_read4(const float4 *__restrict__ in, float *__restrict__ out, size_t n4) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    if (v.x + v.y + v.z + v.w == -1.0f) out[0] = v.x;
  }
}

// Isolated 4-byte reads, `stride` floats apart; writes only if it reads the sentinel.
__global__ void k_stride_read(const float *__restrict__ in, float *__restrict__ out, size_t n,
                              int stride) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    float v = __ldcg(in + i * stride);
    if (v == -1.0f) out[0] = v;
  }
}

// L2-resident re-read: `passes` sweeps over n4 float4 with ld.global.cg (L2 only).
__global__ void k_l2_read(const float4 *__restrict__ in, float *__restrict__ out, size_t n4,
                          int passes) {
  size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t T = (size_t)gridDim.x * blockDim.x;
  float acc = 0;
  for (int p = 0; p < passes; ++p)
    for (size_t i = t; i < n4; i += T) {
      float4 v = __ldcg(in + i);
      acc += v.x + v.y + v.z + v.w;
    }
  if (acc == -1.0f) out[0] = acc;
}

// Does nothing: launch overhead, launch latency and block scheduling.
__global__ void k_empty() {}

// Block start period (phase block_start): a block that does nothing, and one whose
// threads copy one float each (the least memory work a block can have).
__global__ void k_start_empty() {}
__global__ void k_start_copy(const float *__restrict__ in, float *__restrict__ out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// ---------------------------------------------------------------- extended kernels

// Barrier cost: `iters` iterations of one FFMA followed (BAR) by __syncthreads()
// (BAR.SYNC.DEFER_BLOCKING on sm_90), or the FFMA chain alone; thread 0 of each block
// records its SM and clock64 around the loop.
template <bool BAR>
__global__ void k_bar_fma(float *out, BlockRec *rec, int iters, float a, float b) {
  float x = 1.0f + threadIdx.x * 1e-3f;
  long long c0 = 0;
  u64 g0 = 0;
  rec_start(&c0, &g0);
#pragma unroll 8
  for (int k = 0; k < iters; ++k) {
    x = fmaf(x, a, b);
    if (BAR) __syncthreads();
  }
  rec_end(rec, c0, g0);
  if (x == -1.0f) out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = x;  // never true
}

// Global atomicAdd throughput: lane l of global warp w adds `v` to word
// (w * per_warp + l % per_warp) mod grid_words (grid_words 0: no wrap), `iters` times.
// The result is unused, so nvcc emits RED.E.ADD.STRONG.GPU (int) or
// RED.E.ADD.F32.FTZ.RN.STRONG.GPU (float) per iteration.
template <typename T>
__global__ void k_gatomic(T *buf, unsigned per_warp, unsigned grid_words, int iters, T v) {
  unsigned lane = threadIdx.x & 31u;
  unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  unsigned idx = warp * per_warp + lane % per_warp;
  if (grid_words) idx %= grid_words;
  T *p = buf + idx;
#pragma unroll 4
  for (int k = 0; k < iters; ++k) atomicAdd(p, v);
}

// Global atomics whose address is the same for every lane (warp-uniform: a kernel argument,
// or one word per block from blockIdx.x, both uniform to ptxas), `iters` times per thread.
// ptxas (CUDA 9 and later) aggregates atomics on a warp-uniform address per warp
// [sources: nvidia-warp-aggregated]. MODE 0: an int add of a run-time value, result unused
// (v is a kernel argument, uniform too, so sm_90 SASS is VOTEU.ANY + POPC (lanes x v) + one
// REDG per warp; a per-lane value takes a REDUX.SUM instead); MODE 1: `atomicAdd(p, 1u)`, result unused
// (the add is the active-lane count); MODE 2: `slot = atomicAdd(p, 1u)` with the result
// used (a queue append: one ATOM per warp if aggregated, each lane's slot from the leader's
// result plus its rank among the active lanes); MODE 3: a float add of a run-time value
// (REDUX has no float form). Whether ptxas aggregates MODE 2 and 3 shows in the rates: a
// warp rate near the per-lane one-word rate (k_gatomic, one address) times 1/32 means one
// atomic per lane. PER_BLOCK: word blockIdx.x (uniform per block) instead of word 0.
template <int MODE, bool PER_BLOCK>
__global__ void k_gatomic_uniform(unsigned *buf, int iters, unsigned v, unsigned *sink) {
  unsigned *p = PER_BLOCK ? buf + blockIdx.x : buf;
  unsigned acc = 0;
#pragma unroll 4
  for (int k = 0; k < iters; ++k) {
    if (MODE == 0) atomicAdd(p, v);
    else if (MODE == 1) atomicAdd(p, 1u);
    else if (MODE == 2) acc += atomicAdd(p, 1u);
    else atomicAdd((float *)p, __uint_as_float(v));
  }
  if (MODE == 2 && acc == 0xfffffffeu) sink[0] = acc;  // never true: keeps the results used
}

// One thread: fp32 global atomics whose operand is the previous atomic's result
// (ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU, a round trip to the L2).
__global__ void k_atomic_chain_f32(float *word, int hops, float *sink, long long *cycles) {
  float x = 1.0f;
  for (int i = 0; i < 16; ++i)
    asm volatile("atom.global.add.f32 %0, [%1], %0;" : "+f"(x) : "l"(word) : "memory");
  long long t0 = clk();
#pragma unroll 8
  for (int i = 0; i < hops; ++i)
    asm volatile("atom.global.add.f32 %0, [%1], %0;" : "+f"(x) : "l"(word) : "memory");
  long long t1 = clk();
  sink[0] = x;
  cycles[0] = t1 - t0;
}

// Shared-memory atomicAdd: lane l of warp w (in its block) adds to bin
// (w * (32 / lanes_per_addr) + l / lanes_per_addr) mod bins, `iters` times. MODE 0: an int
// add of a run-time value (ATOMS.ADD); MODE 1: an int add of the constant 1 with the result
// unused, which ptxas emits as one ATOMS.POPC.INC.32 (no VOTE/POPC around it: the
// instruction itself adds, per address, the number of lanes naming it, so its cost does
// not grow with the lanes per address); MODE 2: a float add (an LDS + FADD +
// ATOMS.CAST.SPIN loop on sm_90). The bins are read back and stored if they hold a
// value no run produces, so the atomics stay.
template <int MODE>
__global__ void k_satomic(unsigned *out, BlockRec *rec, int iters, unsigned lanes_per_addr,
                          unsigned bins, unsigned v) {
  __shared__ unsigned s[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) s[i] = 0;
  unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  unsigned idx = (warp * (32u / lanes_per_addr) + lane / lanes_per_addr) % bins;
  long long c0 = 0;
  u64 g0 = 0;
  rec_start(&c0, &g0);
#pragma unroll 4
  for (int k = 0; k < iters; ++k) {
    if (MODE == 0) atomicAdd(&s[idx], v);
    else if (MODE == 1) atomicAdd(&s[idx], 1u);
    else atomicAdd((float *)&s[idx], __uint_as_float(v));
  }
  rec_end(rec, c0, g0);
  unsigned r = s[threadIdx.x & 255u];
  if (r == 0xfffffffeu) out[blockIdx.x * (size_t)blockDim.x + threadIdx.x] = r;  // never true
}

// Pointer-chain construction: node k (at byte offset offs[k]) points to node k + 1.
__global__ void k_build_chain(u64 base, const u64 *offs, size_t n) {
  for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n;
       k += (size_t)gridDim.x * blockDim.x)
    *(u64 *)(base + offs[k]) = base + offs[(k + 1) % n];
}

// ---------------------------------------------------------------- host helpers

// Wall-clock seconds (monotonic).
static double wall_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Median of a vector.
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Everything the measurements share.
struct Ctx {
  int dev = 0;
  cudaDeviceProp prop;
  cudaStream_t s = nullptr;
  cudaEvent_t e0 = nullptr, e1 = nullptr;
  void *scratch = nullptr;  // 1 GiB, written to flush L2
  long long *d_cycles = nullptr;
  u64 *d_sink = nullptr;
  float *d_out = nullptr;  // 64 MiB
  double clock_mhz = 0;    // measured SM clock under load
};

// Median time (ms) of `reps` runs of `fn` enqueued on c.s, after 2 warm-ups.
template <typename F>
static double time_ms(Ctx &c, int reps, F fn, bool flush = false) {
  std::vector<double> v;
  for (int r = 0; r < reps + 2; ++r) {
    if (flush) CK(cudaMemsetAsync(c.scratch, r & 0xff, size_t(1) << 30, c.s));
    CK(cudaEventRecord(c.e0, c.s));
    fn();
    CK_LAUNCH();
    CK(cudaEventRecord(c.e1, c.s));
    CK(cudaEventSynchronize(c.e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
    if (r >= 2) v.push_back(ms);
  }
  return median(v);
}

// Read back the cycle count a single-thread kernel wrote.
static long long read_cycles(Ctx &c) {
  long long v = 0;
  CK(cudaStreamSynchronize(c.s));
  CK(cudaMemcpy(&v, c.d_cycles, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

// Build a random cyclic pointer chain over `nodes` nodes `stride` bytes apart at
// device address `base` (Sattolo's shuffle gives one cycle through all nodes).
static void build_chain(u64 base, size_t nodes, size_t stride, unsigned seed) {
  std::vector<size_t> order(nodes);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  for (size_t i = nodes - 1; i > 0; --i) {
    size_t j = std::uniform_int_distribution<size_t>(0, i - 1)(rng);
    std::swap(order[i], order[j]);
  }
  std::vector<u64> host(nodes * stride / 8, 0);
  for (size_t k = 0; k < nodes; ++k) {
    size_t from = order[k], to = order[(k + 1) % nodes];
    host[from * stride / 8] = base + to * stride;
  }
  CK(cudaMemcpy((void *)base, host.data(), host.size() * 8, cudaMemcpyHostToDevice));
}

// Cycles per hop of a pointer chase (footprint bytes, stride bytes; cold: flush L2
// first and time the first pass only).
static double chase(Ctx &c, void *buf, size_t footprint, size_t stride, bool l2_only, bool cold) {
  size_t nodes = footprint / stride;
  u64 base = (u64)buf;
  build_chain(base, nodes, stride, 12345u + (unsigned)footprint);
  int hops = cold ? (int)nodes : 4096;
  int warm = cold ? 0 : (int)std::max<size_t>(nodes, 256);
  std::vector<double> v;
  for (int r = 0; r < 5; ++r) {
    if (cold) CK(cudaMemsetAsync(c.scratch, r, size_t(1) << 30, c.s));
    if (l2_only) k_chase<true><<<1, 1, 0, c.s>>>(base, warm, hops, c.d_sink, c.d_cycles);
    else k_chase<false><<<1, 1, 0, c.s>>>(base, warm, hops, c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back((double)read_cycles(c) / hops);
  }
  return median(v);
}

// Dependent-issue latency of an instruction class, cycles per instruction.
template <class Op>
static double latency(Ctx &c, const OpArgs &a) {
  const int iters = 256;
  std::vector<double> v;
  for (int r = 0; r < 5; ++r) {
    k_latency<Op><<<1, 32, 0, c.s>>>(c.d_out, c.d_cycles, iters, a);
    CK_LAUNCH();
    v.push_back((double)read_cycles(c) / (iters * 32.0 * Op::OPS));
  }
  return median(v);
}

// Per-SM rate from block records: median over SMs of work_per_block * blocks / span.
static double per_sm_rate(const std::vector<BlockRec> &recs, double work_per_block,
                          double *clock_mhz) {
  std::map<unsigned, std::vector<const BlockRec *>> by_sm;
  std::vector<double> mhz;
  for (const BlockRec &r : recs) {
    by_sm[r.sm].push_back(&r);
    if (r.g1 > r.g0) mhz.push_back((double)(r.c1 - r.c0) * 1e3 / (double)(r.g1 - r.g0));
  }
  std::vector<double> rates;
  for (auto &kv : by_sm) {
    long long lo = kv.second[0]->c0, hi = kv.second[0]->c1;
    for (const BlockRec *r : kv.second) {
      lo = std::min(lo, r->c0);
      hi = std::max(hi, r->c1);
    }
    if (hi > lo) rates.push_back(work_per_block * kv.second.size() / (double)(hi - lo));
  }
  if (clock_mhz) *clock_mhz = mhz.empty() ? 0 : median(mhz);
  return rates.empty() ? 0 : median(rates);
}

// Launch a throughput kernel with one full wave of 256-thread blocks; returns the
// median results per clock per SM (and the SM clock it saw, MHz).
template <class Op, int ILP = 8>
static double throughput(Ctx &c, const OpArgs &a, int iters, double *clock_mhz = nullptr) {
  const int bs = 256;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_throughput<Op, ILP>, bs, 0));
  int grid = per_sm * c.prop.multiProcessorCount;
  BlockRec *d_rec = nullptr;
  CK(cudaMalloc(&d_rec, grid * sizeof(BlockRec)));
  std::vector<double> v, clk;
  for (int r = 0; r < 3; ++r) {
    k_throughput<Op, ILP><<<grid, bs, 0, c.s>>>(c.d_out, d_rec, iters, a);
    CK_LAUNCH();
    CK(cudaStreamSynchronize(c.s));
    std::vector<BlockRec> recs(grid);
    CK(cudaMemcpy(recs.data(), d_rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
    double work = (double)bs * iters * 4 * ILP * Op::OPS * Op::RESULTS, mhz = 0;
    v.push_back(per_sm_rate(recs, work, &mhz));  // instruction results per clock per SM
    clk.push_back(mhz);
  }
  CK(cudaFree(d_rec));
  if (clock_mhz) *clock_mhz = median(clk);
  return median(v);
}

// Shared-memory bytes per clock per SM (LDS.128, conflict-free, full occupancy).
static double smem_bandwidth(Ctx &c) {
  const int bs = 256, iters = 2048;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_smem_bw, bs, 0));
  int grid = per_sm * c.prop.multiProcessorCount;
  BlockRec *d_rec = nullptr;
  CK(cudaMalloc(&d_rec, grid * sizeof(BlockRec)));
  std::vector<double> v;
  for (int r = 0; r < 3; ++r) {
    k_smem_bw<<<grid, bs, 0, c.s>>>((unsigned *)c.d_out, d_rec, iters);
    CK_LAUNCH();
    CK(cudaStreamSynchronize(c.s));
    std::vector<BlockRec> recs(grid);
    CK(cudaMemcpy(recs.data(), d_rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
    v.push_back(per_sm_rate(recs, (double)bs * iters * 8 * 16, nullptr));
  }
  CK(cudaFree(d_rec));
  return median(v);
}

// ---------------------------------------------------------------- built-in table

// Per-CC facts that this program cannot measure. Sources: CUDA C++ Programming Guide
// (compute capability tables, [sources: pg-l] Table 27) and, for tensor
// rates, NVIDIA's architecture whitepapers (dense rates per SM per clock).
struct CcFacts {
  int major, minor;
  const char *arch;
  int schedulers, dispatch, max_regs_per_thread;
  long long l1_shared_bytes;
  double ldst_lanes;
  double t_fp16, t_bf16, t_tf32, t_fp64, t_int8, t_fp8;
  int sector_bytes, l1_line_bytes;
  long long constant_cache_bytes;
};
static const CcFacts kCcTable[] = {
    // CC     arch       sch dis regs  L1+smem  ldst  fp16  bf16  tf32  fp64 int8  fp8 sec line cc$
    {8, 0, "ampere", 4, 1, 255, 196608, 32, 2048, 2048, 1024, 128, 4096, 0, 32, 128, 8192},
    {8, 6, "ampere", 4, 1, 255, 131072, 32, 1024, 1024, 512, 0, 2048, 0, 32, 128, 8192},
    {8, 7, "ampere", 4, 1, 255, 196608, 32, 1024, 1024, 512, 0, 2048, 0, 32, 128, 8192},
    {8, 9, "ampere", 4, 1, 255, 131072, 32, 1024, 1024, 512, 0, 2048, 2048, 32, 128, 8192},
    {9, 0, "hopper", 4, 1, 255, 262144, 32, 4096, 4096, 2048, 256, 8192, 8192, 32, 128, 8192},
};

// Table entry for a CC: exact match, else the nearest lower one of the same major
// (nullptr if none).
static const CcFacts *cc_facts(int major, int minor) {
  const CcFacts *best = nullptr;
  for (const CcFacts &f : kCcTable)
    if (f.major == major && f.minor <= minor) best = &f;
  return best;
}

// Plugin name for a CC (nullptr: no plugin; --arch must name one).
static const char *arch_for(int major, int minor) {
  if (major == 9 && minor == 0) return "hopper";
  if (major == 8) return "ampere";
  if (major == 2 || major == 3) return "fermi-kepler";
  if (major == 1) return "tesla";
  return nullptr;
}

// ---------------------------------------------------------------- INI writer

// Longest line written: gpuperf's device loader rejects lines over 190 characters.
static const size_t kMaxLine = 150;

// Append `text` as "; " comment lines of at most kMaxLine characters.
static void comment_lines(std::string &out, const std::string &text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t len = std::min(text.size() - pos, kMaxLine - 2);
    if (pos + len < text.size()) {  // break at the last space that fits
      size_t sp = text.rfind(' ', pos + len);
      if (sp != std::string::npos && sp > pos) len = sp - pos;
    }
    out += "; " + text.substr(pos, len) + "\n";
    pos += len;
    while (pos < text.size() && text[pos] == ' ') ++pos;
  }
}

// Collects "key = value ; comment" lines per section, written in schema order.
struct Ini {
  std::string text;
  void section(const char *name) {
    if (!text.empty()) text += "\n";
    text += "[";
    text += name;
    text += "]\n";
  }
  void note(const std::string &t) { comment_lines(text, t); }
  void kv(const char *key, const std::string &value, const std::string &comment) {
    char line[1024];
    snprintf(line, sizeof line, "%-38s ; %s", (std::string(key) + " = " + value).c_str(),
             comment.c_str());
    if (strlen(line) > kMaxLine) {  // too long: the comment goes on lines of its own above
      comment_lines(text, comment);
      snprintf(line, sizeof line, "%s = %s", key, value.c_str());
    }
    text += line;
    text += "\n";
  }
  void num(const char *key, double v, int decimals, const std::string &comment) {
    char buf[64];
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    kv(key, buf, comment);
  }
  void integer(const char *key, long long v, const std::string &comment) {
    kv(key, std::to_string(v), comment);
  }
};

static const char *kMeasured = "measured by gpuperf-calibrate: ";
static const char *kGuide = "from the CUDA programming guide tables (not measured)";
static const char *kProps = "cudaGetDeviceProperties: ";

// printf into a std::string.
static std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static std::string fmt(const char *f, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// ---------------------------------------------------------------- measurements

// All measured values (NAN where not measured).
struct Measured {
  double clock_mhz;
  double tensor_clock_mhz;  // SM clock of blocks issuing mma.sync (0: not measured)
  double l1_cyc, l2_cyc, dram_cyc, smem_cyc, const_cyc;
  double fp32_cyc, fp64_cyc, fp16_cyc, int32_cyc, imad_cyc, sfu_cyc, cvt_cyc, tensor_cyc;
  double branch_cyc, barrier_cyc, atomic_cyc;
  double fp32_tp, fp64_tp, fp16_tp, int32_tp, imad_tp, sfu_tp, cvt_tp, f2i_tp, f2i_cyc;
  double smem_bpc, l2_gbps, l2_buf_mib, dram_gbps, read_gbps;
  double fetch_eff[4];  // effective bytes per isolated read at 32/64/128/256 B apart
  unsigned dram_fetch;
  double launch_overhead_us, launch_latency_us, block_cycles;
  double pcie_gbps, pcie_us, peer_gbps, peer_us;
  int peer_measured;
};

// Keep the GPU busy for a while so that its clocks are up before measuring.
static void warm_up(Ctx &c, const OpArgs &a) {
  fprintf(stderr, "  warming up the GPU\n");
  for (int i = 0; i < 4; ++i) throughput<OpFp32>(c, a, 65536);  // about 0.2 s in all
}

// SM clock (MHz) seen by one thread over 10 ms: clock64 against globaltimer.
static double sm_clock_mhz(Ctx &c) {
  u64 *d_ns = nullptr, ns = 0;
  CK(cudaMalloc(&d_ns, sizeof(u64)));
  k_clock<<<1, 1, 0, c.s>>>(10000000ull, c.d_cycles, d_ns);
  CK_LAUNCH();
  long long cyc = read_cycles(c);
  CK(cudaMemcpy(&ns, d_ns, sizeof ns, cudaMemcpyDeviceToHost));
  CK(cudaFree(d_ns));
  return ns ? cyc * 1e3 / ns : 0;
}

// Memory-hierarchy latencies by pointer chasing (cycles per hop).
static void measure_latencies(Ctx &c, Measured &m) {
  const size_t page = size_t(2) << 20;
  char *buf = nullptr;
  CK(cudaMalloc(&buf, 2 * page));
  char *aligned = (char *)(((u64)buf + page - 1) & ~(u64)(page - 1));  // one 2 MiB page
  fprintf(stderr, "  SM clock seen by one thread: %.0f MHz\n", sm_clock_mhz(c));
  m.l1_cyc = chase(c, aligned, 16 << 10, 128, false, false);
  fprintf(stderr, "  L1 hit latency      %.1f cycles (16 KiB, 128 B stride, ld.ca)\n", m.l1_cyc);
  m.l2_cyc = chase(c, aligned, page, 128, true, false);
  fprintf(stderr, "  L2 hit latency      %.1f cycles (2 MiB, 128 B stride, ld.cg)\n", m.l2_cyc);
  m.dram_cyc = chase(c, aligned, page, 512, true, true);
  fprintf(stderr, "  DRAM latency        %.1f cycles (4096 lines after an L2 flush)\n", m.dram_cyc);
  CK(cudaFree(buf));

  std::vector<double> v;
  for (int r = 0; r < 5; ++r) {
    k_smem_chase<<<1, 1, 0, c.s>>>(4096, (unsigned *)c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back(read_cycles(c) / 4096.0);
  }
  m.smem_cyc = median(v);
  fprintf(stderr, "  shared load latency %.1f cycles\n", m.smem_cyc);

  // 32 nodes 64 B apart (2 KiB); node i points to node (5i + 3) mod 32, which visits
  // all 32 nodes in one cycle (multiplier 1 mod 4, odd increment).
  const int nodes = 32, node_bytes = 64;
  unsigned table[512] = {0};
  for (int i = 0; i < nodes; ++i)
    table[i * node_bytes / 4] = node_bytes * ((i * 5 + 3) % nodes);
  CK(cudaMemcpyToSymbol(c_chain, table, sizeof table));
  v.clear();
  for (int r = 0; r < 5; ++r) {
    k_const_chase<<<1, 1, 0, c.s>>>(2048, (unsigned *)c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back(read_cycles(c) / 2048.0);
  }
  m.const_cyc = median(v);
  fprintf(stderr, "  constant latency    %.1f cycles\n", m.const_cyc);
}

// Dependent-issue latencies per instruction class and the throughputs.
static void measure_alu(Ctx &c, const OpArgs &a, Measured &m) {
  m.fp32_cyc = latency<OpFp32>(c, a);
  m.fp64_cyc = latency<OpFp64>(c, a);
  m.fp16_cyc = latency<OpFp16>(c, a);
  m.int32_cyc = latency<OpInt32>(c, a);
  m.imad_cyc = latency<OpImad>(c, a);
  m.sfu_cyc = latency<OpSfu>(c, a);
  m.cvt_cyc = latency<OpCvt>(c, a);
  m.f2i_cyc = latency<OpF2i>(c, a);
  m.tensor_cyc = c.prop.major >= 8 ? latency<OpTensor>(c, a) : NAN;
  fprintf(stderr,
          "  latency (cycles): fp32 %.2f fp64 %.2f fp16 %.2f int32(add/xor) %.2f imad %.2f "
          "sfu %.2f cvt %.2f f2i %.2f tensor %.2f\n",
          m.fp32_cyc, m.fp64_cyc, m.fp16_cyc, m.int32_cyc, m.imad_cyc, m.sfu_cyc, m.cvt_cyc,
          m.f2i_cyc, m.tensor_cyc);

  std::vector<double> v;
  for (int r = 0; r < 5; ++r) {
    k_branch_loop<<<1, 1, 0, c.s>>>(16384, (int *)c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back(read_cycles(c) / 16384.0);
  }
  m.branch_cyc = median(v);
  v.clear();
  for (int r = 0; r < 5; ++r) {
    k_barrier<<<1, 256, 0, c.s>>>(c.d_cycles, 512);
    CK_LAUNCH();
    v.push_back(read_cycles(c) / (512.0 * 8));
  }
  m.barrier_cyc = median(v);
  unsigned *word = nullptr;
  CK(cudaMalloc(&word, 256));
  CK(cudaMemset(word, 0, 256));
  v.clear();
  for (int r = 0; r < 5; ++r) {
    k_atomic_chain<<<1, 1, 0, c.s>>>(word, 2048, (unsigned *)c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back(read_cycles(c) / 2048.0);
  }
  CK(cudaFree(word));
  m.atomic_cyc = median(v);
  fprintf(stderr, "  branch %.2f, barrier %.2f, atomic %.1f cycles\n", m.branch_cyc,
          m.barrier_cyc, m.atomic_cyc);

  m.fp32_tp = throughput<OpFp32>(c, a, 2048, &m.clock_mhz);
  m.fp64_tp = throughput<OpFp64>(c, a, 1024);
  m.fp16_tp = throughput<OpFp16>(c, a, 2048);
  m.int32_tp = throughput<OpInt32>(c, a, 1024);
  m.imad_tp = throughput<OpImad>(c, a, 1024);
  m.sfu_tp = throughput<OpSfu>(c, a, 256);
  m.cvt_tp = throughput<OpCvt>(c, a, 256);
  m.f2i_tp = throughput<OpF2i>(c, a, 256);
  // The SM clock while the blocks issue mma.sync: on the H200 a clock of its own,
  // 1815 MHz against 1980, that nvidia-smi does not show (validation/h200/bench
  // bench_clock). Each block's clock64 cycles over its globaltimer nanoseconds.
  if (c.prop.major >= 8) {
    throughput<OpTensor>(c, a, 256, &m.tensor_clock_mhz);
    fprintf(stderr, "  SM clock issuing mma.sync: %.0f MHz\n", m.tensor_clock_mhz);
  }
  fprintf(stderr,
          "  results/clock/SM: fp32 %.1f fp64 %.1f fp16 %.1f int32(add/xor) %.1f imad %.1f "
          "sfu %.1f cvt %.1f f2i %.1f (SM clock %.0f MHz)\n",
          m.fp32_tp, m.fp64_tp, m.fp16_tp, m.int32_tp, m.imad_tp, m.sfu_tp, m.cvt_tp, m.f2i_tp,
          m.clock_mhz);
  m.smem_bpc = smem_bandwidth(c);
  fprintf(stderr, "  shared memory %.1f bytes/clock/SM\n", m.smem_bpc);
}

// L2 and DRAM bandwidth and the DRAM fetch granularity.
static void measure_memory(Ctx &c, Measured &m) {
  const size_t gib = size_t(1) << 30;
  float *a = nullptr, *b = nullptr;
  CK(cudaMalloc(&a, 2 * gib));
  CK(cudaMalloc(&b, gib));
  CK(cudaMemset(a, 0, 2 * gib));
  CK(cudaMemset(b, 0, gib));
  const int bs = 256;

  // L2: a buffer of a quarter of L2 (at most 16 MiB), read 32 times, warm.
  size_t l2_buf = std::min<size_t>(size_t(16) << 20, (size_t)c.prop.l2CacheSize / 4);
  size_t n4 = l2_buf / 16;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_l2_read, bs, 0));
  int grid = per_sm * c.prop.multiProcessorCount;
  const int passes = 32;
  double ms = time_ms(c, 7, [&] { k_l2_read<<<grid, bs, 0, c.s>>>((const float4 *)a, c.d_out, n4, passes); });
  m.l2_gbps = (double)passes * l2_buf / (ms * 1e-3) / 1e9;
  m.l2_buf_mib = l2_buf / 1048576.0;
  fprintf(stderr, "  L2 bandwidth        %.0f GB/s (%zu MiB x %d passes)\n", m.l2_gbps,
          l2_buf >> 20, passes);

  // DRAM: 1 GiB float4 copy (2 GiB moved) and a 1 GiB float4 read.
  size_t g4 = gib / 16;
  ms = time_ms(c, 7, [&] {
    k_copy4<<<unsigned(g4 / bs), bs, 0, c.s>>>((const float4 *)a, (float4 *)b, g4);
  });
  m.dram_gbps = 2.0 * gib / (ms * 1e-3) / 1e9;
  ms = time_ms(c, 7, [&] {
    k_read4<<<unsigned(g4 / bs), bs, 0, c.s>>>((const float4 *)a, c.d_out, g4);
  }, true);
  m.read_gbps = (double)gib / (ms * 1e-3) / 1e9;
  fprintf(stderr, "  DRAM copy           %.0f GB/s (read+write), read-only %.0f GB/s\n",
          m.dram_gbps, m.read_gbps);

  // Fetch granularity: 2^23 isolated 4-byte reads 32, 64, 128, 256 bytes apart.
  const size_t n = size_t(1) << 23;
  const int strides_bytes[4] = {32, 64, 128, 256};
  for (int k = 0; k < 4; ++k) {
    int stride = strides_bytes[k] / 4;
    ms = time_ms(c, 7, [&] {
      k_stride_read<<<unsigned(n / bs), bs, 0, c.s>>>(a, c.d_out, n, stride);
    }, true);
    m.fetch_eff[k] = m.read_gbps * 1e9 * (ms * 1e-3) / n;
  }
  // The fetch size is where doubling the spacing stops doubling the cost of a read:
  // below it neighbouring reads share a fetch, above it each read pays one fetch.
  m.dram_fetch = 32;
  for (int k = 0; k < 3 && m.fetch_eff[k + 1] > 1.5 * m.fetch_eff[k]; ++k)
    m.dram_fetch = strides_bytes[k + 1];
  fprintf(stderr,
          "  effective bytes per isolated read: %.1f (32 B apart) %.1f (64) %.1f (128) %.1f "
          "(256) -> fetch %u B\n",
          m.fetch_eff[0], m.fetch_eff[1], m.fetch_eff[2], m.fetch_eff[3], m.dram_fetch);
  CK(cudaFree(a));
  CK(cudaFree(b));
}

// Launch overhead and latency, and the per-block scheduling cost.
static void measure_launch(Ctx &c, Measured &m) {
  const int count = 2000;
  double ms = time_ms(c, 7, [&] {
    for (int i = 0; i < count; ++i) k_empty<<<1, 32, 0, c.s>>>();
  });
  m.launch_overhead_us = ms * 1e3 / count;
  ms = time_ms(c, 21, [&] { k_empty<<<1, 32, 0, c.s>>>(); });
  m.launch_latency_us = ms * 1e3;
  const int sms = c.prop.multiProcessorCount;
  const int g1 = sms * 256, g2 = sms * 4096;
  double t1 = time_ms(c, 7, [&] { k_empty<<<g1, 32, 0, c.s>>>(); });
  double t2 = time_ms(c, 7, [&] { k_empty<<<g2, 32, 0, c.s>>>(); });
  m.block_cycles = (t2 - t1) * 1e-3 * m.clock_mhz * 1e6 / ((double)(g2 - g1) / sms);
  fprintf(stderr, "  launch overhead %.2f us, latency %.2f us, %.1f cycles per block per SM\n",
          m.launch_overhead_us, m.launch_latency_us, m.block_cycles);
}

// Host-to-device (pinned) and peer bandwidth and latency.
static void measure_links(Ctx &c, Measured &m) {
  const size_t bytes = size_t(256) << 20;
  void *h = nullptr, *d = nullptr;
  CK(cudaMallocHost(&h, bytes));
  CK(cudaMalloc(&d, bytes));
  memset(h, 1, bytes);
  double ms = time_ms(c, 7, [&] { CK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, c.s)); });
  m.pcie_gbps = bytes / (ms * 1e-3) / 1e9;
  ms = time_ms(c, 21, [&] { CK(cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, c.s)); });
  m.pcie_us = ms * 1e3;
  fprintf(stderr, "  H2D (pinned) %.1f GB/s, 4-byte copy %.2f us\n", m.pcie_gbps, m.pcie_us);
  CK(cudaFreeHost(h));

  int count = 0, can = 0;
  CK(cudaGetDeviceCount(&count));
  m.peer_measured = 0;
  int peer = c.dev == 0 ? 1 : 0;
  if (count >= 2) CK(cudaDeviceCanAccessPeer(&can, c.dev, peer));
  if (count >= 2 && can) {
    void *dp = nullptr;
    CK(cudaSetDevice(peer));
    CK(cudaMalloc(&dp, bytes));
    CK(cudaSetDevice(c.dev));
    cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
    else CK(e);
    ms = time_ms(c, 7, [&] { CK(cudaMemcpyPeerAsync(dp, peer, d, c.dev, bytes, c.s)); });
    m.peer_gbps = bytes / (ms * 1e-3) / 1e9;
    ms = time_ms(c, 21, [&] { CK(cudaMemcpyPeerAsync(dp, peer, d, c.dev, 4, c.s)); });
    m.peer_us = ms * 1e3;
    m.peer_measured = 1;
    fprintf(stderr, "  peer GPU%d -> GPU%d %.1f GB/s, 4-byte copy %.2f us\n", c.dev, peer,
            m.peer_gbps, m.peer_us);
    CK(cudaSetDevice(peer));
    CK(cudaFree(dp));
    CK(cudaSetDevice(c.dev));
  } else {
    fprintf(stderr, "  no peer GPU: peer link not measured\n");
  }
  CK(cudaFree(d));
}

// ---------------------------------------------------------------- extended measurements
//
// Barriers, atomics, warp operations, integer and conversion pipes, graph launches and
// the pointer-chase latency curve. Every sweep goes to a raw table (--raw FILE, CSV);
// the values derived from it go to device keys of the INI, each in its section
// ([throughput], [memory], [latency], [launch]: cal_section below).

// Raw sweep rows: bench,variant,x_name,x,y_name,y,metric,value,unit.
struct Raw {
  std::string text = "bench,variant,x_name,x,y_name,y,metric,value,unit\n";
  void row(const char *bench, const std::string &variant, const char *xn, double x,
           const char *yn, double y, const char *metric, double v, const char *unit) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s,%s,%s,%.10g,%s,%.10g,%s,%.6g,%s\n", bench, variant.c_str(), xn,
             x, yn, y, metric, v, unit);
    text += buf;
  }
};

// One derived key of the extended measurements.
struct CalKey {
  std::string key;
  double value;
  int decimals;
  std::string comment;
};

// Everything the extended measurements produce.
struct Ext {
  Raw raw;
  std::vector<CalKey> keys;
  void key(const char *k, double v, int decimals, const std::string &comment) {
    keys.push_back(CalKey{k, v, decimals, comment});
  }
};

// Median over SMs of the span (last end - first start, SM cycles) of the blocks each
// SM ran; *blocks gets the median number of blocks per SM.
static double per_sm_span(const std::vector<BlockRec> &recs, double *blocks) {
  std::map<unsigned, std::pair<long long, long long>> span;
  std::map<unsigned, int> count;
  for (const BlockRec &r : recs) {
    auto it = span.find(r.sm);
    if (it == span.end()) span[r.sm] = std::make_pair(r.c0, r.c1);
    else {
      it->second.first = std::min(it->second.first, r.c0);
      it->second.second = std::max(it->second.second, r.c1);
    }
    ++count[r.sm];
  }
  std::vector<double> v, n;
  for (auto &kv : span) v.push_back((double)(kv.second.second - kv.second.first));
  for (auto &kv : count) n.push_back(kv.second);
  if (blocks) *blocks = n.empty() ? 0 : median(n);
  return v.empty() ? 0 : median(v);
}

// What a refilled block slot spends per block beyond the block's own work
// (block_slot_overhead_cycles: warp start and exit, the release, the next dispatch). One
// block per SM (dynamic shared memory pins it) runs an FFMA chain of `iters` steps
// (k_bar_fma without the barrier) whose in-block span D thread 0 stamps with clock64; the
// slot's period P = (t(hi waves) - t(lo waves)) / (hi - lo), event-timed, in SM clocks
// under load. The overhead is P - D, median over 2, 8 and 32 warps per block and chains
// of 256 and 1024 steps.
static void measure_slot_overhead(Ctx &c, const Measured &m, Ext &x) {
  const int warps[3] = {2, 8, 32}, chains[2] = {256, 1024}, lo = 8, hi = 64;
  const int sms = c.prop.multiProcessorCount;
  const int max_warps = c.prop.maxThreadsPerMultiProcessor / 32;
  const int optin = (int)c.prop.sharedMemPerBlockOptin;
  const int smem = (int)std::min<size_t>(
      c.prop.sharedMemPerMultiprocessor - c.prop.reservedSharedMemPerBlock, optin);
  BlockRec *d_rec = nullptr;
  std::vector<double> over;
  CK(cudaMalloc(&d_rec, sizeof(BlockRec) * (size_t)hi * sms));
  CK(cudaFuncSetAttribute(k_bar_fma<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  for (int w : warps)
    for (int it : chains) {
      if (w > max_warps) continue;
      double t[2];
      for (int k = 0; k < 2; ++k) {
        int grid = (k ? hi : lo) * sms;
        t[k] = time_ms(c, 5, [&] {
          k_bar_fma<false><<<grid, 32 * w, smem, c.s>>>(c.d_out, d_rec, it, 0.9999f, 1e-4f);
          CK_LAUNCH();
        });
      }
      std::vector<BlockRec> recs((size_t)hi * sms);
      CK(cudaMemcpy(recs.data(), d_rec, recs.size() * sizeof(BlockRec), cudaMemcpyDeviceToHost));
      std::vector<double> span;
      for (const BlockRec &r : recs) span.push_back((double)(r.c1 - r.c0));
      double d = median(span);
      double period = (t[1] - t[0]) * 1e-3 * m.clock_mhz * 1e6 / (hi - lo);
      over.push_back(period - d);
      x.raw.row("slot_overhead", "fma", "warps_per_block", w, "chain_steps", it,
                "cycles_per_slot", period, "cycles");
      x.raw.row("slot_overhead", "fma_in_block", "warps_per_block", w, "chain_steps", it,
                "cycles_per_block", d, "cycles");
      fprintf(stderr, "  block slot: %2d warps, %4d-step chain: period %.0f, in the block %.0f: "
              "%.0f cycles beyond the block's work\n", w, it, period, d, period - d);
    }
  CK(cudaFree(d_rec));
  if (!over.empty())
    x.key("block_slot_overhead_cycles", median(over), 0,
          "one pinned block per SM refilled 8 vs 64 times: the slot's period less the "
          "block's own FFMA chain (clock64), median of 2/8/32 warps x 256/1024 steps");
}

// Block start period against warps per block, blocks resident per SM and the work per
// block: whether an SM starts blocks at one rate (block_launch_cycles) or the rate depends
// on the block's warps, on how many are resident or on what the block does. Dynamic shared
// memory caps residency at exactly b blocks per SM, as in measure_barriers. Per block per
// SM: (t(512 blocks/SM) - t(64 blocks/SM)) / 448, event-timed (the launch cancels), in SM
// clocks under load.
static void measure_block_start(Ctx &c, const Measured &m, Ext &x) {
  const int warps[6] = {1, 2, 4, 8, 16, 32}, bpsm[6] = {1, 2, 4, 8, 16, 32};
  const int lo = 64, hi = 512;
  const int sms = c.prop.multiProcessorCount;
  const int max_warps = c.prop.maxThreadsPerMultiProcessor / 32;
  const int max_blocks = c.prop.maxBlocksPerMultiProcessor;
  const int optin = (int)c.prop.sharedMemPerBlockOptin;
  const size_t n = (size_t)sms * hi * 1024;
  float *in = nullptr, *out = nullptr;
  CK(cudaMalloc(&in, n * sizeof(float)));
  CK(cudaMalloc(&out, n * sizeof(float)));
  CK(cudaMemset(in, 0, n * sizeof(float)));
  CK(cudaFuncSetAttribute(k_start_empty, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(k_start_copy, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  for (int copy = 0; copy < 2; ++copy)
    for (int w : warps)
      for (int b : bpsm) {
        if (w * b > max_warps || b > max_blocks) continue;
        int smem = (int)std::min<size_t>(c.prop.sharedMemPerMultiprocessor / b -
                                             c.prop.reservedSharedMemPerBlock, optin);
        double t[2];
        for (int k = 0; k < 2; ++k) {
          int grid = (k ? hi : lo) * sms;
          t[k] = time_ms(c, 7, [&] {
            if (copy) k_start_copy<<<grid, 32 * w, smem, c.s>>>(in, out);
            else k_start_empty<<<grid, 32 * w, smem, c.s>>>();
            CK_LAUNCH();
          });
        }
        double cyc = (t[1] - t[0]) * 1e-3 * m.clock_mhz * 1e6 / (hi - lo);
        x.raw.row("block_start", copy ? "copy" : "empty", "warps_per_block", w, "blocks_per_sm", b,
                  "cycles_per_block", cyc, "cycles");
        fprintf(stderr, "  block start: %s, %2d warps x %2d blocks/SM: %.1f cycles per block per SM\n",
                copy ? "copy " : "empty", w, b, cyc);
      }
  CK(cudaFree(in));
  CK(cudaFree(out));
  measure_slot_overhead(c, m, x);
}

// Barrier cost against warps per block and blocks per SM. Dynamic shared memory of
// (shared memory per SM / blocks per SM - reserved) caps residency at exactly that many
// blocks per SM; the grid is blocks per SM x SMs. Cycles per iteration = median over SMs
// of the span / iterations, with and without the barrier; the difference is the cost
// of one barrier above the FFMA chain.
static void measure_barriers(Ctx &c, Ext &x) {
  const int iters = 4096, warps[6] = {1, 2, 4, 8, 16, 32}, bpsm[3] = {1, 2, 4};
  const int sms = c.prop.multiProcessorCount;
  const int max_warps = c.prop.maxThreadsPerMultiProcessor / 32;
  BlockRec *d_rec = nullptr;
  CK(cudaMalloc(&d_rec, sizeof(BlockRec) * 4 * sms));
  int optin = (int)c.prop.sharedMemPerBlockOptin;
  CK(cudaFuncSetAttribute(k_bar_fma<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CK(cudaFuncSetAttribute(k_bar_fma<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  double fit_n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int b : bpsm)
    for (int w : warps) {
      if (w * b > max_warps) continue;
      int smem = (int)std::min<size_t>(c.prop.sharedMemPerMultiprocessor / b -
                                           c.prop.reservedSharedMemPerBlock, optin);
      int grid = b * sms;
      double per_iter[2] = {0, 0}, blocks = 0;
      for (int bar = 0; bar < 2; ++bar) {
        std::vector<double> v;
        for (int r = 0; r < 3; ++r) {
          if (bar) k_bar_fma<true><<<grid, 32 * w, smem, c.s>>>(c.d_out, d_rec, iters, 0.9999f, 1e-4f);
          else k_bar_fma<false><<<grid, 32 * w, smem, c.s>>>(c.d_out, d_rec, iters, 0.9999f, 1e-4f);
          CK_LAUNCH();
          CK(cudaStreamSynchronize(c.s));
          std::vector<BlockRec> recs(grid);
          CK(cudaMemcpy(recs.data(), d_rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
          v.push_back(per_sm_span(recs, &blocks) / iters);
        }
        per_iter[bar] = median(v);
        x.raw.row("barrier", bar ? "fma+syncthreads" : "fma", "warps_per_block", w,
                  "blocks_per_sm", b, "cycles_per_iteration", per_iter[bar], "cycles");
      }
      double cost = per_iter[1] - per_iter[0];
      x.raw.row("barrier", "above_fma", "warps_per_block", w, "blocks_per_sm", b,
                "cycles_per_barrier", cost, "cycles");
      x.raw.row("barrier", "resident", "warps_per_block", w, "blocks_per_sm", b,
                "blocks_seen_per_sm", blocks, "blocks");
      fprintf(stderr, "  barrier: %2d warps x %d blocks/SM: %.1f cycles/iteration (FFMA alone "
              "%.1f): %.1f per barrier\n", w, b, per_iter[1], per_iter[0], cost);
      if (b == 1) {
        fit_n += 1; sx += w; sy += cost; sxx += (double)w * w; sxy += w * cost;
        if (w == 8) x.key("barrier_fma_cycles", cost, 1,
                          "one FFMA + __syncthreads loop, 8 warps, 1 block/SM, cycles per barrier "
                          "above the FFMA chain");
      }
    }
  double slope = (fit_n * sxy - sx * sy) / (fit_n * sxx - sx * sx);
  double icpt = (sy - slope * sx) / fit_n;
  x.key("barrier_base_cycles", icpt, 1,
        "barrier above FFMA, 1 block/SM: least-squares intercept over 1..32 warps");
  x.key("barrier_per_warp_cycles", slope, 2,
        "barrier above FFMA, 1 block/SM: least-squares slope per warp of the block");
  CK(cudaFree(d_rec));
}

// Global atomics against distinct addresses per warp and per grid, int and float; a full
// wave of 256-thread blocks. Iterations are doubled until a launch takes >= 0.5 ms; the
// rate is the atomics of I extra iterations over the time difference between 2I and I
// iterations (launch cost cancels). Rates are atomics per SM clock for the whole GPU.
static void measure_atomics(Ctx &c, const Measured &m, Ext &x) {
  const int bs = 256;
  const int sms = c.prop.multiProcessorCount;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_gatomic<unsigned>, bs, 0));
  const int grid = per_sm * sms;
  const double threads = (double)grid * bs;
  void *buf = nullptr;
  const size_t words = size_t(4) << 20;
  CK(cudaMalloc(&buf, words * 4));
  CK(cudaMemset(buf, 0, words * 4));
  const unsigned per_warp[5] = {1, 2, 4, 8, 32};
  const unsigned per_grid[5] = {1, 32, 1024, 1u << 20, 0};  // 0: all distinct (no wrap)
  const double hz = m.clock_mhz * 1e6;
  double same[2] = {0, 0}, distinct[2] = {0, 0}, warp_own[2] = {0, 0};
  for (int fl = 0; fl < 2; ++fl)
    for (unsigned g : per_grid)
      for (unsigned w : per_warp) {
        auto launch = [&](int it) {
          if (fl) k_gatomic<float><<<grid, bs, 0, c.s>>>((float *)buf, w, g, it, 1.0f);
          else k_gatomic<unsigned><<<grid, bs, 0, c.s>>>((unsigned *)buf, w, g, it, 1u);
        };
        int it = 2;
        double t1 = time_ms(c, 3, [&] { launch(it); });
        while (t1 < 0.5 && it < 4096) {
          it *= 2;
          t1 = time_ms(c, 3, [&] { launch(it); });
        }
        double t2 = time_ms(c, 3, [&] { launch(2 * it); });
        double dt = std::max(t2 - t1, 1e-6);
        double rate = threads * it / (dt * 1e-3) / hz;  // atomics per SM clock, whole GPU
        double grid_addrs = g ? std::min<double>(g, threads) : threads / 32 * w;
        const char *ty = fl ? "f32" : "u32";
        x.raw.row("atomic_global", ty, "addresses_per_warp", w, "addresses_per_grid",
                  g ? (double)g : 0, "atomics_per_cycle", rate, "atomics/SM-cycle (GPU)");
        x.raw.row("atomic_global", ty, "addresses_per_warp", w, "addresses_per_grid",
                  g ? (double)g : 0, "atomics_per_cycle_per_address", rate / grid_addrs,
                  "atomics/SM-cycle/address");
        if (g == 1 && w == 1) same[fl] = rate;
        if (g == 0 && w == 32) distinct[fl] = rate;
        if (g == 0 && w == 1) warp_own[fl] = rate;
      }
  fprintf(stderr, "  global atomics per SM clock: one address %.2f (f32 %.2f), one per warp "
          "%.1f (f32 %.1f), all distinct %.1f (f32 %.1f)\n", same[0], same[1], warp_own[0],
          warp_own[1], distinct[0], distinct[1]);
  x.key("atomic_same_address_per_cycle", same[0], 3,
        fmt("int atomicAdd (RED), whole grid on one word; float: %.3f", same[1]));
  x.key("atomic_warp_address_per_cycle", warp_own[0], 2,
        fmt("int atomicAdd, one word per warp, distinct per warp, GPU total; float: %.2f",
            warp_own[1]));
  x.key("atomic_distinct_per_cycle", distinct[0], 2,
        fmt("int atomicAdd, every thread its own word, GPU total; float: %.2f", distinct[1]));

  // Warp-uniform addresses (k_gatomic_uniform): rates in warp-level atomic instructions per
  // SM clock for the whole GPU, the grid on one word and one word per block.
  {
    int per_sm_u = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_u, k_gatomic_uniform<2, false>,
                                                     bs, 0));
    const int grid_u = per_sm_u * sms;
    const double warps = (double)grid_u * bs / 32;
    const char *names[4] = {"u32_add_uniform", "u32_inc1_uniform", "u32_inc1_result_uniform",
                            "f32_add_uniform"};
    double uni[4] = {0, 0, 0, 0};
    for (int mode = 0; mode < 4; ++mode)
      for (int pb = 0; pb < 2; ++pb) {
        CK(cudaMemset(buf, 0, words * 4));
        const unsigned v = mode == 3 ? 0x3f800000u : 3u;  // 1.0f or 3
        auto launch = [&](int it) {
          unsigned *b = (unsigned *)buf, *sk = (unsigned *)c.d_sink;
          switch (mode * 2 + pb) {
            case 0: k_gatomic_uniform<0, false><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            case 1: k_gatomic_uniform<0, true><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            case 2: k_gatomic_uniform<1, false><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            case 3: k_gatomic_uniform<1, true><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            case 4: k_gatomic_uniform<2, false><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            case 5: k_gatomic_uniform<2, true><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            case 6: k_gatomic_uniform<3, false><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
            default: k_gatomic_uniform<3, true><<<grid_u, bs, 0, c.s>>>(b, it, v, sk); break;
          }
        };
        int it = 2;
        double t1 = time_ms(c, 3, [&] { launch(it); });
        while (t1 < 0.5 && it < (1 << 16)) {
          it *= 2;
          t1 = time_ms(c, 3, [&] { launch(it); });
        }
        double t2 = time_ms(c, 3, [&] { launch(2 * it); });
        double dt = std::max(t2 - t1, 1e-6);
        double wrate = warps * it / (dt * 1e-3) / hz;  // warp instructions per SM clock, GPU
        double addrs = pb ? grid_u : 1;
        x.raw.row("atomic_global", names[mode], "addresses_per_warp", 1, "addresses_per_grid",
                  addrs, "warp_atomics_per_cycle", wrate, "warp atomics/SM-cycle (GPU)");
        x.raw.row("atomic_global", names[mode], "addresses_per_warp", 1, "addresses_per_grid",
                  addrs, "atomics_per_cycle", wrate * 32, "lane atomics/SM-cycle (GPU)");
        if (!pb) uni[mode] = wrate;
      }
    fprintf(stderr, "  warp-uniform global atomics, warp instructions per SM clock (one word): "
            "add %.3f, +1 %.3f, +1 with result %.3f, f32 %.3f\n", uni[0], uni[1], uni[2],
            uni[3]);
    x.key("atomic_uniform_warps_per_cycle", uni[0], 3,
          "int atomicAdd of a value, whole grid on one word given as a kernel argument, result "
          "unused (one RED per warp): warp instructions, GPU total");
    x.key("atomic_uniform_inc_warps_per_cycle", uni[1], 3,
          "as above with atomicAdd(p, 1), result unused");
    x.key("atomic_uniform_result_warps_per_cycle", uni[2], 3,
          "as above with slot = atomicAdd(p, 1), result used (a queue append)");
    x.key("atomic_uniform_f32_warps_per_cycle", uni[3], 3,
          "float atomicAdd of a value, whole grid on one word, result unused");
  }

  // Latency of one uncontended float atomic (the int one is atomic_cycles).
  CK(cudaMemset(buf, 0, 256));
  std::vector<double> v;
  for (int r = 0; r < 5; ++r) {
    k_atomic_chain_f32<<<1, 1, 0, c.s>>>((float *)buf, 1024, (float *)c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back(read_cycles(c) / 1024.0);
  }
  double f32_lat = median(v);
  x.raw.row("atomic_latency", "f32", "threads", 1, "addresses", 1, "cycles", f32_lat, "cycles");
  if (!std::isnan(m.atomic_cyc))  // measured with the core values (not under --only)
    x.raw.row("atomic_latency", "u32", "threads", 1, "addresses", 1, "cycles", m.atomic_cyc,
              "cycles");
  x.key("atomic_f32_cycles", f32_lat, 1, "dependent float atomicAdd on one global word (ATOM)");
  CK(cudaFree(buf));
}

// Shared-memory atomics against lanes per address and bins: full occupancy of 256-thread
// blocks, 64 atomics per thread; cycles per warp-wide atomic instruction per SM
// (median over SMs of span / (warps x iterations)).
template <int MODE>
static double smem_atomic_cycles(Ctx &c, unsigned lpa, unsigned bins) {
  const int bs = 256, iters = 64;
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_satomic<MODE>, bs, 0));
  int grid = per_sm * c.prop.multiProcessorCount;
  BlockRec *d_rec = nullptr;
  CK(cudaMalloc(&d_rec, grid * sizeof(BlockRec)));
  std::vector<double> v;
  for (int r = 0; r < 3; ++r) {
    k_satomic<MODE><<<grid, bs, 0, c.s>>>((unsigned *)c.d_out, d_rec, iters, lpa, bins,
                                          MODE == 2 ? 0x3f800000u : 3u);
    CK_LAUNCH();
    CK(cudaStreamSynchronize(c.s));
    std::vector<BlockRec> recs(grid);
    CK(cudaMemcpy(recs.data(), d_rec, grid * sizeof(BlockRec), cudaMemcpyDeviceToHost));
    v.push_back(1.0 / per_sm_rate(recs, (double)(bs / 32) * iters, nullptr));
  }
  CK(cudaFree(d_rec));
  return median(v);
}

static void measure_smem_atomics(Ctx &c, Ext &x) {
  const unsigned lpa[6] = {1, 2, 4, 8, 16, 32}, bins[3] = {1, 32, 256};
  const char *names[3] = {"u32_add", "u32_inc1", "f32_add"};
  double cyc[3][6] = {{0}};
  for (int mode = 0; mode < 3; ++mode)
    for (unsigned b : bins)
      for (int i = 0; i < 6; ++i) {
        // One bin: every lane of every warp names the same word whatever lanes_per_address
        // says (index mod 1 = 0), so only the 32-lane point is a distinct configuration.
        if (b == 1 && lpa[i] != 32) continue;
        double v = mode == 0 ? smem_atomic_cycles<0>(c, lpa[i], b)
                   : mode == 1 ? smem_atomic_cycles<1>(c, lpa[i], b)
                               : smem_atomic_cycles<2>(c, lpa[i], b);
        x.raw.row("atomic_shared", names[mode], "lanes_per_address", lpa[i], "bins", b,
                  "cycles_per_warp_instruction", v, "SM cycles");
        if (b == 256) cyc[mode][i] = v;
      }
  // Cost per colliding lane: least-squares slope of cycles against lanes per address
  // (256 bins, so no two warps of a block share a bin).
  auto slope = [&](const double *y) {
    double n = 6, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < 6; ++i) {
      sx += lpa[i]; sy += y[i]; sxx += (double)lpa[i] * lpa[i]; sxy += lpa[i] * y[i];
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
  };
  fprintf(stderr, "  shared atomics, cycles per warp instruction per SM (256 bins), lanes per "
          "address 1/32: add %.1f/%.1f, +1 %.1f/%.1f, f32 %.1f/%.1f\n", cyc[0][0], cyc[0][5],
          cyc[1][0], cyc[1][5], cyc[2][0], cyc[2][5]);
  x.key("shared_atomic_cycles", cyc[0][0], 2,
        "int atomicAdd of a run-time value, 32 distinct words, SM cycles per warp instruction");
  x.key("shared_atomic_conflict_cycles", slope(cyc[0]), 2,
        fmt("slope per colliding lane of the above (+1 as ATOMS.POPC.INC: %.2f, f32: %.2f)",
            slope(cyc[1]),
            slope(cyc[2])));
  // +1 with the result unused (ATOMS.POPC.INC): flat in the lanes per address, so the
  // median over the six 256-bin points.
  std::vector<double> inc(cyc[1], cyc[1] + 6);
  x.key("shared_atomic_inc_cycles", median(inc), 2,
        "int atomicAdd(p, 1), result unused (ATOMS.POPC.INC), SM cycles per warp instruction, "
        "median over 1..32 lanes per address");
}

// Dependent-issue latency and ILP throughput of one class: raw rows and two keys;
// returns the latency.
template <class Op, int ILP>
static double lat_tp(Ctx &c, const OpArgs &a, Ext &x, const char *name, const char *cyc_key,
                   const char *lanes_key, const char *what, int iters) {
  double lat = latency<Op>(c, a);
  double tp = throughput<Op, ILP>(c, a, iters);
  x.raw.row("instruction", name, "ilp", 1, "warps", 1, "latency", lat, "cycles");
  x.raw.row("instruction", name, "ilp", ILP, "threads_per_block", 256, "throughput", tp,
            "results/SM-cycle");
  fprintf(stderr, "  %-14s latency %6.2f cycles, %6.1f results/clock/SM\n", name, lat, tp);
  x.key(cyc_key, lat, 1, fmt("%s, dependent chain", what));
  x.key(lanes_key, tp, 1, fmt("%s, %d independent chains per thread", what, ILP));
  return lat;
}

// An instruction measured in a two-instruction step (Op::OPS == 2: the instruction, then
// a partner that keeps ptxas from folding the chain). Latency key: step latency minus
// the partner's own dependent latency `partner_cyc`; lanes key: throughput of the step
// times `count` (2: both instructions per clock, when they share a pipe; 1: steps per
// clock, when the instruction's pipe alone limits the rate). The step's own latency
// and throughput go to the raw table as well.
template <class Op, int ILP>
static void lat_tp_pair(Ctx &c, const OpArgs &a, Ext &x, const char *name, const char *cyc_key,
                        const char *lanes_key, const char *what, const char *partner,
                        double partner_cyc, int count, int iters) {
  double step_cyc = latency<Op>(c, a) * Op::OPS;
  double steps = throughput<Op, ILP>(c, a, iters) / Op::OPS;
  double lat = step_cyc - partner_cyc, tp = steps * count;
  std::string step = fmt("%s+%s", name, partner);
  x.raw.row("instruction", step, "ilp", 1, "warps", 1, "latency", step_cyc, "cycles");
  x.raw.row("instruction", step, "ilp", ILP, "threads_per_block", 256, "throughput", steps,
            "steps/SM-cycle");
  x.raw.row("instruction", name, "ilp", 1, "warps", 1, "latency", lat, "cycles");
  x.raw.row("instruction", name, "ilp", ILP, "threads_per_block", 256, "throughput", tp,
            count == 2 ? "instructions/SM-cycle" : "results/SM-cycle");
  fprintf(stderr, "  %-14s latency %6.2f cycles (step with %s %.2f), %6.1f per clock/SM\n", name,
          lat, partner, step_cyc, tp);
  x.key(cyc_key, lat, 1,
        fmt("%s: chain of %s + %s steps, %.1f cycles per step, less %.1f for the %s alone",
            what, name, partner, step_cyc, partner_cyc, partner));
  x.key(lanes_key, tp, 1,
        count == 2 ? fmt("%s: %s + %s steps, %d independent chains per thread, both "
                         "instructions counted", what, name, partner, ILP)
                   : fmt("%s: %s + %s steps, %d independent chains per thread, %s results",
                         what, name, partner, ILP, name));
}

// Warp operations (ILP 4) and integer / conversion pipes (ILP 8).
static void measure_instructions(Ctx &c, const OpArgs &a, Ext &x) {
  lat_tp<OpShfl, 4>(c, a, x, "shfl_idx", "shfl_cycles", "shfl_lanes", "__shfl_sync (SHFL.IDX)", 256);
  lat_tp<OpShflDown, 4>(c, a, x, "shfl_down", "shfl_down_cycles", "shfl_down_lanes",
                        "__shfl_down_sync (SHFL.DOWN)", 256);
  lat_tp<OpBallot, 4>(c, a, x, "ballot", "vote_cycles", "vote_lanes",
                      "__ballot_sync step (LOP3 + VOTE.ANY + IADD3)", 256);
  lat_tp<OpAll, 4>(c, a, x, "all", "vote_all_cycles", "vote_all_lanes",
                   "__all_sync step (LOP3 + VOTE.ALL + IADD3)", 256);
  if (c.prop.major >= 7)
    lat_tp<OpMatch, 4>(c, a, x, "match_any", "match_cycles", "match_lanes",
                       "__match_any_sync (MATCH.ANY)", 64);
  if (c.prop.major >= 8)
    lat_tp<OpRedux, 4>(c, a, x, "reduce_add", "warp_reduce_cycles", "warp_reduce_lanes",
                       "__reduce_add_sync (REDUX.SUM)", 256);
  double add_cyc = lat_tp<OpIadd, 8>(c, a, x, "iadd", "int32_add_cycles", "int32_add_lanes",
                                     "add.u32 Fibonacci pair (IADD3 / IMAD.IADD)", 1024);
  lat_tp_pair<OpXor, 8>(c, a, x, "xor", "int32_logic_cycles", "int32_logic_lanes",
                        "xor.b32 (LOP3)", "add.u32", add_cyc, 2, 1024);
  lat_tp_pair<OpAnd, 8>(c, a, x, "and", "int32_and_cycles", "int32_and_lanes", "and.b32 (LOP3)",
                        "add.u32", add_cyc, 2, 1024);
  lat_tp<OpShl, 8>(c, a, x, "shl", "int32_shift_cycles", "int32_shift_lanes",
                   "shl.b32 by a register (SHF.L)", 1024);
  lat_tp<OpMul, 8>(c, a, x, "imul", "int32_mul_cycles", "int32_mul_lanes", "mul.lo.u32 (IMAD)", 1024);
  lat_tp<OpIdiv, 8>(c, a, x, "idiv", "idiv_cycles", "idiv_lanes",
                    "signed int / run-time divisor (nvcc's sequence)", 64);
  lat_tp<OpImod, 8>(c, a, x, "imod", "imod_cycles", "imod_lanes",
                    "signed int % run-time divisor (nvcc's sequence)", 64);
  lat_tp<OpFdiv, 8>(c, a, x, "fdiv", "fdiv_cycles", "fdiv_lanes", "fp32 IEEE '/' (fast path)", 64);
  lat_tp<OpRcp, 8>(c, a, x, "rcp_rn", "rcp_cycles", "rcp_lanes", "__frcp_rn (fast path)", 64);
  double ffma_cyc = latency<OpFp32>(c, a);
  x.raw.row("instruction", "ffma", "ilp", 1, "warps", 1, "latency", ffma_cyc, "cycles");
  lat_tp_pair<OpRcpFast, 8>(c, a, x, "rcp_approx", "rcp_fast_cycles", "rcp_fast_lanes",
                            "rcp.approx.ftz (MUFU.RCP)", "FFMA", ffma_cyc, 1, 256);
  lat_tp<OpF2i, 8>(c, a, x, "f2i", "f2i_cycles", "f2i_lanes", "cvt.rni.s32.f32 (F2I)", 256);
  lat_tp<OpI2f, 8>(c, a, x, "i2f", "i2f_cycles", "i2f_lanes", "cvt.rn.f32.s32 (I2F)", 256);
  if (c.prop.major >= 8)
    lat_tp<OpF2h, 8>(c, a, x, "f2h", "f2h_cycles", "f2h_lanes",
                     "cvt.rn.f16x2.f32 (F2FP.F16.F32.PACK_AB)", 256);
}

// A node of the dependency-gap chains: `iters` dependent FMAs per thread, a store; block 0's
// thread 0 stamps its start and end (%globaltimer, ns) into stamp[0..1] when stamp is set.
__global__ void k_gap_node(float *out, int iters, unsigned long long *stamp) {
  unsigned long long t0 = 0, t1;
  if (stamp && blockIdx.x == 0 && threadIdx.x == 0) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  float v = (float)threadIdx.x;
  for (int i = 0; i < iters; ++i) v = fmaf(v, 0.999f, 0.5f);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  if (stamp && blockIdx.x == 0 && threadIdx.x == 0) {
    __threadfence();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    stamp[0] = t0;
    stamp[1] = t1;
  }
}

// Mean gap (us) from one node's end to the next one's start over `n` stamped nodes.
static double stamp_gap_us(const unsigned long long *d, int n) {
  std::vector<unsigned long long> h(2 * (size_t)n);
  CK(cudaMemcpy(h.data(), d, h.size() * sizeof h[0], cudaMemcpyDeviceToHost));
  double sum = 0;
  for (int k = 1; k < n; ++k) {
    if (!(h[2 * k] >= h[2 * k - 1] && h[2 * k - 1] > 0)) {
      fprintf(stderr, "gpuperf-calibrate: graph gap stamps of node %d out of order\n", k);
      exit(1);
    }
    sum += double(h[2 * k] - h[2 * k - 1]);
  }
  return sum / (n - 1) * 1e-3;
}

// Graph launches of N empty kernel nodes against N stream launches. Back-to-back:
// R = max(2, 1000 / N) launches between two events, per launch; single: one launch
// between events. Then, with kernels that work (1000 dependent FMAs, a store): the gap from
// a kernel's end to the start of the next one in a chain of 200, in a stream and in a graph
// (kernel_dep_gap_us, graph_dep_gap_us, from in-kernel stamps), and 8 independent chains of
// 200 store-only nodes in one graph, bound by the GPU releasing the nodes one at a time:
// graph_node_us = t / 1600. graph_launch_us = t(one-node graph, back to back) - graph_node_us.
static void measure_graphs(Ctx &c, Ext &x) {
  const int ns[4] = {1, 10, 100, 1000};
  double tg[4] = {0};
  for (int i = 0; i < 4; ++i) {
    int n = ns[i], reps = std::max(2, 1000 / n);
    cudaGraph_t g = nullptr;
    cudaGraphExec_t ge = nullptr;
    CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
    for (int k = 0; k < n; ++k) k_empty<<<1, 32, 0, c.s>>>();
    CK(cudaStreamEndCapture(c.s, &g));
    CK(cudaGraphInstantiate(&ge, g, 0));
    CK(cudaGraphUpload(ge, c.s));
    double graph = time_ms(c, 7, [&] {
      for (int r = 0; r < reps; ++r) CK(cudaGraphLaunch(ge, c.s));
    }) * 1e3 / reps;
    double graph1 = time_ms(c, 11, [&] { CK(cudaGraphLaunch(ge, c.s)); }) * 1e3;
    double stream = time_ms(c, 7, [&] {
      for (int r = 0; r < reps; ++r)
        for (int k = 0; k < n; ++k) k_empty<<<1, 32, 0, c.s>>>();
    }) * 1e3 / reps;
    CK(cudaGraphExecDestroy(ge));
    CK(cudaGraphDestroy(g));
    tg[i] = graph;
    x.raw.row("launch", "graph_back_to_back", "kernels", n, "launches", reps, "us_per_launch", graph, "us");
    x.raw.row("launch", "graph_single", "kernels", n, "launches", 1, "us_per_launch", graph1, "us");
    x.raw.row("launch", "stream_back_to_back", "kernels", n, "launches", reps, "us_per_launch", stream, "us");
    fprintf(stderr, "  %4d empty kernels: graph %.1f us (single %.1f us), stream %.1f us\n", n,
            graph, graph1, stream);
  }
  x.raw.row("launch", "graph_chain_node", "kernels", 1000, "launches", 2, "us_per_node",
            (tg[3] - tg[2]) / 900.0, "us");
  // dependency gaps and the release of independent nodes
  const int chain = 200, branches = 8;
  float *out = nullptr;
  unsigned long long *stamps = nullptr;
  CK(cudaMalloc(&out, (size_t)branches * 32 * sizeof(float)));
  CK(cudaMalloc(&stamps, (size_t)2 * chain * sizeof *stamps));
  auto chain_of = [&](cudaStream_t st, int iters, float *o, bool stamp) {
    for (int k = 0; k < chain; ++k)
      k_gap_node<<<1, 32, 0, st>>>(o, iters, stamp ? stamps + 2 * k : nullptr);
  };
  double t = time_ms(c, 5, [&] { chain_of(c.s, 1000, out, true); });
  (void)t;
  CK(cudaDeviceSynchronize());
  double stream_gap = stamp_gap_us(stamps, chain);
  cudaGraph_t g = nullptr;
  cudaGraphExec_t ge = nullptr;
  CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
  chain_of(c.s, 1000, out, true);
  CK(cudaStreamEndCapture(c.s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphUpload(ge, c.s));
  t = time_ms(c, 5, [&] { CK(cudaGraphLaunch(ge, c.s)); });
  CK(cudaDeviceSynchronize());
  double graph_gap = stamp_gap_us(stamps, chain);
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  // 8 chains forked from and joined to c.s, captured into one graph
  std::vector<cudaStream_t> br(branches);
  std::vector<cudaEvent_t> ev(branches + 1);
  for (auto &b : br) CK(cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking));
  for (auto &e : ev) CK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  CK(cudaStreamBeginCapture(c.s, cudaStreamCaptureModeThreadLocal));
  CK(cudaEventRecord(ev[0], c.s));
  for (int b = 0; b < branches; ++b) CK(cudaStreamWaitEvent(br[b], ev[0], 0));
  for (int k = 0; k < chain; ++k)
    for (int b = 0; b < branches; ++b) k_gap_node<<<1, 32, 0, br[b]>>>(out + 32 * b, 0, nullptr);
  for (int b = 0; b < branches; ++b) {
    CK(cudaEventRecord(ev[1 + b], br[b]));
    CK(cudaStreamWaitEvent(c.s, ev[1 + b], 0));
  }
  CK(cudaStreamEndCapture(c.s, &g));
  CK(cudaGraphInstantiate(&ge, g, 0));
  CK(cudaGraphUpload(ge, c.s));
  double wide = time_ms(c, 7, [&] { CK(cudaGraphLaunch(ge, c.s)); }) * 1e3;
  CK(cudaGraphExecDestroy(ge));
  CK(cudaGraphDestroy(g));
  for (auto &b : br) CK(cudaStreamDestroy(b));
  for (auto &e : ev) CK(cudaEventDestroy(e));
  CK(cudaFree(out));
  CK(cudaFree(stamps));
  x.raw.row("launch", "stream_dep_gap", "kernels", chain, "fma", 1000, "gap", stream_gap, "us");
  x.raw.row("launch", "graph_dep_gap", "kernels", chain, "fma", 1000, "gap", graph_gap, "us");
  x.raw.row("launch", "graph_wide", "branches", branches, "kernels", branches * chain, "us_per_replay", wide, "us");
  fprintf(stderr, "  dependency gap: stream %.3f us, graph %.3f us; %d x %d store-only nodes %.1f us\n",
          stream_gap, graph_gap, branches, chain, wide);
  double node = wide / (branches * chain);
  x.key("graph_node_us", node, 3, "8 independent chains of 200 store-only nodes in one graph: t / 1600");
  x.key("graph_launch_us", tg[0] - node, 2, "graph of one empty kernel, back to back, less one node");
  x.key("kernel_dep_gap_us", stream_gap, 2, "stream chain of 200 kernels of 1000 FMAs: end to next start");
  x.key("graph_dep_gap_us", graph_gap, 2, "graph chain of 200 kernels of 1000 FMAs: end to next start");
}

// Random cyclic order of n nodes (Sattolo's shuffle, splitmix64 + multiply-shift).
static std::vector<uint32_t> sattolo(size_t n, u64 seed) {
  std::vector<uint32_t> o(n);
  std::iota(o.begin(), o.end(), 0u);
  u64 s = seed;
  for (size_t i = n - 1; i > 0; --i) {
    s += 0x9e3779b97f4a7c15ull;
    u64 z = s;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    size_t j = (size_t)(((unsigned __int128)z * i) >> 64);  // 0 .. i-1
    std::swap(o[i], o[j]);
  }
  return o;
}

// Build a chain through the byte offsets `offs` (in visiting order) on the device.
static void build_offsets(u64 base, const std::vector<u64> &offs) {
  u64 *d = nullptr;
  CK(cudaMalloc(&d, offs.size() * 8));
  CK(cudaMemcpy(d, offs.data(), offs.size() * 8, cudaMemcpyHostToDevice));
  k_build_chain<<<1024, 256>>>(base, d, offs.size());
  CK_LAUNCH();
  CK(cudaDeviceSynchronize());
  CK(cudaFree(d));
}

// One chase: `warm` untimed hops then `hops` timed hops from `base`; median of 3 (L2
// flushed before each when flush), cycles per hop.
static double chase_run(Ctx &c, u64 base, int warm, int hops, bool l2_only, bool flush) {
  std::vector<double> v;
  for (int r = 0; r < 3; ++r) {
    if (flush) CK(cudaMemsetAsync(c.scratch, r, size_t(1) << 30, c.s));
    if (l2_only) k_chase<true><<<1, 1, 0, c.s>>>(base, warm, hops, c.d_sink, c.d_cycles);
    else k_chase<false><<<1, 1, 0, c.s>>>(base, warm, hops, c.d_sink, c.d_cycles);
    CK_LAUNCH();
    v.push_back((double)read_cycles(c) / hops);
  }
  return median(v);
}

// Dependent-load latency against footprint (16 KiB .. 4 GiB), nodes 128 B apart, walked
// in order or in a random cyclic order, ld.global.ca, one thread. Footprints up to 64 MiB:
// a full untimed pass, then 8192 timed hops (steady state at that re-use distance);
// larger: L2 flushed, 8192 timed hops.
// Beyond 4 GiB a chain through every line is too large to build, so a sparse random
// chain takes over: 65536 lines, one at a random place in each of 65536 equal slots of
// the footprint (1 GiB .. 64 GiB, at most half the device memory), in random order; L2
// flushed, 8192 timed hops, each repetition on a fresh part of the chain. At 64 GiB the
// hops land on random 2 MiB pages of 32768, more than the TLBs hold: dram_random_cycles
// is the largest such footprint (DRAM latency with the page walk).
// TLB: one node per 2 MiB page (line offsets spread by a hash), 8 pages up to the buffer
// (32768 pages = 64 GiB) in random order, ld.global.cg: two untimed passes, then 4096
// timed hops, so every line is an L2 hit and only the translation changes.
static const size_t kKiB = 1024, kMiB = kKiB * kKiB, kGiB = kKiB * kMiB, kPage = 2 * kMiB;

// Lane 0 of each block follows the chain from start[block] for `hops` hops; cyc[block]
// gets its clock64 cycles (the last address goes to sink, so the chase is not dropped).
__global__ void k_spread(const u64 *start, int hops, long long *cyc, u64 *sink) {
  if (threadIdx.x != 0) return;
  u64 p = start[blockIdx.x];
  long long t0 = clock64();
  for (int i = 0; i < hops; ++i) p = load_ca(p);
  long long t1 = clock64();
  cyc[blockIdx.x] = t1 - t0;
  if (p == 1) *sink = p;
}

// A launch whose SMs all wait on loads ends with its slowest SM (l2_slowest_sm_ratio,
// dram_slowest_sm_ratio): lane 0 of one block on each SM follows a random cycle of
// 128-byte nodes from its own place on it, 4096 hops; the slowest block's clock64 cycles
// per hop with a block on every SM over a single block's. Through 4 MiB after an untimed
// launch that walks the same nodes (L2 hits), and through 1 GiB (at most an eighth of the
// device memory) behind the 1 GiB flush (DRAM). Median of 3.
static void measure_spread(Ctx &c, Ext &x) {
  const int S = c.prop.multiProcessorCount, hops = 4096;
  const size_t big = std::min<size_t>(kGiB, c.prop.totalGlobalMem / 8) / kPage * kPage;
  char *buf = nullptr;
  u64 *d_start = nullptr;
  long long *d_cyc = nullptr;
  CK(cudaMalloc(&buf, big + kPage));
  CK(cudaMalloc(&d_start, S * sizeof(u64)));
  CK(cudaMalloc(&d_cyc, S * sizeof(long long)));
  const u64 base = ((u64)buf + kPage - 1) & ~(u64)(kPage - 1);
  std::vector<long long> cyc(S);
  for (int level = 0; level < 2; ++level) {
    const size_t fp = level ? big : 4 * kMiB, n = fp / 128;
    std::vector<uint32_t> o = sattolo(n, 0x5d7ead00ull + n);
    std::vector<u64> offs(n), start(S);
    for (size_t k = 0; k < n; ++k) offs[k] = (u64)o[k] * 128;
    build_offsets(base, offs);
    for (int b = 0; b < S; ++b) start[b] = base + offs[(size_t)b * (n / S) % n];
    CK(cudaMemcpy(d_start, start.data(), S * sizeof(u64), cudaMemcpyHostToDevice));
    double per[2];
    for (int all = 0; all < 2; ++all) {
      const int k = all ? S : 1;
      std::vector<double> v;
      for (int r = 0; r < 3; ++r) {
        if (level) CK(cudaMemsetAsync(c.scratch, r, size_t(1) << 30, c.s));
        else k_spread<<<k, 32, 0, c.s>>>(d_start, hops, d_cyc, c.d_sink);  // the lap into L2
        k_spread<<<k, 32, 0, c.s>>>(d_start, hops, d_cyc, c.d_sink);
        CK_LAUNCH();
        CK(cudaStreamSynchronize(c.s));
        CK(cudaMemcpy(cyc.data(), d_cyc, k * sizeof(long long), cudaMemcpyDeviceToHost));
        v.push_back((double)*std::max_element(cyc.begin(), cyc.begin() + k) / hops);
      }
      per[all] = median(v);
      x.raw.row("spread", level ? "dram" : "l2", "footprint_bytes", (double)fp, "blocks", k,
                "slowest_cycles_per_hop", per[all], "cycles");
    }
    fprintf(stderr, "  %s chase, slowest of %d SMs over one: %.1f / %.1f cycles a hop\n",
            level ? "DRAM" : "L2", S, per[1], per[0]);
    x.key(level ? "dram_slowest_sm_ratio" : "l2_slowest_sm_ratio", per[1] / per[0], 3,
          level ? "random chase behind the flush, the slowest block of one per SM over one block"
                : "random chase through 4 MiB, the slowest block of one per SM over one block");
  }
  CK(cudaFree(d_cyc));
  CK(cudaFree(d_start));
  CK(cudaFree(buf));
}

// The chase buffer: min(64 GiB, half the device memory), 2 MiB aligned at `base`.
struct ChaseBuf {
  char *buf = nullptr;
  u64 base = 0;
  size_t total = 0;
  explicit ChaseBuf(const Ctx &c) {
    total = std::min<size_t>(64 * kGiB, c.prop.totalGlobalMem / 2) / kPage * kPage;
    CK(cudaMalloc(&buf, total + kPage));
    base = ((u64)buf + kPage - 1) & ~(u64)(kPage - 1);
  }
  ~ChaseBuf() { CK(cudaFree(buf)); }
};

static void measure_chase_curve(Ctx &c, Ext &x) {
  const size_t kib = kKiB, mib = kMiB, gib = kGiB;
  const size_t fps[8] = {16 * kib, 256 * kib, 4 * mib, 32 * mib, 64 * mib, 256 * mib,
                         1024 * mib, 4096 * mib};
  ChaseBuf cb(c);
  const size_t total = cb.total;
  const u64 base = cb.base;
  double rnd32 = 0;
  for (int pat = 0; pat < 2; ++pat)
    for (size_t fp : fps) {
      if (fp > total) continue;
      size_t n = fp / 128;
      std::vector<u64> offs(n);
      if (pat == 0) {
        for (size_t k = 0; k < n; ++k) offs[k] = k * 128;
      } else {
        std::vector<uint32_t> o = sattolo(n, 0x5eed0000ull + n);
        for (size_t k = 0; k < n; ++k) offs[k] = (u64)o[k] * 128;
      }
      build_offsets(base, offs);
      bool small = fp <= 64 * mib;
      double cyc = chase_run(c, base, small ? (int)n : 0, 8192, false, !small);
      const char *name = pat ? "random_128B" : "sequential_128B";
      x.raw.row("chase", name, "footprint_bytes", (double)fp, "stride_bytes", 128,
                "cycles_per_hop", cyc, "cycles");
      fprintf(stderr, "  chase %-15s %10zu KiB: %.1f cycles/hop\n", name, fp / kib, cyc);
      if (pat == 1 && fp == 32 * mib) rnd32 = cyc;
    }
  x.key("l2_random_cycles", rnd32, 1, "random chase, 32 MiB footprint, 128 B apart, warm");

  // Sparse random chains over large footprints, cold.
  const size_t nodes = 65536, hops = 8192;
  double rnd_big = 0, fp_big = 0;
  for (size_t fp = gib; fp <= total; fp *= 4) {
    size_t slot_lines = fp / 128 / nodes;
    std::vector<uint32_t> o = sattolo(nodes, 0x5ba5e000ull + fp / gib);
    std::vector<u64> offs(nodes);
    for (size_t k = 0; k < nodes; ++k) {
      u64 h = (u64)o[k] * 0x9e3779b97f4a7c15ull;
      offs[k] = ((u64)o[k] * slot_lines + (h >> 40) % slot_lines) * 128;
    }
    build_offsets(base, offs);
    std::vector<double> v;
    for (int r = 0; r < 3; ++r) {
      CK(cudaMemsetAsync(c.scratch, r, size_t(1) << 30, c.s));
      k_chase<false><<<1, 1, 0, c.s>>>(base + offs[(r * hops) % nodes], 0, (int)hops, c.d_sink,
                                       c.d_cycles);
      CK_LAUNCH();
      v.push_back((double)read_cycles(c) / hops);
    }
    double cyc = median(v);
    x.raw.row("chase", "random_65536_lines", "footprint_bytes", (double)fp, "stride_bytes",
              (double)(slot_lines * 128), "cycles_per_hop", cyc, "cycles");
    fprintf(stderr, "  chase random, 65536 lines over %6zu MiB: %.1f cycles/hop\n", fp / mib,
            cyc);
    rnd_big = cyc;
    fp_big = (double)fp;
  }
  x.key("dram_random_cycles", rnd_big, 1,
        fmt("random chase over %.0f GiB (65536 lines, one per %.0f KiB slot, random 2 MiB "
            "pages), L2 flushed: DRAM latency with TLB misses", fp_big / gib,
            fp_big / nodes / kib));
}

static void measure_tlb(Ctx &c, Ext &x) {
  const size_t mib = kMiB, page = kPage;
  ChaseBuf cb(c);
  const size_t total = cb.total;
  const u64 base = cb.base;
  std::vector<std::pair<double, double>> tlb;
  for (size_t pages = 8; pages <= total / page; pages *= 2) {
    std::vector<uint32_t> o = sattolo(pages, 0x7eb0000ull + pages);
    std::vector<u64> offs(pages);
    for (size_t k = 0; k < pages; ++k)
      offs[k] = (u64)o[k] * page + ((o[k] * 2654435761u) % (page / 128)) * 128;
    build_offsets(base, offs);
    double cyc = chase_run(c, base + offs[0], 2 * (int)pages, 4096, true, false);
    x.raw.row("tlb", "one_line_per_2MiB_page", "pages", (double)pages, "footprint_bytes",
              (double)(pages * page), "cycles_per_hop", cyc, "cycles");
    fprintf(stderr, "  tlb chase %5zu pages (%6zu MiB): %.1f cycles/hop\n", pages,
            pages * page / mib, cyc);
    tlb.push_back(std::make_pair((double)(pages * page), cyc));
  }
  // The step: the largest rise between two consecutive footprints; it counts only if it
  // is over 20 cycles and 5%. Reach: the footprint just below it (with no step, the
  // largest footprint measured, a lower bound). Miss cost: last point minus first.
  double lat0 = 0, latmax = 0, reach = 0, rise = 0;
  size_t at = 0;
  if (!tlb.empty()) {
    lat0 = tlb.front().second;
    latmax = tlb.back().second;
    for (size_t i = 1; i < tlb.size(); ++i)
      if (tlb[i].second - tlb[i - 1].second > rise) {
        rise = tlb[i].second - tlb[i - 1].second;
        at = i;
      }
    bool step = rise > 20 && rise > 0.05 * tlb[at - (at > 0)].second;
    reach = step ? tlb[at - 1].first : tlb.back().first;
    x.raw.row("tlb", "step", "footprint_bytes", step ? tlb[at].first : 0, "pages",
              step ? tlb[at].first / page : 0, "rise_cycles", step ? rise : 0, "cycles");
  }
  x.key("tlb_miss_cycles", latmax - lat0, 1,
        fmt("L2-hit chase, one line per 2 MiB page: %.0f pages minus 8 pages",
            tlb.empty() ? 0.0 : tlb.back().first / page));
  x.key("tlb_reach_bytes", reach, 0,
        "largest page-chase footprint below the largest rise between neighbouring footprints "
        "(> 20 cycles and 5%; none: the largest footprint, a lower bound)");
}

// ---------------------------------------------------------------- output

// What the INI file is made of: device facts, versions, table values, measurements.
struct IniInputs {
  cudaDeviceProp prop;
  int clock_khz, mem_khz;  // cudaDevAttrClockRate, cudaDevAttrMemoryClockRate
  int runtime_version, driver_version;
  std::string date;  // YYYY-MM-DD (UTC)
  const char *arch;
  CcFacts facts;
  Measured m;
  std::vector<CalKey> cal;  // the keys of the extended measurements
};

// Collect the device facts and versions that write_ini needs (from the CUDA runtime).
static IniInputs ini_inputs(const Ctx &c, const Measured &m, const char *arch, const CcFacts &f) {
  IniInputs in;
  in.prop = c.prop;
  CK(cudaDeviceGetAttribute(&in.clock_khz, cudaDevAttrClockRate, c.dev));
  CK(cudaDeviceGetAttribute(&in.mem_khz, cudaDevAttrMemoryClockRate, c.dev));
  CK(cudaRuntimeGetVersion(&in.runtime_version));
  CK(cudaDriverGetVersion(&in.driver_version));
  char date[32];
  time_t now = time(nullptr);
  strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
  in.date = date;
  in.arch = arch;
  in.facts = f;
  in.m = m;
  return in;
}

// The device-file section an extended key belongs to (docs/device-files.md), or nullptr
// for a diagnostic the loader has no key for (written as a comment line).
static const char *cal_section(const std::string &k) {
  auto ends = [&](const char *suf) {
    size_t n = strlen(suf);
    return k.size() >= n && k.compare(k.size() - n, n, suf) == 0;
  };
  if (k == "barrier_fma_cycles" || k.compare(0, 10, "int32_and_") == 0) return nullptr;
  if (k.compare(0, 6, "graph_") == 0 || k == "kernel_dep_gap_us" ||
      k == "block_slot_overhead_cycles")
    return "launch";
  if (k == "tlb_reach_bytes" || ends("_per_cycle")) return "memory";
  if (ends("_slowest_sm_ratio")) return "latency";
  if (k.compare(0, 14, "shared_atomic_") == 0 || ends("_lanes")) return "throughput";
  if (ends("_cycles")) return "latency";
  return nullptr;
}

// Append the extended keys of `section` (nullptr: the diagnostics, as comments).
static void write_cal(std::string &text, const std::vector<CalKey> &cal, const char *section) {
  Ini part;
  for (const CalKey &k : cal) {
    const char *s = cal_section(k.key);
    if (section ? (s && !strcmp(s, section)) : !s)
      part.num(k.key.c_str(), k.value, k.decimals, kMeasured + k.comment);
  }
  if (part.text.empty()) return;
  if (!section) {
    text += "\n; diagnostics of the extended measurements (no device key; the sweeps are in the "
            "--raw table)\n";
    size_t pos = 0;
    while (pos < part.text.size()) {
      size_t nl = part.text.find('\n', pos);
      std::string line = part.text.substr(pos, nl - pos);
      text += (line.compare(0, 1, ";") == 0 ? ";" : "; ") + line + "\n";
      pos = nl + 1;
    }
    return;
  }
  text += part.text;
}

// Write the device INI (no CUDA calls: everything comes in `in`).
static std::string write_ini(const IniInputs &in) {
  const cudaDeviceProp &p = in.prop;
  const Measured &m = in.m;
  const CcFacts &f = in.facts;
  const std::string meas = kMeasured, props = kProps, guide = kGuide;
  double dram_theory = 2.0 * in.mem_khz * 1e3 * p.memoryBusWidth / 8 / 1e9;
  Ini ini;
  ini.text = fmt("; %s, written by gpuperf-calibrate on %s (CUDA runtime %d.%d, driver API %d.%d)\n"
                 "; cycles are SM clock cycles; the SM clock seen under load was %.0f MHz\n",
                 p.name, in.date.c_str(), in.runtime_version / 1000,
                 in.runtime_version % 1000 / 10, in.driver_version / 1000,
                 in.driver_version % 1000 / 10, m.clock_mhz);

  ini.section("device");
  ini.kv("name", p.name, props + "name");
  ini.kv("arch", in.arch, fmt("plugin for compute capability %d.%d", p.major, p.minor));
  ini.kv("compute_capability", fmt("%d.%d", p.major, p.minor), props + "major.minor");
  ini.integer("sm_count", p.multiProcessorCount, props + "multiProcessorCount");
  ini.num("core_clock_mhz", in.clock_khz / 1000.0, 0,
          fmt("cudaDevAttrClockRate (peak); measured under load: %.0f MHz", m.clock_mhz));
  if (m.tensor_clock_mhz > 0 && m.tensor_clock_mhz < 0.99 * m.clock_mhz &&
      m.tensor_clock_mhz <= in.clock_khz / 1000.0)
    ini.num("tensor_clock_mhz", m.tensor_clock_mhz, 0,
            "measured: clock64 / globaltimer of blocks issuing mma.sync m16n8k16");
  ini.num("memory_clock_mhz", in.mem_khz / 1000.0, 0, "cudaDevAttrMemoryClockRate");

  ini.section("sm");
  ini.integer("warp_size", p.warpSize, props + "warpSize");
  ini.integer("max_threads_per_block", p.maxThreadsPerBlock, props + "maxThreadsPerBlock");
  ini.integer("max_threads_per_sm", p.maxThreadsPerMultiProcessor,
              props + "maxThreadsPerMultiProcessor");
  ini.integer("max_blocks_per_sm", p.maxBlocksPerMultiProcessor,
              props + "maxBlocksPerMultiProcessor");
  ini.integer("registers_per_sm", p.regsPerMultiprocessor, props + "regsPerMultiprocessor");
  ini.integer("max_registers_per_block", p.regsPerBlock, props + "regsPerBlock");
  ini.integer("max_registers_per_thread", f.max_regs_per_thread, guide);
  ini.integer("schedulers_per_sm", f.schedulers, guide);
  ini.integer("dispatch_per_scheduler", f.dispatch, guide);
  ini.integer("shared_memory_per_sm_bytes", (long long)p.sharedMemPerMultiprocessor,
              props + "sharedMemPerMultiprocessor");
  ini.integer("shared_memory_per_block_bytes", (long long)p.sharedMemPerBlock,
              props + "sharedMemPerBlock");
  ini.integer("shared_memory_per_block_optin_bytes", (long long)p.sharedMemPerBlockOptin,
              props + "sharedMemPerBlockOptin");
  ini.integer("reserved_shared_memory_per_block_bytes", (long long)p.reservedSharedMemPerBlock,
              props + "reservedSharedMemPerBlock");
  ini.integer("l1_shared_bytes", f.l1_shared_bytes, guide + ": unified L1 + shared memory per SM");
  ini.integer("l1_bytes", 0, "L1 is part of the unified array above (0: no separate L1)");
  ini.integer("max_grid_x", p.maxGridSize[0], props + "maxGridSize[0]");
  ini.integer("max_grid_y", p.maxGridSize[1], props + "maxGridSize[1]");
  ini.integer("max_grid_z", p.maxGridSize[2], props + "maxGridSize[2]");
  ini.integer("max_block_x", p.maxThreadsDim[0], props + "maxThreadsDim[0]");
  ini.integer("max_block_y", p.maxThreadsDim[1], props + "maxThreadsDim[1]");
  ini.integer("max_block_z", p.maxThreadsDim[2], props + "maxThreadsDim[2]");

  ini.section("throughput");
  ini.note("measured rates: every thread runs 8 independent chains of the instruction, one full "
           "wave of 256-thread blocks; results per SM clock (clock64 per SM), median over SMs");
  ini.num("fp32_lanes", m.fp32_tp, 1, meas + "FFMA");
  ini.num("fp64_lanes", m.fp64_tp, 1, meas + "DFMA");
  ini.num("fp16_lanes", m.fp16_tp, 1, meas + "HFMA2, 2 results each");
  ini.num("int32_lanes", m.imad_tp, 1,
          meas + fmt("IMAD (an add/xor mix, VIADD + LOP3 on sm_90, reaches %.1f)", m.int32_tp));
  ini.num("sfu_lanes", m.sfu_tp, 1, meas + "MUFU.RSQ (rsqrt.approx)");
  ini.num("conversion_lanes", m.cvt_tp, 1,
          meas + fmt("F2I/I2F alternating (F2I alone: %.1f)", m.f2i_tp));
  ini.num("ldst_lanes", f.ldst_lanes, 1,
          "LD/ST units per SM as commonly quoted (built-in table; not in the guide; not measured)");
  ini.num("shared_memory_bytes_per_clock", m.smem_bpc, 1,
          meas + "conflict-free 16-byte shared loads, full occupancy");
  const char *wp = "from the NVIDIA architecture whitepaper, dense (not measured)";
  ini.num("tensor_fp16_flops_per_clock", f.t_fp16, 0, wp);
  ini.num("tensor_bf16_flops_per_clock", f.t_bf16, 0, wp);
  ini.num("tensor_tf32_flops_per_clock", f.t_tf32, 0, wp);
  ini.num("tensor_fp64_flops_per_clock", f.t_fp64, 0, wp);
  ini.num("tensor_int8_ops_per_clock", f.t_int8, 0, wp);
  ini.num("tensor_fp8_flops_per_clock", f.t_fp8, 0, wp);
  write_cal(ini.text, in.cal, "throughput");

  ini.section("memory");
  ini.integer("dram_bytes", (long long)p.totalGlobalMem, props + "totalGlobalMem");
  ini.num("dram_bandwidth_gbps", dram_theory, 1,
          fmt("theoretical: 2 x %d MHz x %d-bit bus / 8", in.mem_khz / 1000, p.memoryBusWidth));
  ini.num("dram_sustained_gbps", m.dram_gbps, 1,
          meas + fmt("1 GiB float4 copy, read+write bytes (read only: %.0f)", m.read_gbps));
  if (m.read_gbps >= m.dram_gbps && m.read_gbps <= dram_theory * 1.0001)
    ini.num("dram_read_gbps", m.read_gbps, 1, meas + "1 GiB float4 read");
  ini.integer("l2_bytes", p.l2CacheSize, props + "l2CacheSize");
  ini.num("l2_bandwidth_gbps", m.l2_gbps, 1,
          meas + fmt("%.0f MiB read 32 times with ld.global.cg, warm, full wave", m.l2_buf_mib));
  ini.integer("sector_bytes", f.sector_bytes, guide);
  ini.integer("l1_line_bytes", f.l1_line_bytes, guide);
  ini.integer("dram_fetch_bytes", m.dram_fetch,
              meas + fmt("4-byte reads 32/64/128/256 B apart cost %.0f/%.0f/%.0f/%.0f B each",
                         m.fetch_eff[0], m.fetch_eff[1], m.fetch_eff[2], m.fetch_eff[3]));
  ini.integer("readonly_cache_bytes", 0, "read-only loads use the unified L1 (0: none separate)");
  ini.integer("constant_cache_bytes", f.constant_cache_bytes,
              guide + ": constant cache working set per SM");
  ini.num("pcie_bandwidth_gbps", m.pcie_gbps, 1, meas + "256 MiB pinned host-to-device copy");
  ini.num("pcie_latency_us", m.pcie_us, 2, meas + "4-byte pinned host-to-device copy, events");
  if (m.peer_measured) {
    ini.num("nvlink_bandwidth_gbps", m.peer_gbps, 1,
            meas + "256 MiB cudaMemcpyPeerAsync to the next GPU, peer access on");
    ini.num("nvlink_latency_us", m.peer_us, 2, meas + "4-byte cudaMemcpyPeerAsync, events");
  } else {
    ini.num("nvlink_bandwidth_gbps", 0, 1, "no peer GPU visible: not measured (0: none)");
    ini.num("nvlink_latency_us", 0, 2, "no peer GPU visible: not measured");
  }
  write_cal(ini.text, in.cal, "memory");

  ini.section("latency");
  ini.note("instruction latencies: one warp, one chain of 8192 dependent instructions, clock64 "
           "delta / count; memory latencies: one thread following a pointer chain, per hop");
  ini.num("fp32_cycles", m.fp32_cyc, 1, meas + "FFMA chain");
  ini.num("fp64_cycles", m.fp64_cyc, 1, meas + "DFMA chain");
  ini.num("fp16_cycles", m.fp16_cyc, 1, meas + "HFMA2 chain");
  ini.num("int32_cycles", m.imad_cyc, 1,
          meas + fmt("IMAD chain (add/xor alternating: %.1f)", m.int32_cyc));
  ini.num("sfu_cycles", m.sfu_cyc, 1, meas + "MUFU.RSQ chain");
  ini.num("conversion_cycles", m.cvt_cyc, 1,
          meas + fmt("F2I/I2F alternating (F2I alone: %.1f)", m.f2i_cyc));
  ini.num("branch_cycles", m.branch_cyc, 1,
          meas + "minimal counted loop (IADD, ISETP, taken BRA), per iteration");
  ini.num("shared_memory_cycles", m.smem_cyc, 1, meas + "ld.shared.u32 chase");
  ini.num("l1_hit_cycles", m.l1_cyc, 1, meas + "16 KiB chase, 128 B apart, ld.global.ca");
  ini.num("l2_hit_cycles", m.l2_cyc, 1, meas + "2 MiB chase (one page), 128 B apart, ld.global.cg");
  ini.num("dram_cycles", m.dram_cyc, 1,
          meas + "4096 lines 512 B apart in one page, first pass after an L2 flush");
  ini.num("constant_cycles", m.const_cyc, 1, meas + "__constant__ chase, 32 nodes 64 B apart");
  ini.num("barrier_cycles", m.barrier_cyc, 1, meas + "back-to-back __syncthreads, 256 threads");
  ini.num("atomic_cycles", m.atomic_cyc, 1, meas + "dependent atomicAdd on one global word");
  if (std::isnan(m.tensor_cyc))
    ini.num("tensor_cycles", 0, 1, "no mma.sync m16n8k16 on this CC: not measured");
  else
    ini.num("tensor_cycles", m.tensor_cyc, 1, meas + "mma.sync m16n8k16 f16->f32 chain");
  write_cal(ini.text, in.cal, "latency");

  ini.section("launch");
  ini.num("launch_overhead_us", m.launch_overhead_us, 2,
          meas + "2000 back-to-back empty launches, per launch");
  ini.num("launch_latency_us", m.launch_latency_us, 2, meas + "one empty launch between events");
  ini.num("block_launch_cycles", m.block_cycles, 1,
          meas + "empty 32-thread blocks, 4096 vs 256 per SM, per block per SM");

  write_cal(ini.text, in.cal, "launch");
  write_cal(ini.text, in.cal, nullptr);
  return ini.text;
}

// Phases of the extended measurements that --only can select, in run order.
static const char *const kPhases[] = {"barrier", "block_start", "atomic_global", "atomic_shared",
                                      "instruction", "graph", "chase", "spread", "tlb"};
static const int kNumPhases = sizeof kPhases / sizeof kPhases[0];

// Parse --only's comma-separated phase list into `on`; false (after a message naming the
// bad entry) on an unknown or empty entry.
static bool parse_only(const char *list, bool *on) {
  std::string l = list;
  size_t pos = 0;
  for (;;) {
    size_t comma = l.find(',', pos);
    std::string name = l.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    int k = 0;
    while (k < kNumPhases && name != kPhases[k]) ++k;
    if (k == kNumPhases) {
      fprintf(stderr, "gpuperf-calibrate: --only %s: unknown phase '%s'; phases:", list,
              name.c_str());
      for (int i = 0; i < kNumPhases; ++i) fprintf(stderr, "%s%s", i ? "," : " ", kPhases[i]);
      fprintf(stderr, "\n");
      return false;
    }
    on[k] = true;
    if (comma == std::string::npos) return true;
    pos = comma + 1;
  }
}

// Print usage to `out`.
static void usage(FILE *out) {
  fprintf(out,
          "usage: gpuperf-calibrate [-d DEVICE] [-o FILE] [--arch NAME] [--raw FILE]\n"
          "                         [--only LIST]\n"
          "Measures the GPU and writes a gpuperf device INI file to stdout (or FILE).\n"
          "  -d DEVICE             CUDA device index (default 0)\n"
          "  -o FILE               write the INI file to FILE\n"
          "  --arch NAME           plugin name for a compute capability gpuperf has no default for\n"
          "  --raw FILE            write every sweep (barriers, block starts and slots,\n"
          "                        atomics, warp ops, integer pipes, launches, pointer\n"
          "                        chases) to FILE as CSV\n"
          "  --only LIST           run only these extended phases (comma-separated: barrier,\n"
          "                        block_start, atomic_global, atomic_shared, instruction,\n"
          "                        graph, chase, spread, tlb) and skip the core\n"
          "                        measurements; needs --raw (the derived keys go there\n"
          "                        as 'key' rows); no\n"
          "                        INI is written\n");
}

// Parse options, run every measurement, write the INI.
int main(int argc, char **argv) {
  int dev = 0;
  const char *out_path = nullptr, *arch_opt = nullptr, *raw_path = nullptr;
  bool only = false, phase_on[kNumPhases] = {false};
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "-d") && i + 1 < argc) {
      dev = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
      out_path = argv[++i];
    } else if (!strcmp(argv[i], "--arch") && i + 1 < argc) {
      arch_opt = argv[++i];
    } else if (!strcmp(argv[i], "--raw") && i + 1 < argc) {
      raw_path = argv[++i];
    } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
      if (!parse_only(argv[++i], phase_on)) return 2;
      only = true;
    } else {
      fprintf(stderr, "gpuperf-calibrate: unknown or incomplete option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }

  if (only && (!raw_path || out_path)) {
    fprintf(stderr, "gpuperf-calibrate: --only writes no INI file: give --raw FILE (and no -o)\n");
    return 2;
  }
  if (!only)
    for (int k = 0; k < kNumPhases; ++k) phase_on[k] = true;

  Ctx c;
  c.dev = dev;
  CK(cudaSetDevice(dev));
  CK(cudaGetDeviceProperties(&c.prop, dev));
  const cudaDeviceProp &p = c.prop;
  const char *arch = arch_opt ? arch_opt : arch_for(p.major, p.minor);
  if (!arch) {
    fprintf(stderr,
            "gpuperf-calibrate: no plugin is known for compute capability %d.%d; name one "
            "with --arch NAME\n", p.major, p.minor);
    return 2;
  }
  const CcFacts *facts = cc_facts(p.major, p.minor);
  if (!facts) {
    facts = &kCcTable[sizeof kCcTable / sizeof kCcTable[0] - 1];
    fprintf(stderr, "gpuperf-calibrate: warning: no table entry for CC %d.%d; using CC %d.%d's "
            "values for what cannot be measured\n", p.major, p.minor, facts->major, facts->minor);
  } else if (facts->minor != p.minor) {
    fprintf(stderr, "gpuperf-calibrate: warning: using CC %d.%d's table values for CC %d.%d\n",
            facts->major, facts->minor, p.major, p.minor);
  }
  fprintf(stderr, "gpuperf-calibrate: device %d: %s, CC %d.%d, %d SMs\n", dev, p.name, p.major,
          p.minor, p.multiProcessorCount);

  CK(cudaStreamCreateWithFlags(&c.s, cudaStreamNonBlocking));
  CK(cudaEventCreate(&c.e0));
  CK(cudaEventCreate(&c.e1));
  CK(cudaMalloc(&c.scratch, size_t(1) << 30));
  CK(cudaMalloc(&c.d_cycles, 64));
  CK(cudaMalloc(&c.d_sink, 64));
  CK(cudaMalloc(&c.d_out, size_t(64) << 20));

  OpArgs a;
  a.fa = 0.9999f; a.fb = 1e-4f;
  a.da = 0.999999; a.db = 1e-6;
  a.ia = 1664525u; a.ib = 1013904223u; a.ic = 0x9e3779b9u;
  a.ha = __floats2half2_rn(0.999f, 0.999f);
  a.hb = __floats2half2_rn(0.001f, 0.001f);

  Measured m;
  memset(&m, 0, sizeof m);
  warm_up(c, a);
  if (!only) {
    fprintf(stderr, "instruction latencies and throughputs\n");
    measure_alu(c, a, m);
    fprintf(stderr, "memory latencies\n");
    measure_latencies(c, m);
    fprintf(stderr, "memory bandwidths\n");
    measure_memory(c, m);
    fprintf(stderr, "launch costs\n");
    measure_launch(c, m);
    fprintf(stderr, "host and peer links\n");
    measure_links(c, m);
  } else {
    // The global-atomic rates are per SM clock: take the clock under load as measure_alu does.
    throughput<OpFp32>(c, a, 2048, &m.clock_mhz);
    m.atomic_cyc = NAN;
    fprintf(stderr, "core measurements skipped (--only); SM clock under load %.0f MHz\n",
            m.clock_mhz);
  }

  Ext x;
  a.num = 1000003;
  auto phase = [&](const char *name, double t0) {
    double t = wall_s() - t0;
    x.raw.row("run", name, "-", 0, "-", 0, "wall_seconds", t, "s");
    fprintf(stderr, "  (%s: %.1f s)\n", name, t);
  };
  double t_all = wall_s();
  for (int k = 0; k < kNumPhases; ++k) {
    if (!phase_on[k]) continue;
    const std::string ph = kPhases[k];
    fprintf(stderr, "%s\n", ph.c_str());
    double t0 = wall_s();
    if (ph == "barrier") measure_barriers(c, x);
    else if (ph == "block_start") measure_block_start(c, m, x);
    else if (ph == "atomic_global") measure_atomics(c, m, x);
    else if (ph == "atomic_shared") measure_smem_atomics(c, x);
    else if (ph == "instruction") measure_instructions(c, a, x);
    else if (ph == "graph") measure_graphs(c, x);
    else if (ph == "chase") measure_chase_curve(c, x);
    else if (ph == "spread") measure_spread(c, x);
    else measure_tlb(c, x);
    phase(kPhases[k], t0);
  }
  phase("extended_total", t_all);
  for (const CalKey &k : x.keys)
    x.raw.row("key", k.key, "-", 0, "-", 0, "value", k.value, "see docs/device-files.md");

  std::string ini;
  if (!only) {
    IniInputs in = ini_inputs(c, m, arch, *facts);
    in.cal = x.keys;
    ini = write_ini(in);
  }
  if (raw_path) {
    FILE *f = fopen(raw_path, "w");
    if (!f) {
      fprintf(stderr, "gpuperf-calibrate: --raw %s: cannot write: %s\n", raw_path, strerror(errno));
      return 1;
    }
    fputs(x.raw.text.c_str(), f);
    if (fclose(f) != 0) {
      fprintf(stderr, "gpuperf-calibrate: --raw %s: error writing\n", raw_path);
      return 1;
    }
    fprintf(stderr, "gpuperf-calibrate: wrote %s\n", raw_path);
  }
  if (only) {
    // --only: the raw table is the output.
  } else if (out_path) {
    FILE *f = fopen(out_path, "w");
    if (!f) {
      fprintf(stderr, "gpuperf-calibrate: cannot write %s: %s\n", out_path, strerror(errno));
      return 1;
    }
    fputs(ini.c_str(), f);
    if (fclose(f) != 0) {
      fprintf(stderr, "gpuperf-calibrate: error writing %s\n", out_path);
      return 1;
    }
    fprintf(stderr, "gpuperf-calibrate: wrote %s\n", out_path);
  } else {
    fputs(ini.c_str(), stdout);
  }
  CK(cudaFree(c.d_out));
  CK(cudaFree(c.d_sink));
  CK(cudaFree(c.d_cycles));
  CK(cudaFree(c.scratch));
  CK(cudaEventDestroy(c.e0));
  CK(cudaEventDestroy(c.e1));
  CK(cudaStreamDestroy(c.s));
  return 0;
}
