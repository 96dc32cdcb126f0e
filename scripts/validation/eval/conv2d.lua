-- conv2d.lua: the K x K convolution of the H200 evaluation set
-- (validation/h200/bench/eval_grid.cuh, k_conv_naive<K> and k_conv_tiled<K>), clamp-to-edge
-- borders, one output pixel per thread over an n x n image of floats. The weights are
-- __constant__ c_filt[dy * K + dx] (ld.const, the same word for the whole warp); `in` is
-- const __restrict__ (ld.global.nc: space "texture").
local n    = gpuperf.param("n", 4096, "image side")
local K    = gpuperf.param("K", 3, "filter side (3 or 7)")
local kind = gpuperf.param("kind", "naive", "naive (32x8 blocks, taps from global) | tiled (16x16, shared tile)")
local inp  = gpuperf.buffer("in", 4 * n * n)
local out  = gpuperf.buffer("out", 4 * n * n)
local filt = gpuperf.buffer("c_filt", 4 * 17 * 17)
local R = math.floor(K / 2)
local function clamp(v) return math.max(0, math.min(v, n - 1)) end
local function cw(k) return function(t) return k end end   -- c_filt[k]: one word per warp

local work = {}
local function add(op) work[#work + 1] = op end

if kind == "naive" then
  add(gpuperf.int(4))                          -- x, y, the x < n && y < n test
  for dy = 0, K - 1 do
    add(gpuperf.int(4))                        -- yy = clamp(y + dy - R) (add, min, max), yy * n
    for dx = 0, K - 1 do
      add(gpuperf.int(2))                      -- xx = clamp(x + dx - R) is hoisted per dx; the 64-bit address
      add(gpuperf.const_load{filt, index = cw(dy * K + dx)})
      add(gpuperf.load{inp, space = "texture", index = function(t)
        return clamp(t.gy + dy - R) * n + clamp(t.gx + dx - R) end})
      add(gpuperf.fp32(1))                     -- s += c * in (FMA)
    end
  end
  add(gpuperf.store{out, index = function(t) return t.gy * n + t.gx end})
  gpuperf.launch{ name = "conv_naive_k" .. K, grid = {n / 32, n / 8}, block = {32, 8},
                  regs = 32, work = work }
elseif kind == "tiled" then
  local T = 16
  local W = T + K - 1
  -- for (i = ty * T + tx; i < W * W; i += T * T): ly = i / W, lx = i % W (W a constant)
  add(gpuperf.loop{W * W / (T * T), var = "i", body = {
    gpuperf.int(10),                           -- i / W, i % W by a constant, two clamps, the address
    gpuperf.load{inp, space = "texture", index = function(t)
      local i = t.y * T + t.x + t.i * T * T
      if i >= W * W then return nil end
      local ly, lx = math.floor(i / W), i % W
      return clamp(t.by * T + ly - R) * n + clamp(t.bx * T + lx - R) end},
    gpuperf.shared_store{index = function(t)
      local i = t.y * T + t.x + t.i * T * T
      if i < W * W then return i end end},
  }})
  add(gpuperf.barrier())
  add(gpuperf.int(4))                          -- x, y, the x < n && y < n test
  for dy = 0, K - 1 do
    for dx = 0, K - 1 do
      add(gpuperf.const_load{filt, index = cw(dy * K + dx)})
      add(gpuperf.shared_load{index = function(t) return (t.y + dy) * W + t.x + dx end})
      add(gpuperf.fp32(1))
    end
  end
  add(gpuperf.store{out, index = function(t) return t.gy * n + t.gx end})
  gpuperf.launch{ name = "conv_tiled_k" .. K, grid = {n / T, n / T}, block = {T, T},
                  regs = 32, smem = W * W * 4, work = work }
else
  error("kind must be naive or tiled, got '" .. kind .. "'")
end
