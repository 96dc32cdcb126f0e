-- reduce.lua: shared-memory tree reduction, one partial sum per block
-- (k_reduce in validation/h200/KERNELS.md). Each thread adds two
-- inputs, then the block halves its active threads log2(block) times.
local n     = gpuperf.param("n", 2^26, "number of elements")
local block = gpuperf.param("block", 256, "threads per block, a power of two")
local steps = math.floor(math.log(block) / math.log(2) + 0.5)
assert(block >= 2 and 2^steps == block, "block must be a power of two")
local blocks = math.ceil(n / (2 * block))        -- each block reduces 2*block inputs
local grid = gpuperf.grid(blocks)
local input  = gpuperf.buffer("in", 4 * n)
local output = gpuperf.buffer("out", 4 * blocks)

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

-- i = blockIdx.x * blockDim.x * 2 + t; in step j (0 .. steps - 1) s = block / 2^(j+1)
-- (if (i < n): the blocks a folded grid adds past the end read nothing)
local function at(d)
  return function(t)
    local i = (t.by * grid.x + t.bx) * 2 * block + t.x + d
    if i < n then return i end
  end
end
local function sd(d)
  return function(t)
    local s = block / 2 ^ (t.j + 1)
    if t.x < s then return t.x + d * s end
  end
end

gpuperf.launch{
  name = "reduce",
  grid = grid, block = block,
  regs = 14,                                     -- as ptxas -v reports (sm_90, -O3)
  dynamic_smem = 4 * block,                      -- extern __shared__ float sd[]
  work = {
    gpuperf.load{input, index = at(0)},          -- in[i]
    gpuperf.load{input, index = at(block)},      -- in[i + blockDim.x]
    gpuperf.fp32(1),                             -- v = a + b
    gpuperf.shared_store{},                      -- sd[t] = v
    gpuperf.barrier(),
    gpuperf.loop{steps, var = "j", body = {
      gpuperf.int(1), gpuperf.branch(1),         -- if (t < s)
      gpuperf.shared_load{count = frac, index = sd(0)},  -- sd[t]
      gpuperf.shared_load{count = frac, index = sd(1)},  -- sd[t + s]
      gpuperf.fp32(frac),
      gpuperf.shared_store{count = frac, index = sd(0)},
      gpuperf.barrier(),
    }},
    -- if (t == 0) out[blockIdx.x] = sd[0]: lane 0 of one warp of the block
    gpuperf.store{output, count = 1 / math.ceil(block / warp),
                  index = function(t)
                    local b = t.by * grid.x + t.bx
                    if t.lane == 0 and b < blocks then return b end end},
  },
}
