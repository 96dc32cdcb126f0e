-- scatterw.lua: random stores whose lanes each name their own line, under load
-- (validation/h200/bench/bench_scatterw.cu, k_scatterw).
--
-- `w` warps per SM on every SM (one block of 32 w threads per SM, or two of 1024 for
-- w = 64). Each thread runs `trips` trips of a `#pragma unroll 1` loop; a trip issues L
-- independent stores of W bytes (one STG of 4, 8 or 16 bytes), or with S = W / 4 each
-- store's W bytes as W / 4 stores of 4 bytes to its consecutive words. Lanes are
-- grouped `c` to a group; a group draws one random 128-byte line per store (an LCG in
-- registers) and its lanes write consecutive W-byte pieces of it: c * W bytes a group
-- (4..16: part of a sector, 32: a whole sector, 128: a whole line). Only lanes
-- 0 .. a-1 run the loop.
--   ws=l2     n = 2^21 ints (8 MiB), read by k_warm (SMs x 4 blocks of 512 threads,
--             int4 loads) before each launch: its lines in L2, clean; the rows divide
--             `reps` launches and the one k_warm
--   ws=dram   n = 2^26 ints (256 MiB), the L2 flushed before each launch
--   ws=dramc  the same (the bench empties the L2 by reading instead of the memset)
--   ws=big    n = 2^28 ints (1 GiB), flushed
-- The S word stores of one piece name one line: they share their draws (`draws`).
-- SASS (validation/h200/measured/run40/scatterw/sass_scatterw.txt.gz): per store an IMAD
-- (the LCG), SHF and LOP3 (the line), LEA and LEA.HI.X (the address), the value's move
-- and the STG (S = W / 4: W / 4 STG.E at the address plus 0, 4, ...); the trip's
-- counter, compare and branch.
local ws    = gpuperf.param("ws", "dram", "l2 | dram | dramc | big")
local w     = gpuperf.param("w", 8, "warps per SM (1..32, or 64: two blocks of 1024)")
local a     = gpuperf.param("a", 32, "active lanes per warp")
local c     = gpuperf.param("c", 1, "lanes per line")
local W     = gpuperf.param("W", 4, "bytes a store: 4, 8 or 16")
local L     = gpuperf.param("L", 1, "independent stores a trip")
local S     = gpuperf.param("S", 1, "stores each W bytes are written with: 1, or W / 4 of 4 bytes")
local trips = gpuperf.param("trips", 256, "trips per thread")
local regs  = gpuperf.param("regs", 20, "registers per thread, as ptxas reports")
local reps  = gpuperf.param("reps", 1, "launches, each timed alone")
assert(ws == "l2" or ws == "dram" or ws == "dramc" or ws == "big",
       "ws must be l2, dram, dramc or big, got '" .. tostring(ws) .. "'")
assert(W == 4 or W == 8 or W == 16, "W must be 4, 8 or 16")
assert(a >= 1 and a <= 32 and c >= 1 and c * W <= 128, "a must be 1..32 and c * W at most 128")
assert(S == 1 or S == W / 4, "S must be 1 or W / 4")

local sms = gpuperf.device.sm_count
local n = ws == "l2" and 2^21 or ws == "big" and 2^28 or 2^26
local per_line = 128 / W
local lines = n * 4 / 128
local block = w <= 32 and 32 * w or 1024
local grid = w <= 32 and sms or 2 * sms
local p = gpuperf.buffer("p", 4 * n)
local out = gpuperf.buffer("out", 4 * grid * block)

local body = {}
for j = 1, L do
  body[#body + 1] = gpuperf.int(1)             -- the LCG step: a chain through the trip
  body[#body + 1] = gpuperf.int{5, ilp = 5}    -- the line, the address, the value: beside it
  for q = 0, S - 1 do                          -- S = W / 4: word q of each lane's piece
    local line = 0
    local share = S > 1 and "line" .. j or nil  -- the word stores of a piece: one draw
    body[#body + 1] = gpuperf.store{p, bytes = W / S, draws = share, index = function(t)
      if t.lane >= a then return nil end
      if t.lane % c == 0 then line = gpuperf.random(0, lines - 1) end
      return (line * per_line + t.lane % c) * S + q
    end}
  end
end
local k = gpuperf.kernel{
  name = "k_scatterw", grid = grid, block = block, regs = regs, carveout = 0,
  work = {
    gpuperf.int(50),                           -- the seed's hash, lane / c, the lane test
    gpuperf.loop{trips, var = "k", unroll = 1, body = body},
    gpuperf.store{out},
  },
}
-- warm once, or the bench's flush before each launch: the memset, or for dramc a read of
-- the scratch
require("lib_warm")(k, p, n, sms, ws, reps, {clean = ws == "dramc"})
