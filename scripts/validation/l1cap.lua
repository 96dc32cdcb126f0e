-- l1cap.lua: random gathers against the L1's size (validation/h200/bench/bench_l1cap.cu,
-- k_l1cap, family `l1cap`).
--
-- One block of 32 w threads per SM (a grid of sm_count blocks). Each thread runs `trips`
-- trips of a `#pragma unroll 1` loop; a trip issues L independent 4-byte loads (an LCG in
-- registers draws each lane its own random 128-byte line) and adds them up at its end.
-- word = 0 reads word 0 of each line, word = rand a random word of it. The block asks
-- for `smem` KiB of dynamic shared memory that it never touches: the driver gives the
-- SM a carve-out of at least smem + 1 KiB (the preferred carve-out is 0), and the L1
-- keeps the rest of the SM's 256 KiB.
--   ws=l2    n = 2^21 ints (8 MiB), warmed by a coalesced read of the buffer (k_warm)
--            before the launches; the bench times the gathers alone, the rows divide
--            `reps` of them and the one k_warm
--   ws=dram  n = 2^26 ints (256 MiB), the L2 flushed before each launch
-- SASS (validation/h200/measured/run28/l1cap/sass_l1cap.txt.gz): per load the LCG's
-- IMAD, SHF and LOP3 for the line, SHF and LOP3 for a random word, IMAD.SHL and
-- IMAD.WIDE for the address, the LDG.E; a trip's sum in IMAD.IADD, its counter, compare
-- and branch. ptxas: 14 registers (L = 1), 20 (L = 4).
local ws    = gpuperf.param("ws", "l2", "l2 | dram")
local word  = gpuperf.param("word", "0", "0 (word 0 of each line) | rand (a random word)")
local w     = gpuperf.param("w", 8, "warps per SM (one block of 32 w threads)")
local L     = gpuperf.param("L", 1, "independent loads a trip")
local smem  = gpuperf.param("smem", 0, "KiB of dynamic shared memory a block asks for")
local trips = gpuperf.param("trips", 256, "trips per thread")
local regs  = gpuperf.param("regs", 14, "registers per thread, as ptxas reports")
local reps  = gpuperf.param("reps", 1, "launches, each timed alone")
assert(ws == "l2" or ws == "dram", "ws must be l2 or dram, got '" .. tostring(ws) .. "'")
assert(word == "0" or word == "rand", "word must be 0 or rand, got '" .. tostring(word) .. "'")
assert(w >= 1 and w <= 32, "w must be 1..32")

local sms = gpuperf.device.sm_count
local n = ws == "l2" and 2^21 or 2^26
local lines = n / 32
local p = gpuperf.buffer("p", 4 * n)
local out = gpuperf.buffer("out", 4 * sms * 32 * w)

local body = {}
for _ = 1, L do
  body[#body + 1] = gpuperf.int(word == "rand" and 7 or 5)  -- LCG step, line, word, address
  body[#body + 1] = gpuperf.load{p, index = function(t)
    local line = gpuperf.random(0, lines - 1)
    return line * 32 + (word == "rand" and gpuperf.random(0, 31) or 0)
  end}
end
body[#body + 1] = gpuperf.int(math.max(1, L / 2))  -- the sum
local k = gpuperf.kernel{
  name = "k_l1cap", grid = sms, block = 32 * w, regs = regs, carveout = 0,
  dynamic_smem = smem * 1024,
  work = {
    gpuperf.int(17),                           -- the seed's hash
    gpuperf.loop{trips, var = "k", unroll = 1, body = body},
    gpuperf.store{out},
  },
}
require("lib_warm")(k, p, n, sms, ws, reps)  -- warm once, or the memset before each launch
