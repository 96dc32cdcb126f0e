-- passes.lua: kernels that read their rows several times
-- (validation/h200/bench/bench_passes.cu, family `passes`).
--
-- A row of `cols` floats is read P times and written once (softmax, layer norm): pass 1
-- sums the row, pass 2 (P = 3) the squares of x - mean, the last pass writes
-- y = (x - mean) * s; P = 1 reads and writes in one pass. The input is const
-- __restrict__ (LDG.E.CONSTANT).
--   shape warp   k_pw: a warp per row, 8 rows a block of 256, lanes stride 32;
--   shape lim    k_pw with 113 KiB of dynamic shared memory: 2 blocks an SM;
--   shape block  k_pb: a block of 256 per row, lanes stride 256, a block sum
--                (warp shuffles, a shared array of 8, two barriers) after each pass;
--   shape small, bsmall  k_pw and k_pb with the carve-out preference 100 (an L1 of
--                28 KiB; no shared memory used, the residency unchanged).
--   shape bdyn   k_pbd: k_pb with its lanes stepping by blockDim.x, a run-time value
--                (PASSES_SET=bstride): loops nvcc does not unroll, `unroll = 1` as
--                docs/workloads.md says for such a stride.
--   `pitch`: floats from one row's start to the next (default `cols`; wpad and bpad:
--                cols + 32, 128 bytes of padding a row).
-- ptxas (validation/h200/measured/run16/passes/ptxas_passes.txt): k_pw 32 registers,
-- k_pb 24, 31, 32 for P = 1, 2, 3. The memset flush before each repetition.
local shape = gpuperf.param("shape", "warp", "warp | lim | block | small | bsmall | bdyn")
local P     = gpuperf.param("P", 3, "passes over the row: 1, 2 or 3")
local mib   = gpuperf.param("in", 64, "MiB of input (as much of output)")
local cols  = gpuperf.param("cols", 4096, "floats a row")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local pitch = gpuperf.param("pitch", 0, "floats from a row's start to the next (0: cols)")
assert(shape == "warp" or shape == "lim" or shape == "block" or shape == "small" or
       shape == "bsmall" or shape == "bdyn",
       "shape must be warp, lim, block, small, bsmall or bdyn, got '" .. tostring(shape) .. "'")
assert(P == 1 or P == 2 or P == 3, "P must be 1, 2 or 3")

local n = mib * 2^18                 -- floats
local rows = n / cols
if pitch == 0 then pitch = cols end
assert(pitch >= cols, "pitch must be at least cols")
local inp = gpuperf.buffer("in", 4 * rows * pitch)
local out = gpuperf.buffer("out", 4 * rows * pitch)
local warp = shape == "warp" or shape == "lim" or shape == "small"
local step = warp and 32 or 256
-- k_pb's loops step by 256 (a constant): its SASS (run16/passes sass_passes.txt.gz) runs
-- the trips short of a multiple of 4 one at a time, then 4 copies a trip; k_pbd's by
-- blockDim.x: one copy; k_pw's (32) are left to the model (docs/workloads.md)
local unroll = shape == "bdyn" and 1 or (not warp) and 4 or nil

local function lane(t) return warp and t.lane or t.x end
local function row(t) return warp and t.bx * 8 + t.warp or t.bx end
local function at(var) return function(t) return row(t) * pitch + lane(t) + step * t[var] end end

-- the row's sum: a warp's shuffles, or for a block the warp sums, a shared array and
-- two barriers, then the 8 partial sums
local function row_sum()
  local w = { gpuperf.shfl(5), gpuperf.fp32(5) }
  if warp then return w end
  return { w, gpuperf.int(2), gpuperf.barrier(),
           gpuperf.shared_store{index = function(t) if t.lane == 0 then return t.warp end end},
           gpuperf.barrier(),
           gpuperf.shared_load{index = function(t) if t.lane < 8 then return t.lane end end},
           w }
end

local work = { gpuperf.int(6) }      -- the row, the lane, the row's base addresses
if P >= 2 then                       -- m = sum(x) / cols
  work[#work + 1] = gpuperf.loop{cols / step, var = "c1", unroll = unroll, body = {
    gpuperf.load{inp, space = "texture", index = at("c1")}, gpuperf.fp32(1) }}
  work[#work + 1] = { row_sum(), gpuperf.conv(1), gpuperf.fdiv(1) }
end
if P >= 3 then                       -- s = rsqrtf(sum((x - m)^2) / cols + eps)
  work[#work + 1] = gpuperf.loop{cols / step, var = "c2", unroll = unroll, body = {
    gpuperf.load{inp, space = "texture", index = at("c2")}, gpuperf.fp32(2) }}
  work[#work + 1] = { row_sum(), gpuperf.fdiv(1), gpuperf.fp32(1), gpuperf.sfu(1) }
end
work[#work + 1] = gpuperf.loop{cols / step, var = "c3", unroll = unroll, body = {   -- y = (x - m) s
  gpuperf.load{inp, space = "texture", index = at("c3")}, gpuperf.fp32(2),
  gpuperf.store{out, index = at("c3")} }}

gpuperf.flush_l2()   -- the memset of the 1 GiB scratch before each repetition
gpuperf.launch{
  name = shape .. "_p" .. P, grid = warp and rows / 8 or rows, block = 256, regs = regs,
  dynamic_smem = shape == "lim" and 115712 or 0,
  smem = (not warp and P >= 2) and 32 or nil,
  carveout = (shape == "small" or shape == "bsmall") and 100 or nil,
  work = work,
}
