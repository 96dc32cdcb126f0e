-- conv_sep.lua: the separable 9-tap convolution passes of the H200 evaluation set
-- (validation/h200/bench/eval_grid.cuh, k_conv_rows and k_conv_cols), clamp-to-edge,
-- one output pixel per thread over an n x n image, 32 x 8 blocks. Weights are
-- __constant__ c_filt[k]; `in` is const __restrict__ (ld.global.nc: space "texture").
local n    = gpuperf.param("n", 4096, "image side")
local pass = gpuperf.param("pass", "rows", "rows (taps along x) | cols (taps along y)")
local K, R = 9, 4
local inp  = gpuperf.buffer("in", 4 * n * n)
local out  = gpuperf.buffer("out", 4 * n * n)
local filt = gpuperf.buffer("c_filt", 4 * 17 * 17)
local function clamp(v) return math.max(0, math.min(v, n - 1)) end
if pass ~= "rows" and pass ~= "cols" then
  error("pass must be rows or cols, got '" .. pass .. "'")
end

local work = { gpuperf.int(6) }                -- x, y, the x < n && y < n test, the row base
for k = 0, K - 1 do
  work[#work + 1] = gpuperf.int(4)             -- clamp (add, min, max) and the 64-bit address
  work[#work + 1] = gpuperf.const_load{filt, index = function(t) return k end}
  if pass == "rows" then
    work[#work + 1] = gpuperf.load{inp, space = "texture", index = function(t)
      return t.gy * n + clamp(t.gx + k - R) end}
  else
    work[#work + 1] = gpuperf.load{inp, space = "texture", index = function(t)
      return clamp(t.gy + k - R) * n + t.gx end}
  end
  work[#work + 1] = gpuperf.fp32(1)            -- s += c * in (FMA)
end
work[#work + 1] = gpuperf.store{out, index = function(t) return t.gy * n + t.gx end}

gpuperf.launch{ name = "conv_" .. pass, grid = {n / 32, n / 8}, block = {32, 8}, regs = 28,
                work = work }
