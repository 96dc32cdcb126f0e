-- colwalk.lua: column walks with a run-time trip count
-- (validation/h200/bench/bench_colwalk.cu, family `colwalk`).
--
-- Thread r of n sums over k < m (a kernel argument) a[k n + r] (coalesced across the
-- warp), times x[k] (warp-uniform) when x = 1, and writes y[r]. a and x are const
-- __restrict__ (LDG.E.CONSTANT). u = 0: the loop as written, unrolled as nvcc chooses;
-- u = 1, 2, 4, 8: `#pragma unroll u`. a is read once after the memset flush.
-- pitch > 0 (k_cwp): warp w's lane l sums over k < m the float a[(w m + k) P + l], P =
-- pitch / 4: a warp's trips read lines `pitch` bytes apart in a region of its own, and x
-- is not read; form = block (k_cwb): thread t of block b sums a[(b m + k) P + t], P the
-- block's threads: a block's copy loop, its warps reading the lines between one warp's
-- trips at the same trip.
-- SASS (validation/h200/measured/run18/colwalk/sass_colwalk.txt.gz): u = 0 is unrolled
-- 16 times (then 8, 4 and one at a time for the rest), the loads of a copy at immediate
-- offsets from one pointer and an IADD3 or LEA a copy for the others.
local pitch = gpuperf.param("pitch", 0, "bytes between a warp's trips (k_cwp); 0: the column walk")
local bt    = gpuperf.param("block", 256, "threads per block")
local grid  = gpuperf.param("grid", gpuperf.device.sm_count, "blocks")
local n     = gpuperf.param("n", grid * bt, "threads (columns of a): grid x block")
local m     = gpuperf.param("m", 2048, "trips (rows of a), a run-time value")
local u     = gpuperf.param("u", 0, "0: as nvcc unrolls it; 1, 2, 4, 8: #pragma unroll u")
local xw    = gpuperf.param("x", 1, "1: s += a[k n + r] * x[k]; 0: s += a[k n + r]")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local form  = gpuperf.param("form", "warp", "pitch > 0: warp (k_cwp) | block (k_cwb, pitch = 4 x block)")
assert(grid * bt == n, "grid x block must be n")
assert(xw == 0 or xw == 1, "x must be 0 or 1")

assert(pitch == 0 or (pitch % 128 == 0 and xw == 0), "pitch: a multiple of 128 bytes, with x = 0")
assert(form == "warp" or (form == "block" and pitch == 4 * bt),
       "form must be warp, or block with pitch = 4 x block")

local P = pitch / 4
local a = gpuperf.buffer("a", pitch == 0 and 4 * n * m or form == "block" and pitch * m * grid
                                or pitch * m * n / 32)
local x = gpuperf.buffer("x", 4 * m)
local y = gpuperf.buffer("y", 4 * n)

local body = {
  gpuperf.int(2),   -- the next address (and x's)
  gpuperf.load{a, space = "texture", index = pitch == 0
    and function(t) return t.k * n + t.gx end
    or form == "block" and function(t) return (t.bx * m + t.k) * P + t.x end
    or function(t) return (math.floor(t.gx / 32) * m + t.k) * P + t.lane end},
}
if xw == 1 then
  body[#body + 1] = gpuperf.load{x, space = "texture", index = function(t) return t.k end}
end
body[#body + 1] = gpuperf.fp32(1)   -- s += a (* x): one dependent FADD or FFMA

gpuperf.flush_l2()
gpuperf.launch{
  name = (pitch == 0 and (xw == 1 and "ax" or "a") or form == "block" and "b" or "p") .. "_u" .. u, grid = grid, block = bt, regs = regs,
  work = {
    gpuperf.int(3),   -- r, r < n
    gpuperf.loop{m, var = "k", unroll = u > 0 and u or nil, body = body},
    gpuperf.store{y},
  },
}
