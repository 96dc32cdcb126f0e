-- elementwise.lua: the elementwise family of the H200 evaluation set (validation/h200/
-- bench/eval_flow.cuh, fam_elementwise), one element per thread, block 256.
--   variant=vadd: k_vadd c[i] = a[i] + b[i] (12 registers).
--   variant=vadd_float4: k_vadd4 on float4, n/4 threads (18 registers).
--   variant=gelu_tanh: k_gelu, 0.5 x (1 + tanhf(0.79788 (x + 0.044715 x^3))) (13).
--   variant=scale_bias: k_scale_bias y[i] = x[i] s[i % cols] + b[i % cols] (16).
-- The rows flush the L2 before the launch, except vadd_warm ("no flush"): the bench times
-- each repetition alone between two events, the host waiting for each, so the timed
-- launch finds a, b and c where the one before left them; run it with warm = 1: an
-- untimed launch, the host's wait, then the launch timed with gpuperf.elapsed.
local n       = gpuperf.param("n", 2^24, "elements")
local variant = gpuperf.param("variant", "vadd", "vadd | vadd_float4 | gelu_tanh | scale_bias")
local cols    = gpuperf.param("cols", 1024, "scale_bias: columns")
local warm    = gpuperf.param("warm", 0, "1: an untimed launch first, the launch after it timed")

local idx = gpuperf.int(3)  -- i = blockIdx.x*blockDim.x + threadIdx.x (64-bit), i < n
local spec
if variant == "vadd" then
  local a, b, c = gpuperf.buffer("a", 4 * n), gpuperf.buffer("b", 4 * n), gpuperf.buffer("c", 4 * n)
  spec = { grid = math.ceil(n / 256), regs = 12,
           work = { idx, gpuperf.load{a}, gpuperf.load{b}, gpuperf.fp32(1), gpuperf.store{c} } }
elseif variant == "vadd_float4" then
  local a, b, c = gpuperf.buffer("a", 4 * n), gpuperf.buffer("b", 4 * n), gpuperf.buffer("c", 4 * n)
  spec = { grid = math.ceil(n / 4 / 256), regs = 18,
           work = { idx, gpuperf.load{a, bytes = 16}, gpuperf.load{b, bytes = 16},
                    gpuperf.fp32{4, ilp = 4}, gpuperf.store{c, bytes = 16} } }
elseif variant == "gelu_tanh" then
  local x, y = gpuperf.buffer("x", 4 * n), gpuperf.buffer("y", 4 * n)
  spec = { grid = math.ceil(n / 256), regs = 13,
           work = { idx, gpuperf.load{x},
                    gpuperf.fp32(4),   -- v*v*v, 0.044715*(..) + v, * 0.7978845608
                    -- tanhf (libdevice, no fast math): |x| and a compare, exp2 and a
                    -- reciprocal on the special-function units, a few FMAs around them,
                    -- the small-|x| polynomial and a select
                    gpuperf.int(2), gpuperf.sfu(2), gpuperf.fp32(9),
                    gpuperf.fp32(3),   -- 1 + t, 0.5 * v * (..)
                    gpuperf.store{y} } }
elseif variant == "scale_bias" then
  local x, y = gpuperf.buffer("x", 4 * n), gpuperf.buffer("y", 4 * n)
  local s, b = gpuperf.buffer("s", 4 * cols), gpuperf.buffer("bias", 4 * cols)
  local col = function(t) return t.gx % cols end
  spec = { grid = math.ceil(n / 256), regs = 16,
           work = { idx,
                    gpuperf.imod(1),   -- i % cols: 64-bit remainder by a runtime int
                    gpuperf.load{x}, gpuperf.load{s, index = col}, gpuperf.load{b, index = col},
                    gpuperf.fp32(1), gpuperf.store{y} } }
else
  error("unknown variant " .. tostring(variant))
end
local function launch()
  gpuperf.launch{ name = variant, grid = spec.grid, block = 256, regs = spec.regs, work = spec.work }
end
if warm == 1 then
  require("lib_timed")(launch)
else
  launch()
end
