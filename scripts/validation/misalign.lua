-- misalign.lua: coalesced L1 hits whose warp request straddles a line boundary
-- (validation/h200/bench/bench_misalign.cu, family `misalign`).
--
-- Each trip of a `#pragma unroll 1` loop issues 16 independent coalesced loads of `vec`
-- floats a lane (LDG.E, .64, .128) from one pointer at immediate offsets: load u at
-- u x 32 vec floats of the warp's row (its own lines) plus a shift, `mis` floats for
-- every load (pat = 0: 0 aligned; 1, 8, 16, 31 for floats, 2 for float2, 4 for float4:
-- the request straddles two lines) or (u % 3 - 1) x vec (pat = 1: a stencil row's -1, 0,
-- +1 taps), or spread (pat = 2): the request's 32 floats on 32 / g lines, g consecutive
-- lanes a line (`mis` is g: 1, 2, 4, 8, 16), lane l at word l % 32 of its line (32
-- distinct banks), load u on its own 32 / g lines, every warp of the SM reading one of
-- 2 g rows of 16 x 32 / g lines. Otherwise warp g reads row g % R (R = 64, 32, 16 rows of
-- 18 x 32 vec floats for vec = 1, 2, 4): L1 hits after the first trip (carve-out 0). The
-- values go into 8 accumulators (FADD; a float2's or float4's components added first).
-- `warps` per SM: 1, 4 as one block of 32 x warps threads, 8..64 as warps / 4 blocks of
-- 128 threads (grid sms x blocks); 1024 trips. Registers as ptxas reports them
-- (validation/h200/measured/run19/misalign/ptxas_misalign.txt). The bench's _addr rows
-- (every load computing its own 64-bit address, an IMAD.WIDE a load) are not described
-- here: a script cannot say that a load of a body has no sibling's register to offset.
local vec   = gpuperf.param("vec", 1, "floats a lane a load: 1, 2 or 4")
local mis   = gpuperf.param("mis", 0, "pat = 0: the shift of every load, in floats")
local pat   = gpuperf.param("pat", 0, "0: every load shifted by mis; 1: -1, 0, +1 elements; " ..
                            "2: spread, mis lanes a line")
local warps = gpuperf.param("warps", 64, "warps per SM: 1, 4, 8, 16, 32, 64")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local trips = gpuperf.param("trips", 1024, "trips of the loop")

assert(vec == 1 or vec == 2 or vec == 4, "vec must be 1, 2 or 4")
assert(mis % vec == 0, "mis must be a multiple of vec (a vector load is aligned to its size)")
assert(pat == 0 or pat == 1 or pat == 2, "pat must be 0, 1 or 2")
assert(pat ~= 2 or (vec == 1 and (mis == 1 or mis == 2 or mis == 4 or mis == 8 or mis == 16)),
       "pat = 2 takes vec = 1 and mis (lanes a line) 1, 2, 4, 8 or 16")
local floor = math.floor
local sms = gpuperf.device.sm_count
local R = vec == 1 and 64 or (vec == 2 and 32 or 16)
local row = 18 * 32 * vec                   -- floats a row
local bt = warps < 4 and 32 * warps or 128
local grid = sms * floor(warps * 32 / bt)
local x = gpuperf.buffer("x", 4 * (64 * 18 * 32 + 4 * 32))
local out = gpuperf.buffer("out", 4 * grid * bt)

local body = {}
for u = 0, 15 do
  local shift = pat == 0 and mis or (u % 3 - 1) * vec
  body[#body + 1] = gpuperf.load{x, bytes = 4 * vec, index = function(t)
    local g = floor(t.gx / 32)
    if pat == 2 then   -- spread: row g % 2G of 16 x 32 / G lines
      local G = mis
      return (g % (2 * G)) * 16 * 32 * (32 / G) + floor(t.lane / G) * 32 + t.lane
             + u * 32 * (32 / G)
    end
    return ((g % R) * row + 32 * vec + t.lane * vec + u * 32 * vec + shift) / vec end}
end
if vec > 1 then body[#body + 1] = gpuperf.fp32{16 * (vec - 1), ilp = 8} end  -- components
body[#body + 1] = gpuperf.fp32{16, ilp = 8}                                  -- acc[u % 8] +=
body[#body + 1] = gpuperf.int(2)                                             -- q += step, j

gpuperf.launch{
  name = string.format("mis_f%d_%s", vec, pat == 1 and "taps" or (pat == 2 and "g" or "m") .. mis),
  grid = grid, block = bt, regs = regs, carveout = 0,
  work = {
    gpuperf.int(8),
    gpuperf.loop{trips, var = "j", unroll = 1, body = body},
    gpuperf.store{out, index = function(t) return t.gx end},
  },
}
