-- guard.lua: loops whose loads sit behind a data-dependent guard
-- (validation/h200/bench/bench_guard.cu, family `guard`).
--
-- A thread per row r, a loop over k < width (a run-time count) of c = ci[k rows + r]
-- (coalesced), then
--   mode plain   s += v[k rows + r] * x[c]          (no guard)
--   mode guard   if (c >= 0) s += v[k rows + r] * x[c]
--   mode gather  if (c >= 0) s += x[c]
-- and y[r] = s; c a random column, or -1 (skipped) with probability p. All inputs const
-- __restrict__ (LDG.E.CONSTANT). The memset flush before each repetition.
-- SASS (validation/h200/measured/run15/guard/sass_guard.txt.gz): nvcc unrolls the loop
-- (16 trips a pass, then 4, then one at a time) and predicates the guarded loads, an
-- ISETP per trip and @P LDG, issued with the other trips' loads: no branch. ptxas: 40
-- registers (plain, guard), 32 (gather).
local rows  = gpuperf.param("rows", 2^20, "rows (and columns of x)")
local width = gpuperf.param("width", 16, "entries per row")
local p     = gpuperf.param("p", 0, "share of the entries that are padding (c = -1)")
local mode  = gpuperf.param("mode", "guard", "plain | guard | gather")
assert(mode == "plain" or mode == "guard" or mode == "gather",
       "mode must be plain, guard or gather, got '" .. tostring(mode) .. "'")
assert(p == 0 or mode ~= "plain", "mode plain has no padding (p = 0)")

local ci = gpuperf.buffer("ci", 4 * width * rows)
local v  = gpuperf.buffer("v", 4 * width * rows)
local x  = gpuperf.buffer("x", 4 * rows)
local y  = gpuperf.buffer("y", 4 * rows)

-- an entry that is not padding
local function present() return p == 0 or gpuperf.random(0, 999) >= 1000 * p end

local body = {
  gpuperf.int(2),                                   -- k rows + r, the counter
  gpuperf.load{ci, space = "texture", index = function(t) return t.k * rows + t.gx end},
}
if mode ~= "plain" then body[#body + 1] = gpuperf.branch(1) end   -- if (c >= 0)
if mode ~= "gather" then
  body[#body + 1] = gpuperf.load{v, space = "texture", index = function(t)
    if present() then return t.k * rows + t.gx end end}
end
body[#body + 1] = gpuperf.load{x, space = "texture", depends = true, index = function(t)
  if present() then return gpuperf.random(0, rows - 1) end end}
body[#body + 1] = gpuperf.fp32(1)

gpuperf.flush_l2()   -- the memset of the 1 GiB scratch before each repetition
gpuperf.launch{
  name = mode, grid = rows / 256, block = 256, regs = mode == "gather" and 32 or 40,
  work = {
    gpuperf.int(3),                                 -- r, r < rows
    gpuperf.loop{width, var = "k", body = body},
    gpuperf.store{y},
  },
}
