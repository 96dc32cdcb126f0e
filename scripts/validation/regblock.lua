-- regblock.lua: register-blocked SGEMMs by phase (validation/h200/bench/bench_regblock.cu,
-- family `regblock`). C = A B, n x n fp32 row-major, 16x16 threads, block tile
-- BM x BN = 16 TM x 16 TN, micro-tile TM x TN (4x4 or 8x8), K step BK (8 or 16). Per
-- step the block copies A's BM x BK slice into As[k][m] and B's BK x BN slice into
-- Bs[k][n] in `for (i = tid; i < ...; i += 256)` loops, __syncthreads, then for
-- kk < BK each thread reads As[kk][ty TM ..] and Bs[kk][tx TN ..] (LDS.128) and does
-- TM TN independent FMAs, __syncthreads. The inputs are `const __restrict__`
-- (LDG.E.CONSTANT); the L2 is flushed before every repetition.
--   ld rt: A row-major, one float a trip, transposed into As[c][r] (r = i / BK,
--          c = i % BK); B one float a trip into Bs[r][c]
--   ld f4: A row-major read as float4 along k, stored as 4 floats into As[c..c+3][r];
--          B float4 loads and float4 stores
--   ld at: A given transposed (At[k][m]): float4 loads and stores of both
--   mode full: the kernel; load: the copies and barriers, one shared word of each
--          tile read and added a step instead of the outer products; comp: the tiles
--          copied once before the loop, a step is barrier, outer products, barrier;
--          compnb: the same without the barriers.
local n    = gpuperf.param("n", 2048, "matrix size")
local TM   = gpuperf.param("tm", 4, "outputs per thread along each axis (4 or 8)")
local BK   = gpuperf.param("bk", 8, "K step (8 or 16)")
local ldm  = gpuperf.param("ld", "rt", "rt | f4 | at")
local mode = gpuperf.param("mode", "full", "full | load | comp | compnb")
local regs = gpuperf.param("regs", 50, "registers per thread, as ptxas reports")
local TN = TM
local BM, BN = 16 * TM, 16 * TN
local floor = math.floor
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)
local function tid(t) return t.y * 16 + t.x end

-- one copy loop `for (i = tid; i < q; i += 256)`: nvcc does not know its trip
-- count (it depends on tid), so it unrolls it 4 times with a remainder loop
local function copy_loop(q, var, body_of)
  local trips = math.ceil(q / 256)
  local function idx(t) local i = tid(t) + 256 * t[var]; if i < q then return i end end
  return gpuperf.loop{trips, var = var, unroll = 4, body = body_of(idx)}
end

-- The loads of A's and B's copy loops ptxas keeps ahead of their shared stores, from
-- the SASS of k_rb<TM, BK, ld, mode, 0> without stamps (the timed kernels; nvcc 13.0,
-- validation/h200/measured/run69/regblock, whose opcode counts are those of the
-- H100's benches/regblock_nostamp and run68's, read by check_window.sh): the 4
-- copies of each loop do not all issue together where the loop holds little else.
local windows = {
  full = { [4] = { rt = { 1, 2 }, f4 = { 2, 2 }, at = { 3, 3 } },
           [8] = { rt = { 4, 4 }, f4 = { 4, 4 }, at = { 4, 4 } } },
  load = { [4] = { rt = { 3, 3 }, f4 = { 2, 2 }, at = { 2, 2 } },
           [8] = { rt = { 3, 3 }, f4 = { 2, 2 }, at = { 2, 2 } } },
}
local win = (windows[mode] or {})[TM]
win = win and win[ldm] or { nil, nil }

local function copies(kstep)
  local ops = {}
  local function k0(t) return BK * kstep(t) end
  if ldm == "rt" then
    ops[#ops + 1] = copy_loop(BM * BK, "a", function(idx) return {
      gpuperf.load{A, space = "texture", in_flight = win[1], index = function(t)
        local i = idx(t); if i then
          return (t.by * BM + floor(i / BK)) * n + k0(t) + i % BK end end},
      gpuperf.int(3),
      gpuperf.shared_store{index = function(t)
        local i = idx(t); if i then return (i % BK) * BM + floor(i / BK) end end},
    } end)
    ops[#ops + 1] = copy_loop(BK * BN, "b", function(idx) return {
      gpuperf.load{B, space = "texture", in_flight = win[2], index = function(t)
        local i = idx(t); if i then
          return (k0(t) + floor(i / BN)) * n + t.bx * BN + i % BN end end},
      gpuperf.int(3),
      gpuperf.shared_store{index = function(t)
        local i = idx(t); if i then return BK * BM + i end end},
    } end)
  else
    if ldm == "f4" then
      local KQ = BK / 4
      ops[#ops + 1] = copy_loop(BM * BK / 4, "a", function(idx)
        local body = {
          gpuperf.load{A, space = "texture", bytes = 16, in_flight = win[1], index = function(t)
            local i = idx(t); if i then
              return ((t.by * BM + floor(i / KQ)) * n + k0(t) + 4 * (i % KQ)) / 4 end end},
          gpuperf.int(3),
        }
        for q = 0, 3 do
          body[#body + 1] = gpuperf.shared_store{index = function(t)
            local i = idx(t); if i then return (4 * (i % KQ) + q) * BM + floor(i / KQ) end end}
        end
        return body
      end)
    else
      local MQ = BM / 4
      ops[#ops + 1] = copy_loop(BM * BK / 4, "a", function(idx) return {
        gpuperf.load{A, space = "texture", bytes = 16, in_flight = win[1], index = function(t)
          local i = idx(t); if i then
            return ((k0(t) + floor(i / MQ)) * n + t.by * BM + 4 * (i % MQ)) / 4 end end},
        gpuperf.int(3),
        gpuperf.shared_store{bytes = 16, index = function(t)
          local i = idx(t); if i then return i end end},
      } end)
    end
    local NQ = BN / 4
    ops[#ops + 1] = copy_loop(BK * BN / 4, "b", function(idx) return {
      gpuperf.load{B, space = "texture", bytes = 16, in_flight = win[2], index = function(t)
        local i = idx(t); if i then
          return ((k0(t) + floor(i / NQ)) * n + t.bx * BN + 4 * (i % NQ)) / 4 end end},
      gpuperf.int(3),
      gpuperf.shared_store{bytes = 16, index = function(t)
        local i = idx(t); if i then return BK * BM / 4 + i end end},
    } end)
  end
  return ops
end

local inner = {}
for kk = 0, BK - 1 do
  for q = 0, TM / 4 - 1 do
    inner[#inner + 1] = gpuperf.shared_load{bytes = 16,
      index = function(t) return (kk * BM + t.y * TM) / 4 + q end}
  end
  for q = 0, TN / 4 - 1 do
    inner[#inner + 1] = gpuperf.shared_load{bytes = 16,
      index = function(t) return (BK * BM + kk * BN + t.x * TN) / 4 + q end}
  end
  inner[#inner + 1] = gpuperf.fp32{TM * TN, ilp = TM * TN}
end

local step = {}
local function add(op) step[#step + 1] = op end
local work = { gpuperf.int(8) }
if mode == "full" or mode == "load" then
  for _, op in ipairs(copies(function(t) return t.s end)) do add(op) end
  add(gpuperf.barrier())
  if mode == "full" then
    add(inner)
  else
    add(gpuperf.int(1))
    add(gpuperf.shared_load{index = function(t) return tid(t) % BM end})
    add(gpuperf.shared_load{index = function(t) return BK * BM + tid(t) % BN end})
    add(gpuperf.fp32(2))
  end
  add(gpuperf.barrier())
elseif mode == "comp" or mode == "compnb" then
  for _, op in ipairs(copies(function(t) return 0 end)) do work[#work + 1] = op end
  work[#work + 1] = gpuperf.barrier()
  if mode == "comp" then add(gpuperf.barrier()) end
  add(inner)
  if mode == "comp" then add(gpuperf.barrier()) end
else
  error("mode must be full, load, comp or compnb, got '" .. tostring(mode) .. "'")
end
work[#work + 1] = gpuperf.loop{n / BK, var = "s", body = step}
if mode == "load" then
  work[#work + 1] = gpuperf.store{C, index = function(t)
    return ((t.by * (n / BN) + t.bx) * 256 + tid(t)) % (n * n) end}
else
  for i = 0, TM - 1 do
    for j = 0, TN - 1 do
      work[#work + 1] = gpuperf.store{C, index = function(t)
        return (t.by * BM + t.y * TM + i) * n + t.bx * BN + t.x * TN + j end}
    end
  end
end

gpuperf.flush_l2()
gpuperf.launch{
  name = "t" .. TM .. "_bk" .. BK .. "_" .. ldm .. "_" .. mode,
  grid = {n / BN, n / BM}, block = {16, 16}, regs = regs,
  smem = (BK * BM + BK * BN) * 4, work = work,
}
