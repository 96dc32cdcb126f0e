-- Tensor-core peak kernel of GPUInspector.jl (_peakflops_gpu_wmmas): every
-- warp loads one A, B and C fragment, then runs `mmas` dependent
-- wmma.mma operations on them (C = A * B + C) and stores C. One wmma of
-- shape m x n x k is 2mnk flops for the warp; the compiler issues it as two
-- independent mma.sync instructions (two halves of n), hence ilp = 2.
local blocks   = gpuperf.param("blocks", 2048, "blocks")
local threads  = gpuperf.param("threads", 1024, "threads per block")
local mmas     = gpuperf.param("mmas", 10000, "dependent wmma operations per warp")
local ttype    = gpuperf.param("type", "fp16", "fp16, bf16, tf32, int8 or fp64")
local regs     = gpuperf.param("regs", 32, "registers per thread")
local launches = gpuperf.param("launches", 10, "back-to-back launches")

-- wmma shapes GPUInspector uses per type (m, n, k) and the bytes of an
-- element of A and B and of C and D
local shapes = { fp16 = {16, 16, 16, 2, 4}, bf16 = {16, 16, 16, 2, 4}, int8 = {16, 16, 16, 1, 4},
                 tf32 = {16, 16, 8, 4, 4}, fp64 = {8, 8, 4, 8, 8} }
local s = shapes[ttype] or error("type must be fp16, bf16, tf32, int8 or fp64")
local flops_per_thread = 2 * s[1] * s[2] * s[3] / gpuperf.device.warp_size
-- d_a (m x k), d_b (k x n), d_c and d_d (m x n): one small matrix each, which
-- every warp of the grid loads (WMMA.load_a, load_b, load_c) and stores to
-- (WMMA.store_d) whole
local mats = { a = s[1] * s[3] * s[4], b = s[3] * s[2] * s[4], c = s[1] * s[2] * s[5],
               d = s[1] * s[2] * s[5] }
-- a fragment's load or store: the warp moves the whole matrix. The fragment
-- layout is opaque (the wmma API leaves it to the implementation), so the
-- matrix goes in 16-byte pieces, lane l piece l + 32 j for the j-th op
-- (the lanes beyond a small matrix's pieces re-read its first ones)
local function fragment(op, name)
  local buf = gpuperf.buffer(name, mats[name:sub(3, 3)])
  local pieces = mats[name:sub(3, 3)] / 16
  local ops = {}
  for j = 0, math.ceil(pieces / 32) - 1 do
    ops[#ops + 1] = op{buf, bytes = 16, index = function(t) return (t.lane + 32 * j) % pieces end}
  end
  return ops
end
local a_frag, b_frag = fragment(gpuperf.load, "d_a"), fragment(gpuperf.load, "d_b")
local c_frag, d_store = fragment(gpuperf.load, "d_c"), fragment(gpuperf.store, "d_d")

for _ = 1, launches do
  gpuperf.launch{
    name = "wmma_" .. ttype, grid = blocks, block = threads, regs = regs,
    work = {
      a_frag, b_frag, c_frag,
      gpuperf.loop(mmas, { gpuperf.tensor{flops = flops_per_thread, type = ttype, ilp = 2} }),
      d_store,
    },
  }
end
