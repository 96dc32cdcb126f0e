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

-- wmma shapes GPUInspector uses per type (m, n, k)
local shapes = { fp16 = {16, 16, 16}, bf16 = {16, 16, 16}, int8 = {16, 16, 16},
                 tf32 = {16, 16, 8}, fp64 = {8, 8, 4} }
local s = shapes[ttype] or error("type must be fp16, bf16, tf32, int8 or fp64")
local flops_per_thread = 2 * s[1] * s[2] * s[3] / gpuperf.device.warp_size
local frag = gpuperf.buffer("fragments", 3 * 16 * 16 * 4)

for _ = 1, launches do
  gpuperf.launch{
    name = "wmma_" .. ttype, grid = blocks, block = threads, regs = regs,
    work = {
      gpuperf.load{frag, count = 3, pattern = "broadcast"},
      gpuperf.loop(mmas, { gpuperf.tensor{flops = flops_per_thread, type = ttype, ilp = 2} }),
      gpuperf.store{frag, pattern = "broadcast"},
    },
  }
end
