-- triad.lua: the STREAM triad a = b + s*c over n floats, one element per
-- thread (k_triad in validation/h200/KERNELS.md).
local n     = gpuperf.param("n", 2^26, "number of elements")
local block = gpuperf.param("block", 256, "threads per block")
local a = gpuperf.buffer("a", 4 * n)
local b = gpuperf.buffer("b", 4 * n)
local c = gpuperf.buffer("c", 4 * n)

gpuperf.launch{
  name = "triad",
  grid = gpuperf.grid(math.ceil(n / block)),   -- 1-D; folded into y where grid.x is limited (1.x, 2.x)
  block = block,
  regs = 12,                          -- as ptxas -v reports (sm_90, -O3)
  work = {
    gpuperf.load{b}, gpuperf.load{c}, -- two coalesced 4-byte loads
    gpuperf.fp32(1),                  -- b + s*c is one FMA
    gpuperf.store{a},
  },
}
