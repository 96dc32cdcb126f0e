-- mlp.lua: memory-level parallelism of straight-line code
-- (validation/h200/bench/bench_mlp.cu k_mlp<N, C>): each thread runs N unrolled taps
--   v = in[idx & mask]; s = fmaf(v, w_k, s); idx = (k+1) * T + g [+ (bits(v) >> 30)]
-- where g is the global thread index and T the threads of the grid. Independent
-- taps (chain=0): nvcc hoists the loads above the FMAs (about 20 in flight in 32
-- registers); chained taps (chain=1): each address comes from the value loaded
-- before it, so the loads wait for one another. `in` is const __restrict__
-- (LDG.E.CONSTANT: space "texture"); the working set is its first 2^ws_log2 floats.
-- SASS (validation/h200/measured/run5/sass_mlp.txt.gz) per tap: IADD3, LOP3 and
-- IMAD.WIDE.U32 for the address, LDG, FFMA; a chained tap adds a LEA or VIADD.
local n     = gpuperf.param("n", 49, "taps (loads, each followed by one FMA)")
local chain = gpuperf.param("chain", 0, "1: each address from the value loaded before it")
local ws    = gpuperf.param("ws", "dram", "working set: l1 (16 KiB) | l2 (16 MiB) | dram (1 GiB)")
local shape = gpuperf.param("shape", "pinned",
  "pinned (one block per SM, dynamic shared memory, 64 waves) | full (32 blocks per SM)")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local reps  = gpuperf.param("reps", 1,
  "launches, each one timed between two events and waited for (bench_mlp: 7 after 2 warm-ups)")
local log2 = ({ l1 = 12, l2 = 22, dram = 28 })[ws]
assert(log2, "ws must be l1, l2 or dram, got '" .. tostring(ws) .. "'")
assert(shape == "pinned" or shape == "full", "shape must be pinned or full, got '" .. tostring(shape) .. "'")
assert(chain == 0 or chain == 1, "chain must be 0 or 1")
local sms = gpuperf.device.sm_count
local grid = (shape == "pinned" and 64 or 32) * sms
local T = grid * 256
local mask = 2^log2
-- Lane l of warp w reads element k * T + g, g = the thread's global index, folded
-- into the working set: consecutive floats per warp (pattern "unit"). Tap k's
-- reads of the whole grid are the T floats from k * T on, distinct from the other
-- taps' unless the fold brings them together: with ws = dram (no fold: 49 T < 2^28)
-- each tap reads its own T floats, described as its own buffer; with ws = l1 or
-- l2 every tap reads within the first `mask` floats (the footprint).
local out = gpuperf.buffer("out", 4 * T)
local whole = ws ~= "dram" and gpuperf.buffer("in", 4 * 2^28) or nil

local work = { gpuperf.int(2) }               -- g = blockIdx.x * blockDim.x + threadIdx.x
for k = 0, n - 1 do
  local src = whole or gpuperf.buffer("in_tap" .. k, 4 * T)
  work[#work + 1] = gpuperf.int(chain == 1 and k > 0 and 4 or 3)
  work[#work + 1] = gpuperf.load{src, space = "texture", depends = chain == 1 and k > 0,
                                 footprint = whole and 4 * mask or nil}
  work[#work + 1] = gpuperf.fp32(1)           -- s = fmaf(v, w_k, s)
end
work[#work + 1] = gpuperf.store{out, index = function(t) return t.gx end}

local kernel = gpuperf.kernel{
  name = (chain == 1 and "chain_n" or "indep_n") .. n, grid = grid, block = 256, regs = regs,
  dynamic_smem = shape == "pinned" and 232448 or 0, work = work,
}
-- bench_mlp times each launch alone (events around it, cudaEventSynchronize; L2
-- not flushed for l1 and l2): every launch pays the launch latency
for _ = 1, reps do gpuperf.launch(kernel); gpuperf.synchronize() end
