-- saxpy.lua: y = a*x + y over n floats, one element per thread.
local n     = gpuperf.param("n", 2^24, "number of elements")
local block = gpuperf.param("block", 256, "threads per block")
local x = gpuperf.buffer("x", 4 * n)
local y = gpuperf.buffer("y", 4 * n)

gpuperf.launch{
  name = "saxpy",
  grid = gpuperf.grid(math.ceil(n / block)),   -- 1-D; folded into y where grid.x is limited (1.x, 2.x)
  block = block,
  regs = 12,                          -- registers per thread, as ptxas -v reports (sm_90, -O3)
  work = {
    gpuperf.load{x}, gpuperf.load{y}, -- two coalesced 4-byte loads
    gpuperf.fp32(1),                  -- a*x + y is one FMA
    gpuperf.store{y},                 -- one coalesced 4-byte store
  },
}
