-- Re-reads of what neighbouring threads and blocks just read (docs/model.md,
-- "Caches": re-use distance from the addresses). n x n floats, blocks of 32 x 8,
-- one output per thread:
--   stencil5  a 5-point stencil, one load per tap
--   conv7     a 7 x 7 convolution, one load per tap (49 loads)
--   conv7loop a 7 x 7 convolution, one load in loops over dy and dx
--   rows      a 7-tap row convolution (one load in a loop over dx)
--   cols      a 7-tap column convolution (one load in a loop over dy)
--   reread    every thread reads its own pixel twice (a loop of two passes): no
--             neighbour's re-read, judged by the footprint as before
-- edge = clamp reads the nearest pixel inside the image for taps beyond the edge;
-- edge = skip leaves the threads of the border rows and columns idle.
local case = gpuperf.param("case", "stencil5", "stencil5 | conv7 | conv7loop | rows | cols | reread")
local edge = gpuperf.param("edge", "clamp", "clamp | skip")
local n = gpuperf.param("n", 8192, "image side, floats")
local src = gpuperf.buffer("in", 4 * n * n)
local dst = gpuperf.buffer("out", 4 * n * n)
local r = case == "stencil5" and 1 or 3
if edge ~= "clamp" and edge ~= "skip" then
  error("reuse.lua: edge '" .. edge .. "' is not one of clamp, skip")
end
local function clamp(v) return math.max(0, math.min(n - 1, v)) end
local function inside(t)
  return edge == "clamp" or (t.gx >= r and t.gx < n - r and t.gy >= r and t.gy < n - r)
end
local function at(t, dy, dx) return clamp(t.gy + dy) * n + clamp(t.gx + dx) end
local function tap(dy, dx)
  return function(t) if inside(t) then return at(t, dy, dx) end end
end
local work = {}
if case == "stencil5" then
  for _, d in ipairs{{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}} do
    work[#work + 1] = gpuperf.load{src, index = tap(d[1], d[2])}
  end
elseif case == "conv7" then
  for dy = -3, 3 do
    for dx = -3, 3 do work[#work + 1] = gpuperf.load{src, index = tap(dy, dx)} end
  end
elseif case == "conv7loop" then
  work[1] = gpuperf.loop{7, var = "dy", body = { gpuperf.loop{7, var = "dx", body = {
    gpuperf.load{src, index = function(t)
      if inside(t) then return at(t, t.dy - 3, t.dx - 3) end
    end},
    gpuperf.fp32(1),
  }} }}
elseif case == "rows" or case == "cols" then
  work[1] = gpuperf.loop{7, var = "d", body = {
    gpuperf.load{src, index = function(t)
      if inside(t) then
        if case == "rows" then return at(t, 0, t.d - 3) end
        return at(t, t.d - 3, 0)
      end
    end},
    gpuperf.fp32(1),
  }}
elseif case == "reread" then
  work[1] = gpuperf.loop{2, var = "p", body = {
    gpuperf.load{src, index = function(t) if inside(t) then return at(t, 0, 0) end end},
  }}
else
  error("reuse.lua: case '" .. case .. "' is not one of stencil5, conv7, conv7loop, rows, cols, reread")
end
work[#work + 1] = gpuperf.fp32(8)
work[#work + 1] = gpuperf.store{dst, index = tap(0, 0)}
gpuperf.launch{ name = case, grid = {n / 32, n / 8}, block = {32, 8}, regs = 32, work = work }
