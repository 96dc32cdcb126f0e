-- lib_conv.lua: the separable 9-tap convolution of validation/h200/bench/eval_grid.cuh
-- (k_conv_rows, k_conv_cols), shared by pipeline.lua and graph.lua. An n x n float
-- image, blocks of 32x8, one output pixel per thread; taps from __constant__ c_filt,
-- clamp-to-edge borders. 28 registers each (ptxas_bench_eval.txt).
local M = {}
local K, R = 9, 4

local function clamp(v, lo, hi) return math.min(math.max(v, lo), hi) end

-- rows = true: out[y][x] = sum_k w[k] in[y][clamp(x+k-R)]; false: in[clamp(y+k-R)][x].
function M.pass(name, src, dst, filt, n, rows, opts)
  local w = { gpuperf.int(6) }  -- x, y from the block and thread indices; the bounds test
  for k = 0, K - 1 do
    w[#w + 1] = gpuperf.const_load{filt, index = function(t) return k end}
    if rows then
      w[#w + 1] = gpuperf.load{src, index = function(t)
        return t.gy * n + clamp(t.gx + k - R, 0, n - 1) end}
    else
      w[#w + 1] = gpuperf.load{src, index = function(t)
        return clamp(t.gy + k - R, 0, n - 1) * n + t.gx end}
    end
  end
  w[#w + 1] = gpuperf.int(3 * K)  -- per tap: the add, the clamp (min, max) and the address
  w[#w + 1] = gpuperf.fp32(K)     -- s += c_filt[k] * in[...]: one dependent FMA chain
  w[#w + 1] = gpuperf.store{dst, index = function(t) return t.gy * n + t.gx end}
  gpuperf.launch{
    name = name, grid = {n / 32, n / 8}, block = {32, 8}, regs = 28,
    stream = opts and opts.stream, work = w,
  }
end

-- k_conv_rows into tmp, then k_conv_cols into out.
function M.rows_then_cols(prefix, src, tmp, dst, filt, n, opts)
  M.pass(prefix .. "_rows", src, tmp, filt, n, true, opts)
  M.pass(prefix .. "_cols", tmp, dst, filt, n, false, opts)
end

return M
