-- scatter.lua: random gathers whose lanes each name their own line, under load
-- (validation/h200/bench/bench_scatter.cu, k_gather).
--
-- `w` warps per SM on `sms` SMs (one block of 32 w threads per SM, or two of 1024 for
-- w = 64). Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip issues L
-- independent 4-byte loads and adds them up at its end. Lanes are grouped `c` to a
-- group; a group draws one random 128-byte line per load (an LCG in registers) and its
-- lanes read consecutive words of it (spread = 1: one word per 32-byte sector). Only
-- lanes 0 .. a-1 run the loop (the others are predicated off), so a request names
-- a / c lines.
--   ws=l2    n = 2^21 ints (8 MiB), warmed by a coalesced read of the buffer (k_warm,
--            SMs x 4 blocks of 512 threads, int4 loads) before the launches; the
--            bench times the gathers alone, the rows divide `reps` of them and the
--            one k_warm (about 3 us: under 2% of the rows' per-launch times at reps 16)
--   ws=dram  n = 2^26 ints (256 MiB), the L2 flushed before each launch
--   ws=big   n = 2^28 ints (1 GiB), flushed
-- SASS (validation/h200/measured/run10/scatter/sass_scatter.txt.gz): about 50 integer
-- ops before the loop (the seed's hash, lane / c); per load an IMAD (the LCG), SHF and
-- LOP3 (the line), LEA, IMAD.X, LEA, LEA.HI.X (the address) and the LDG.E; the trip's
-- sum in IADD3s of three, its counter, compare and branch.
local ws     = gpuperf.param("ws", "l2", "l2 | dram | big")
local w      = gpuperf.param("w", 8, "warps per SM (1..32, or 64: two blocks of 1024)")
local a      = gpuperf.param("a", 32, "active lanes per warp")
local c      = gpuperf.param("c", 1, "lanes per line")
local spread = gpuperf.param("spread", 0, "1: a group's lanes one per 32-byte sector")
local L      = gpuperf.param("L", 1, "independent loads a trip")
local sms    = gpuperf.param("sms", gpuperf.device.sm_count, "SMs used (one block each)")
local trips  = gpuperf.param("trips", 256, "trips per thread")
local regs   = gpuperf.param("regs", 20, "registers per thread, as ptxas reports")
local reps   = gpuperf.param("reps", 1, "launches, each timed alone")
assert(ws == "l2" or ws == "dram" or ws == "big", "ws must be l2, dram or big, got '" .. tostring(ws) .. "'")
assert(a >= 1 and a <= 32 and c >= 1 and c <= 32, "a and c must be 1..32")

local n = ws == "l2" and 2^21 or ws == "dram" and 2^26 or 2^28
local lines = n / 32
local block = w <= 32 and 32 * w or 1024
local grid = w <= 32 and sms or 2 * sms
local p = gpuperf.buffer("p", 4 * n)
local out = gpuperf.buffer("out", 4 * grid * block)

local body = {}
for _ = 1, L do
  local line = 0
  body[#body + 1] = gpuperf.int(7)             -- LCG step, line, address
  body[#body + 1] = gpuperf.load{p, index = function(t)
    if t.lane >= a then return nil end
    if t.lane % c == 0 then line = gpuperf.random(0, lines - 1) end
    return line * 32 + (t.lane % c) * (spread == 1 and 8 or 1)
  end}
end
body[#body + 1] = gpuperf.int(math.max(1, L / 2))  -- the sum
local k = gpuperf.kernel{
  name = "k_gather", grid = grid, block = block, regs = regs, carveout = 0,
  work = {
    gpuperf.int(50),                           -- the seed's hash, lane / c, the lane test
    gpuperf.loop{trips, var = "k", unroll = 1, body = body},
    gpuperf.store{out},
  },
}
require("lib_warm")(k, p, n, sms, ws, reps)  -- warm once, or the memset before each launch
