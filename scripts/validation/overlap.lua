-- overlap.lua: loops whose every trip feeds one load into a dependent arithmetic
-- chain and accumulates the result, unrolled to 1..8 copies or left to nvcc
-- (validation/h200/bench/bench_overlap.cu, family `overlap`).
--
-- k_ov<U, D, SRC, R>: a block of 32 W threads per SM copies x[0..511] into a shared
-- array (sh[i] = x[i], i = tid, tid + blockDim.x, ...), a barrier; src = l1 then walks
-- x once untimed (warm += x[j], 512 trips, `#pragma unroll 1`) so that every timed load
-- hits L1. The timed loop, 4096 trips (a run-time count):
--   v = src[j & 511]                         (every lane the same word: LDS, or
--                                             LDG.E.CONSTANT from the const __restrict__ x)
--   u = v; D times u = fmaf(u, 0.999, 0.5)   (the chain on the trip's own load)
--   r = 1: u = rsqrtf(u)                     (MUFU.RSQ and its denormal guard)
--   acc += u                                 (the only value a trip passes to the next)
-- `#pragma unroll U` (u = 1, 2, 4, 8) or left to nvcc (u = 0); then out[gid] = acc + warm.
-- SASS (validation/h200/measured/run17/overlap): the trip's index and address are an
-- SHF and a LOP3 before the load.
local src   = gpuperf.param("src", "smem", "smem (LDS) | l1 (LDG.E.CONSTANT, L1 hits)")
local d     = gpuperf.param("d", 4, "dependent FFMAs on the trip's load")
local r     = gpuperf.param("r", 0, "1: an rsqrtf after the chain")
local u     = gpuperf.param("u", 1, "copies the source pins (#pragma unroll u); 0: nvcc's own")
local warps = gpuperf.param("warps", 1, "warps per SM (one block of 32 warps threads)")
local regs  = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
assert(src == "smem" or src == "l1", "src must be smem or l1, got '" .. tostring(src) .. "'")
assert(r == 0 or r == 1, "r must be 0 or 1")
assert(u == 0 or u == 1 or u == 2 or u == 4 or u == 8, "u must be 0, 1, 2, 4 or 8")

local sms = gpuperf.device.sm_count
local bt = 32 * warps
local x = gpuperf.buffer("x", 4 * 512)
local out = gpuperf.buffer("out", 4 * sms * bt)

local trip = {
  gpuperf.int(2),                                       -- SHF, LOP3: j & 511, the address
  src == "smem"
    and gpuperf.shared_load{index = function(t) return t.j % 512 end}
    or gpuperf.load{x, space = "texture", index = function(t) return t.j % 512 end},
  gpuperf.fp32(d),
}
if r == 1 then trip[#trip + 1] = gpuperf.sfu(1) end     -- rsqrtf
trip[#trip + 1] = gpuperf.fp32(1)                       -- acc += u

local work = { gpuperf.int(4) }
if src == "smem" then
  work[#work + 1] = gpuperf.loop{math.max(1, 512 / bt), var = "i", unroll = 4, body = {
    gpuperf.load{x, space = "texture", index = function(t) return t.x + bt * t.i end},
    gpuperf.shared_store{index = function(t) return t.x + bt * t.i end},
  }}
end
work[#work + 1] = gpuperf.barrier()
if src == "l1" then
  -- the shared copy is dead code here (ptxas reports no shared memory)
  work[#work + 1] = gpuperf.loop{512, var = "w", unroll = 1, body = {
    gpuperf.load{x, space = "texture", index = function(t) return t.w end},
    gpuperf.fp32(1),
  }}
end
work[#work + 1] = gpuperf.loop{4096, var = "j", unroll = u > 0 and u or nil, body = trip}
work[#work + 1] = gpuperf.fp32(1)
work[#work + 1] = gpuperf.store{out, index = function(t) return t.gx end}

gpuperf.launch{name = "ov", grid = sms, block = bt, regs = regs,
               smem = src == "smem" and 2048 or 0, carveout = 0, work = work}
