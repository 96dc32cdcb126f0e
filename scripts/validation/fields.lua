-- fields.lua: a record's fields read at a random index, under load
-- (validation/h200/bench/bench_fields.cu, k_fields).
--
-- `w` warps per SM on every SM (one block of 32 w threads per SM, or two of 1024 for
-- w = 64). Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip draws a
-- random 16-byte record (an LCG in registers; the lanes draw apart) and reads F words
-- of it, adding them up:
--   mode=vec    one load of the record's F * 4 bytes
--   mode=words  F word loads of its consecutive words: one draw (`draws`)
--   mode=apart  F word loads, each the first word of a record of its own: F draws
--   ws=l2     n = 2^21 ints (8 MiB), read by k_warm before each launch: its lines in
--             L2; the rows divide `reps` launches and the one k_warm
--   ws=dram   n = 2^26 ints (256 MiB), the memset flush before each launch
-- SASS (validation/h200/measured/run41/fields/sass_fields.txt.gz): per trip an IMAD
-- (the LCG), SHF, LOP3, IMAD.SHL and IMAD.WIDE.U32 (the record's address; apart: the
-- five again for each further word), the loads (LDG.E, LDG.E.64 or LDG.E.128: one
-- instruction each, as the mode says), one IADD3 per two words of the sum; the
-- trip's counter, compare and branch.
local ws    = gpuperf.param("ws", "dram", "l2 | dram")
local w     = gpuperf.param("w", 16, "warps per SM (1..32, or 64: two blocks of 1024)")
local F     = gpuperf.param("F", 4, "words of the record read: 1, 2 or 4")
local mode  = gpuperf.param("mode", "words", "vec | words | apart")
local trips = gpuperf.param("trips", 256, "trips per thread")
local regs  = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
local reps  = gpuperf.param("reps", 1, "launches, each timed alone")
assert(ws == "l2" or ws == "dram", "ws must be l2 or dram, got '" .. tostring(ws) .. "'")
assert(F == 1 or F == 2 or F == 4, "F must be 1, 2 or 4")
assert(mode == "vec" or mode == "words" or mode == "apart",
       "mode must be vec, words or apart, got '" .. tostring(mode) .. "'")

local sms = gpuperf.device.sm_count
local n = ws == "l2" and 2^21 or 2^26
local records = n / 4
local block = w <= 32 and 32 * w or 1024
local grid = w <= 32 and sms or 2 * sms
local p = gpuperf.buffer("p", 4 * n)
local out = gpuperf.buffer("out", 4 * grid * block)

local body = { gpuperf.int(5) }                -- the LCG step and the record's address
if mode == "vec" then
  body[#body + 1] = gpuperf.load{p, bytes = 4 * F, index = function(t)
    return gpuperf.random(0, records - 1) * 4 / F
  end}
else
  for f = 0, F - 1 do
    if mode == "apart" and f > 0 then body[#body + 1] = gpuperf.int(5) end
    body[#body + 1] = gpuperf.load{p, draws = mode == "words" and "record" or nil,
                                   index = function(t)
      return gpuperf.random(0, records - 1) * 4 + (mode == "words" and f or 0)
    end}
  end
end
body[#body + 1] = gpuperf.int(math.max(1, F / 2))  -- the sum: three-input adds
local k = gpuperf.kernel{
  name = "k_fields", grid = grid, block = block, regs = regs, carveout = 0,
  work = {
    gpuperf.int(20),                           -- the seed's hash
    gpuperf.loop{trips, var = "k", unroll = 1, body = body},
    gpuperf.store{out},
  },
}
require("lib_warm")(k, p, n, sms, ws, reps)  -- warm once, or the memset before each launch
