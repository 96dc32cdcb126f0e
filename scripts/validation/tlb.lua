-- tlb.lua: random gathers over buffers of 64 MiB to 8 GiB
-- (validation/h200/bench/bench_tlb.cu, family `tlb`).
--
-- Each thread runs `trips` trips of a `#pragma unroll 1` loop of L independent 4-byte
-- loads (unrolled), summed at the trip's end. A group of c lanes draws one random
-- 128-byte line of the buffer per load (a 64-bit LCG in registers, no index loads) and
-- its lanes read consecutive words of it: c = 1, every lane its own line; c = 32, the
-- warp one whole line. `n` ints in the buffer; the 1 GiB memset flush before the launch.
--   kind thr   64 warps per SM (two blocks of 1024), L = 4, c = 1, 64 trips
--   kind line  64 warps per SM, L = 4, c = 32, 256 trips
--   kind lat   one warp per SM, L = 1, c = 1, 256 trips
-- SASS (validation/h200/measured/run13/tlb/sass_tlb.txt.gz): per load the LCG's 64-bit
-- step from the trip's start (IMAD.WIDE.U32, IMADs, IMAD.IADD), the line (SHF.R.U64,
-- SHF.R.U32.HI, LOP3), the address (LEA, LEA.HI.X, a second LEA pair for the lane's
-- word) and the LDG.E; the trip's sum in IADD3s.
local n     = gpuperf.param("n", 2^28, "ints in the buffer (a power of two, 2^24 .. 2^31)")
local kind  = gpuperf.param("kind", "thr", "thr | line | lat")
local regs  = gpuperf.param("regs", 26, "registers per thread, as ptxas reports")
local w, L, c, trips
if kind == "thr" then w, L, c, trips = 64, 4, 1, 64
elseif kind == "line" then w, L, c, trips = 64, 4, 32, 256
elseif kind == "lat" then w, L, c, trips = 1, 1, 1, 256
else error("kind must be thr, line or lat, got '" .. tostring(kind) .. "'") end

local lines = n / 32
local sms = gpuperf.device.sm_count
local block = w <= 32 and 32 * w or 1024
local grid = w <= 32 and sms or 2 * sms
local p = gpuperf.buffer("p", 4 * n)
local out = gpuperf.buffer("out", 4 * grid * block)

local body = {}
for _ = 1, L do
  local line = 0
  body[#body + 1] = gpuperf.int(8)             -- the LCG's 64-bit step, line, address
  body[#body + 1] = gpuperf.load{p, index = function(t)
    if t.lane % c == 0 then line = gpuperf.random(0, lines - 1) end
    return line * 32 + t.lane % c
  end}
end
body[#body + 1] = gpuperf.int(math.max(1, L / 2))  -- the sum
gpuperf.flush_l2()
gpuperf.launch{
  name = "k_tlb", grid = grid, block = block, regs = regs, carveout = 0,
  work = {
    gpuperf.int(30),                           -- the seed's hash and its 64-bit spread
    gpuperf.loop{trips, var = "k", unroll = 1, body = body},
    gpuperf.store{out},
  },
}
