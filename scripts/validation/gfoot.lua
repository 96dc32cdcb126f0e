-- gfoot.lua: random 4-byte gathers over footprints from 16 KiB to 64 MiB
-- (validation/h200/bench/bench_gfoot.cu, k_gfoot, family `gfoot`).
--
-- `w` warps per SM on every SM, as w / 8 blocks of 256 threads per SM (grid = SMs x
-- w / 8, every block resident at once), carve-out preference 0. Each thread runs
-- `trips` trips of a `#pragma unroll 1` loop (256 / L); a trip issues L independent
-- 4-byte loads and adds them up at its end. Each lane draws its own random word of the
-- buffer per load: an LCG in registers, word (x >> 7) & (n - 1) for n = fp / 4 words.
-- Where n is not a power of two (192 and 384 KiB: n = 3 x 2^k) the mask n - 1 keeps
-- k + 1 of the index's bits, so the draws reach 2^(k + 1) words spread over the n (128
-- and 256 KiB of the buffer): `reach`. The memset flush before each launch.
-- SASS (validation/h200/measured/run29/gfoot/sass_gfoot.txt.gz): per load IMAD (the
-- LCG), SHF and LOP3 (the word), IMAD.WIDE (the address) and LDG.E; per trip the loads'
-- sum (IADD3s of three), the counter, compare and branch. ptxas: 14 registers (L = 1),
-- 21 (L = 4).
-- draw = uniform: the second sweep (GFOOT_SET=l2, rows `gather_u`, run31): the word is
-- __umulhi(x, n), uniform over the n words whatever n (IMAD.HI for SHF and LOP3;
-- 20 registers at L = 4).
-- active < 32: the third sweep (GFOOT_SET=lanes, rows `gather_a`, k_gfoot_a): only the
-- first `active` lanes of each warp run the loop (draw = uniform, L = 4, 64 trips).
local fp    = gpuperf.param("fp", 256, "footprint in KiB (the buffer's size)")
local w     = gpuperf.param("w", 8, "warps per SM: 8, 32 or 64 (1, 4 or 8 blocks of 256)")
local L     = gpuperf.param("L", 1, "independent loads a trip")
local trips = gpuperf.param("trips", 256, "trips per thread")
local regs  = gpuperf.param("regs", 14, "registers per thread, as ptxas reports")
local draw  = gpuperf.param("draw", "mask", "mask: word (x >> 7) & (n - 1); uniform: __umulhi(x, n)")
local active = gpuperf.param("active", 32, "lanes of each warp that gather (the others skip the loop)")
assert(active >= 1 and active <= 32, "active must be 1..32, got " .. tostring(active))
assert(draw == "mask" or draw == "uniform", "draw must be mask or uniform, got " .. tostring(draw))
assert(w == 8 or w == 32 or w == 64, "w must be 8, 32 or 64, got " .. tostring(w))
local n = fp * 1024 / 4
assert(n >= 1 and n == math.floor(n), "fp must be a whole number of 4-byte words")

-- the bits of n - 1, low to high: the draw's bits land on them (n a power of two:
-- every word of the buffer)
local bits, m, b = {}, n - 1, 1
while m > 0 do
  if m % 2 == 1 then bits[#bits + 1] = b end
  m, b = math.floor(m / 2), b * 2
end
local reach = 2 ^ #bits
if draw == "uniform" then reach, bits = n, nil end
local function word(r)
  if not bits then return r end
  local v = 0
  for i = 1, #bits do
    if r % 2 == 1 then v = v + bits[i] end
    r = math.floor(r / 2)
  end
  return v
end

local p = gpuperf.buffer("p", 4 * n)
local body = {}
for _ = 1, L do
  body[#body + 1] = gpuperf.int(bits and 4 or 3) -- IMAD, SHF, LOP3 (uniform: IMAD.HI), IMAD.WIDE
  body[#body + 1] = gpuperf.load{p, index = function(t)
    if t.lane >= active then return nil end
    return word(gpuperf.random(0, reach - 1)) end}
end
body[#body + 1] = gpuperf.int(math.max(1, L / 2))  -- the sum
gpuperf.flush_l2()   -- the memset of the 1 GiB scratch before each repetition
gpuperf.launch{
  name = "k_gfoot", grid = gpuperf.device.sm_count * w / 8, block = 256, regs = regs,
  carveout = 0,
  work = {
    gpuperf.int(12),                           -- the seed's hash
    gpuperf.loop{trips, var = "k", unroll = 1, body = body},
    gpuperf.store{gpuperf.buffer("out", 4 * gpuperf.device.sm_count * w * 32)},
  },
}
