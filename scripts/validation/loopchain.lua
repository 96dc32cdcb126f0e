-- loopchain.lua: loops whose every trip loads one element and runs an arithmetic body
-- on it, few warps per SM (validation/h200/bench/bench_loopchain.cu, family
-- `loopchain`).
--
-- kind=lc: every thread runs `warm` untimed trips, then 4096 more (both loops
-- `#pragma unroll 1`); trip j loads element (j * stride) & mask of x (warp-uniform,
-- coal = 0) or (j * 32 * stride + lane) & mask (coalesced, coal = 1), a float (vec 1)
-- or a float4 (vec 4, its components summed: (x + y) + (z + w)), plain (LDG.E) or
-- __ldg (ldm = nc: LDG.E.CONSTANT, the read-only path). Every warp of every SM walks
-- the same elements.
--   fp = l1     mask = 16 KiB of elements, the warm trips touch them once: the timed
--               trips hit L1;
--   fp = first  no wrap, no warm trips: each element is the SM's first touch of it;
--               x is in L2 from the launches before (the bench does not flush it).
-- body: k0 (acc += v), d4 and d13 (4 or 13 dependent FFMA on v, then acc +=),
-- d4r and d13r (the same, then rsqrtf: FSETP, a predicated FMUL, MUFU.RSQ, a
-- predicated FMUL), i13 (13 independent accumulators a_k = fmaf(v, c_k, a_k)).
-- kind=nbody: the all-pairs body_acc of the evaluation's naive n-body (float4 pos,
-- const __restrict__: LDG.E.128.CONSTANT, every lane one address), `passes` passes
-- over m bodies (fp = first: m = 4096, one pass; fp = l1: m = 512, one untimed pass
-- and 8 more), the j loop pinned to 1 copy (unroll = 1) or left to nvcc (unroll = 0).
-- Launch: `warps` per SM as `bpsm` blocks of 32 * warps / bpsm threads per SM (grid
-- sms * bpsm), no shared memory, carve-out preference 0.
-- SASS (validation/h200/measured/run10/loopchain/sass_loopchain.txt.gz), a trip of
-- k_lc: LOP3 and IMAD.WIDE (the address), LDG, IADD3/UIADD3/ISETP (the next trip's
-- index and the exit test), the body, BRA.
local kind   = gpuperf.param("kind", "lc", "lc | nbody")
local vec    = gpuperf.param("vec", 1, "lc: 1 (float) or 4 (float4)")
local ldm    = gpuperf.param("ldm", "plain", "lc: plain | nc")
local coal   = gpuperf.param("coal", 0, "lc: 1 coalesced (lane l reads element l), 0 warp-uniform")
local body_k = gpuperf.param("body", "k0", "lc: k0 | d4 | d13 | d4r | d13r | i13")
local fp     = gpuperf.param("fp", "l1", "l1 | first")
local stride = gpuperf.param("stride", 1, "lc: elements (per lane) between trips")
local unroll = gpuperf.param("unroll", 1, "nbody: 1 (pinned) or 0 (left to nvcc)")
local warps  = gpuperf.param("warps", 1, "warps per SM")
local bpsm   = gpuperf.param("bpsm", 1, "blocks per SM")
local regs   = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
-- The bench times each launch after two warm-ups without a flush: x (and pos) start
-- in L2 (in_l2); `reps` launches and the table's divide_by
local reps   = gpuperf.param("reps", 4, "launches")

local sms = gpuperf.device.sm_count
local floor = math.floor
local trips = 4096
local bt = floor(32 * warps / bpsm)
local grid = sms * bpsm

local work
if kind == "lc" then
  assert(vec == 1 or vec == 4, "vec must be 1 or 4")
  local esz = 4 * vec
  local elems = floor(16 * 2^20 / esz)
  local per_trip = coal == 1 and 32 * stride or stride
  local mask, warm
  if fp == "l1" then
    mask = floor(16384 / esz)
    warm = math.max(1, floor(mask / per_trip))
  else
    mask, warm = elems, 0
  end
  local x = gpuperf.buffer("x", 16 * 2^20, {in_l2 = true})
  local space = ldm == "nc" and "texture" or nil
  local function trip(base)
    local t = {
      gpuperf.int(2),                                   -- LOP3, IMAD.WIDE: the address
      gpuperf.load{x, bytes = esz, space = space, index = function(t)
        return ((t.j + base) * per_trip + (coal == 1 and t.lane or 0)) % mask
      end},
    }
    local function add(op) t[#t + 1] = op end
    if vec == 4 then
      add(gpuperf.fp32{2, ilp = 2})                     -- x + y, z + w
      add(gpuperf.fp32(1))
    end
    if body_k == "i13" then
      add(gpuperf.fp32{13, ilp = 13})
    else
      local dep = ({ k0 = 0, d4 = 4, d13 = 13, d4r = 4, d13r = 13 })[body_k]
      assert(dep, "body must be k0, d4, d13, d4r, d13r or i13")
      if dep > 0 then add(gpuperf.fp32(dep)) end
      if body_k == "d4r" or body_k == "d13r" then
        add(gpuperf.sfu(1))                             -- rsqrtf: FSETP, @!P FMUL, MUFU.RSQ, @!P FMUL
      end
      add(gpuperf.fp32(1))                              -- acc += u
    end
    add(gpuperf.int(2))                                 -- the next index, the exit test
    return t
  end
  work = {
    gpuperf.int(8),
    gpuperf.loop{warm, var = "j", unroll = 1, body = trip(0)},
    gpuperf.loop{trips, var = "j", unroll = 1, body = trip(warm)},
    gpuperf.store{gpuperf.buffer("out", 4 * grid * bt), index = function(t) return t.gx end},
  }
elseif kind == "nbody" then
  local m = fp == "l1" and 512 or 4096
  local passes = fp == "l1" and 9 or 1                  -- one untimed pass, then 8
  local pos = gpuperf.buffer("pos", 16 * 4096, {in_l2 = true})
  local pass = gpuperf.loop{m, var = "j", unroll = unroll == 1 and 1 or nil, body = {
    gpuperf.load{pos, bytes = 16, space = "texture", index = function(t) return t.j end},
    gpuperf.fp32{3, ilp = 3},                           -- r = bj - bi
    gpuperf.fp32(4),                                    -- d2 = r.r + 0.01
    gpuperf.sfu(1),                                     -- rsqrtf (FSETP, @!P FMUL, MUFU.RSQ, @!P FMUL)
    gpuperf.fp32(3),                                    -- s = m inv inv inv
    gpuperf.fp32{3, ilp = 3},                           -- a += r s
  }}
  work = {
    gpuperf.int(4),
    gpuperf.load{pos, bytes = 16, space = "texture", index = function(t) return t.gx % m end},
    gpuperf.loop(passes, { pass }),
    gpuperf.store{gpuperf.buffer("acc", 16 * grid * bt), bytes = 16,
                  index = function(t) return t.gx end},
  }
else
  error("kind must be lc or nbody, got " .. tostring(kind))
end

for _ = 1, reps do
  gpuperf.launch{name = kind, grid = grid, block = bt, regs = regs, carveout = 0, work = work}
  gpuperf.synchronize()
end
