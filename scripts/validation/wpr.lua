-- wpr.lua: a warp per row (validation/h200/bench/bench_wpr.cu, family `wpr`).
-- Warp r of a 1-D grid of 256-thread blocks sums the L floats of row r, lane l taking
-- elements l, l + 32, ... (`for (j = start + lane; j < end; j += 32)`, a run-time
-- count), then lane 0 writes y[r]. Every input is const __restrict__ (LDG.E.CONSTANT:
-- space "texture"); the bench's 1 GiB memset flush before every launch.
--   ind = 1   start = rp[r], end = rp[r + 1] (a CSR SpMV's vector kernel); 0: r L
--   gat = 1   each element v[j] * x[ci[j]], ci random over x's 2^20 floats; 0: v[j]
--   shfl = 1  five __shfl_down_sync steps before lane 0's store; 0: lane 0's own sum
local rows = gpuperf.param("rows", 2^20, "rows (warps)")
local L    = gpuperf.param("L", 32, "floats per row")
local ind  = gpuperf.param("ind", 1, "1: the row's bounds read from rp")
local gat  = gpuperf.param("gat", 1, "1: v[j] * x[ci[j]]; 0: v[j]")
local shfl = gpuperf.param("shfl", 1, "1: a shuffle reduction before lane 0's store")
local regs = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local unr  = gpuperf.param("unroll", 4, "the row loop's copies: 4 (rows of up to 12 trips), 0: left to the model")
local X = 2^20
local rp = gpuperf.buffer("rp", 4 * (rows + 1))
local v  = gpuperf.buffer("v", 4 * rows * L)
local ci = gpuperf.buffer("ci", 4 * rows * L)
local x  = gpuperf.buffer("x", 4 * X)
local y  = gpuperf.buffer("y", 4 * rows)
local tex = "texture"

local function row(t) return t.bx * 8 + t.warp end
local function entry(t)
  local p = t.k * 32 + t.lane
  if p < L then return row(t) * L + p end
end

local work = { gpuperf.int(3) }                         -- r, lane, r < rows
if ind == 1 then
  work[#work + 1] = gpuperf.load{rp, space = tex, index = row}
  work[#work + 1] = gpuperf.load{rp, space = tex, index = function(t) return row(t) + 1 end}
else
  work[#work + 1] = gpuperf.int(2)                      -- start = r L, end = start + L
end
local body = { gpuperf.int(2), gpuperf.load{v, space = tex, index = entry} }
if gat == 1 then
  body[#body + 1] = gpuperf.load{ci, space = tex, index = entry}
  body[#body + 1] = gpuperf.load{x, space = tex, depends = true, index = function(t)
    if t.k * 32 + t.lane < L then return gpuperf.random(0, X - 1) end end}
end
body[#body + 1] = gpuperf.fp32(1)                       -- s += ...
-- a compile-time stride with an index for bound: nvcc runs the trips that do not fill 4
-- copies one at a time first, then 16 copies at a time while more than 12 trips remain,
-- then 4 (docs/workloads.md, loops; the SASS): unroll = 4 for rows of up to 12 trips,
-- the model's own copies (unroll = 0) for longer ones
work[#work + 1] = gpuperf.loop{math.ceil(L / 32), var = "k", unroll = unr > 0 and unr or nil,
                               body = body}
if shfl == 1 then
  work[#work + 1] = gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.fp32(1) })
end
work[#work + 1] = gpuperf.store{y, index = function(t) if t.lane == 0 then return row(t) end end}

gpuperf.flush_l2()
gpuperf.launch{ name = "wpr", grid = rows / 8, block = 256, regs = regs, work = work }
