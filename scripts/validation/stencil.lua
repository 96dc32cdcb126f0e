-- stencil.lua: a 5-point 2-D stencil over n x n floats, one interior point per
-- thread, blocks of 32 x 8 (validation/h200/bench/bench_own.cu):
-- out = c0*in[i] + c1*(in[i-1] + in[i+1] + in[i-n] + in[i+n]).
local n = gpuperf.param("n", 8192, "grid points per side")
local src = gpuperf.buffer("in", 4 * n * n)
local dst = gpuperf.buffer("out", 4 * n * n)
gpuperf.launch{
  name = "stencil5", grid = {n / 32, n / 8}, block = {32, 8}, regs = 15,
  work = {
    gpuperf.int(16),
    gpuperf.load{src},                  -- in[i]
    gpuperf.load{src, offset = -1},     -- in[i-1]
    gpuperf.load{src, offset = 1},      -- in[i+1]
    gpuperf.load{src, offset = -n},     -- in[i-n]: the row above
    gpuperf.load{src, offset = n},      -- in[i+n]: the row below
    gpuperf.fp32(5),
    gpuperf.store{dst},
  },
}
