-- reduce.lua: shared-memory tree reduction, one partial sum per block
-- (k_reduce in validation/h200/KERNELS.md). Each thread adds two
-- inputs, then the block halves its active threads log2(block) times.
local n     = gpuperf.param("n", 2^26, "number of elements")
local block = gpuperf.param("block", 256, "threads per block, a power of two")
local steps = math.floor(math.log(block) / math.log(2) + 0.5)
assert(block >= 2 and 2^steps == block, "block must be a power of two")
local grid = math.ceil(n / (2 * block))          -- each block reduces 2*block inputs
local input  = gpuperf.buffer("in", 4 * n)
local output = gpuperf.buffer("out", 4 * grid)

-- In the step with stride s only threads t < s add (s = block/2, ..., 1).
-- A warp whose threads are all inactive skips the add; a partly active warp
-- costs as much as a full one. So each thread is charged the fraction of
-- warps still active, averaged over the steps: for block 256 that is
-- (4 + 2 + 1 + 1 + 1 + 1 + 1 + 1) / (8 warps * 8 steps) = 0.1875.
local warp, active, s = 32, 0, block / 2
while s >= 1 do
  active = active + math.ceil(s / warp) / math.ceil(block / warp)
  s = s / 2
end
local frac = active / steps

gpuperf.launch{
  name = "reduce",
  grid = gpuperf.grid(grid), block = block,
  regs = 14,                                     -- as ptxas -v reports (sm_90, -O3)
  dynamic_smem = 4 * block,                      -- extern __shared__ float sd[]
  work = {
    gpuperf.load{input}, gpuperf.load{input},    -- in[i], in[i + blockDim.x]
    gpuperf.fp32(1),                             -- v = a + b
    gpuperf.shared_store{},                      -- sd[t] = v
    gpuperf.barrier(),
    gpuperf.loop(steps, {
      gpuperf.int(1), gpuperf.branch(1),         -- if (t < s)
      gpuperf.shared_load{count = 2 * frac},     -- sd[t], sd[t + s]
      gpuperf.fp32(frac),
      gpuperf.shared_store{count = frac},
      gpuperf.barrier(),
    }),
    gpuperf.store{output, count = 1 / block},    -- if (t == 0) out[blockIdx.x] = sd[0]
  },
}
