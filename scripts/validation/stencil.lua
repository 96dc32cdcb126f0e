-- stencil.lua: a 5-point 2-D stencil over n x n floats, one interior point per
-- thread, blocks of 32 x 8 (validation/h200/bench/bench_own.cu):
-- out = c0*in[i] + c1*(in[i-1] + in[i+1] + in[i-n] + in[i+n]).
local n = gpuperf.param("n", 8192, "grid points per side")
local src = gpuperf.buffer("in", 4 * n * n)
local dst = gpuperf.buffer("out", 4 * n * n)
-- x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
-- if (x >= 1 && x < n - 1 && y >= 1 && y < n - 1) { i = y * n + x; ... }
local function at(d)
  return function(t)
    if t.gx >= 1 and t.gx < n - 1 and t.gy >= 1 and t.gy < n - 1 then
      return t.gy * n + t.gx + d
    end
  end
end
gpuperf.launch{
  name = "stencil5", grid = {n / 32, n / 8}, block = {32, 8}, regs = 15,
  work = {
    gpuperf.int(16),
    gpuperf.load{src, index = at(0)},   -- in[i]
    gpuperf.load{src, index = at(-1)},  -- in[i-1]
    gpuperf.load{src, index = at(1)},   -- in[i+1]
    gpuperf.load{src, index = at(-n)},  -- in[i-n]: the row above
    gpuperf.load{src, index = at(n)},   -- in[i+n]: the row below
    gpuperf.fp32(5),
    gpuperf.store{dst, index = at(0)},  -- out[i]
  },
}
