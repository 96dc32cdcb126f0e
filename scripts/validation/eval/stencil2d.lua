-- stencil2d.lua: the 5-point 2-D stencil of the H200 evaluation set
-- (validation/h200/bench/eval_grid.cuh, k_st2d_naive and k_st2d_smem<32, 8>):
-- out[i] = c0 * in[i] + c1 * (in[i-1] + in[i+1] + in[i-n] + in[i+n]) on the interior
-- of an n x n grid of floats, one point per thread. `in` is const __restrict__ (the
-- compiler emits ld.global.nc: the read-only path, space "texture").
local n    = gpuperf.param("n", 2048, "grid points per side")
local kind = gpuperf.param("kind", "naive", "naive | smem")
local bx   = gpuperf.param("bx", 16, "blockDim.x (naive; smem is 32)")
local by   = gpuperf.param("by", 16, "blockDim.y (naive; smem is 8)")
local inp = gpuperf.buffer("in", 4 * n * n)
local out = gpuperf.buffer("out", 4 * n * n)

local function interior(x, y) return x >= 1 and x < n - 1 and y >= 1 and y < n - 1 end

if kind == "naive" then
  -- if (interior) out[i] = ...; i = y * n + x, the neighbours i-1, i+1, i-n, i+n
  local function at(dx, dy)
    return function(t)
      if interior(t.gx, t.gy) then return (t.gy + dy) * n + t.gx + dx end
    end
  end
  gpuperf.launch{
    name = "st2d_naive", grid = {n / bx, n / by}, block = {bx, by}, regs = 15,
    work = {
      gpuperf.int(10),   -- x, y (2 IMAD), the interior test (4 compares), i and its 64-bit addresses
      gpuperf.load{inp, space = "texture", index = at(0, 0)},
      gpuperf.load{inp, space = "texture", index = at(-1, 0)},
      gpuperf.load{inp, space = "texture", index = at(1, 0)},
      gpuperf.load{inp, space = "texture", index = at(0, -1)},
      gpuperf.load{inp, space = "texture", index = at(0, 1)},
      gpuperf.fp32(5),   -- 3 adds, c1 * sum, + c0 * in[i] (FMA)
      gpuperf.store{out, index = at(0, 0)},
    },
  }
elseif kind == "smem" then
  -- __shared__ float t[BY + 2][BX + 2] with BX = 32, BY = 8: a warp is one row of 32.
  local BX, BY, W = 32, 8, 34
  local function ld(x, y)                 -- the guarded global read ld(xx, yy)
    if x >= 0 and x < n and y >= 0 and y < n then return y * n + x end
  end
  local function sm(dx, dy) return function(t) return (t.y + 1 + dy) * W + t.x + 1 + dx end end
  gpuperf.launch{
    name = "st2d_smem", grid = {n / BX, n / BY}, block = {BX, BY}, regs = 18,
    smem = (BY + 2) * W * 4,
    work = {
      gpuperf.int(8),    -- x, y, tx, ty, the bounds tests of ld and the 64-bit addresses
      -- t[ty][tx] = ld(x, y)
      gpuperf.load{inp, space = "texture", index = function(t) return ld(t.gx, t.gy) end},
      gpuperf.shared_store{index = sm(0, 0)},
      -- if (threadIdx.x == 0) t[ty][0] = ld(x - 1, y): lane 0 of every warp
      gpuperf.int(2), gpuperf.branch(1),
      gpuperf.load{inp, space = "texture", index = function(t)
        if t.x == 0 then return ld(t.gx - 1, t.gy) end end},
      gpuperf.shared_store{index = function(t) if t.x == 0 then return (t.y + 1) * W end end},
      -- if (threadIdx.x == BX - 1) t[ty][BX + 1] = ld(x + 1, y): lane 31
      gpuperf.int(2), gpuperf.branch(1),
      gpuperf.load{inp, space = "texture", index = function(t)
        if t.x == BX - 1 then return ld(t.gx + 1, t.gy) end end},
      gpuperf.shared_store{index = function(t)
        if t.x == BX - 1 then return (t.y + 1) * W + BX + 1 end end},
      -- if (threadIdx.y == 0) t[0][tx] = ld(x, y - 1): warp 0 of 8 only
      gpuperf.int(2), gpuperf.branch(1),
      gpuperf.load{inp, space = "texture", count = 1 / BY, index = function(t)
        return ld(t.gx, t.by * BY - 1) end},
      gpuperf.shared_store{count = 1 / BY, index = function(t) return t.x + 1 end},
      -- if (threadIdx.y == BY - 1) t[BY + 1][tx] = ld(x, y + 1): the last warp only
      gpuperf.int(2), gpuperf.branch(1),
      gpuperf.load{inp, space = "texture", count = 1 / BY, index = function(t)
        return ld(t.gx, t.by * BY + BY) end},
      gpuperf.shared_store{count = 1 / BY, index = function(t) return (BY + 1) * W + t.x + 1 end},
      gpuperf.barrier(),
      gpuperf.int(4),    -- the interior test
      gpuperf.shared_load{index = sm(0, 0)},
      gpuperf.shared_load{index = sm(-1, 0)},
      gpuperf.shared_load{index = sm(1, 0)},
      gpuperf.shared_load{index = sm(0, -1)},
      gpuperf.shared_load{index = sm(0, 1)},
      gpuperf.fp32(5),
      gpuperf.store{out, index = function(t)
        if interior(t.gx, t.gy) then return t.gy * n + t.gx end end},
    },
  }
else
  error("kind must be naive or smem, got '" .. kind .. "'")
end
