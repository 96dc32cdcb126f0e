-- shist.lua: shared-memory histograms against the number of bins
-- (validation/h200/bench/bench_shist.cu, family `shist`).
--
-- k_shist<MODE, RET>: blocks of 256 threads, `warps` / 8 of them per SM (one wave);
-- each clears B = `bins` words of dynamic shared memory, a barrier, then 512 trips
-- (`#pragma unroll 4`) of an atomicAdd(&h[b], 1u) on a bin drawn three ways:
--   hash   x = x * 1664525 + 1013904223 (the thread's LCG), b = (x >> 16) & (B - 1):
--          each lane its own draw;
--   warp   the same LCG seeded by the warp: one draw a warp and trip, all lanes on it;
--   lane   b = (lane + trip) & (B - 1).
-- The bin comes from a run-time value the compiler cannot see through (`from_data`).
-- ret = 0 discards the old value (ATOMS.POPC.INC.32, update "inc"); ret = 1 adds it up
-- (ATOMS.ADD, `result = true`). A barrier, then each block adds its B counts into a
-- global array (REDG). SASS (validation/h200/measured/run47/shist): a trip is IMAD
-- (the LCG), SHF, LOP3, LEA and the ATOMS (lane: VIADD, LOP3, LEA); ptxas: 12 registers
-- (hash, warp; lane 13) with ret = 0, 14 (lane 15) with ret = 1.
local mode  = gpuperf.param("mode", "hash", "hash | warp | lane")
local ret   = gpuperf.param("ret", 0, "1: the atomic's old value is used")
local B     = gpuperf.param("bins", 256, "bins, a power of two (1 .. 1024)")
local warps = gpuperf.param("warps", 64, "warps per SM: 8, 32 or 64 (1, 4 or 8 blocks)")
local iters = gpuperf.param("iters", 512, "atomics per thread")
local regs  = gpuperf.param("regs", 12, "registers per thread, as ptxas reports")
assert(mode == "hash" or mode == "warp" or mode == "lane",
       "mode must be hash, warp or lane, got '" .. tostring(mode) .. "'")
assert(ret == 0 or ret == 1, "ret must be 0 or 1")
assert(B >= 1 and B == 2^math.floor(math.log(B) / math.log(2) + 0.5), "bins must be a power of two")
assert(warps % 8 == 0 and warps >= 8 and warps <= 64, "warps must be 8, 16, .., 64")

local blocks = gpuperf.device.sm_count * warps / 8
local W = blocks * 8
local out = gpuperf.buffer("out", 4 * 1024)

-- warp mode: a draw per warp and trip, the same for its lanes (an integer hash of
-- both, exact in doubles)
local function wbin(t)
  local w = (t.bx * 8 + t.warp) + W * t.j
  return math.floor(((w * 2654435761) % 2^32) / 2^12) % B
end
local index = ({
  hash = function(t) return gpuperf.random(0, B - 1) end,
  warp = wbin,
  lane = function(t) return (t.lane + t.j) % B end,
})[mode]

local per = math.ceil(B / 256)
gpuperf.launch{
  name = mode .. (ret == 1 and "_ret" or "_inc"), grid = blocks, block = 256, regs = regs,
  dynamic_smem = 4 * B,
  work = {
    gpuperf.int(6),                                  -- the seed's hash, the index
    gpuperf.loop{per, { gpuperf.int(2), gpuperf.shared_store{} }},
    gpuperf.barrier(),
    gpuperf.loop{iters, var = "j", unroll = 4, body = {
      mode == "lane" and gpuperf.int(1) or gpuperf.imul(1),  -- lane + trip, or the LCG
      -- hash, warp: the shift, the AND, the LEA (SHF, LOP3, LEA); lane: the AND, the LEA
      gpuperf.int(mode == "lane" and 2 or 3),
      gpuperf.atomic{space = "shared", update = "inc", index = index, result = ret == 1,
                     from_data = true},
      ret == 1 and gpuperf.int(1) or nil,            -- acc += old
    }},
    gpuperf.barrier(),
    gpuperf.loop{per, { gpuperf.int(2), gpuperf.shared_load{},
                        gpuperf.atomic{out, index = function(t)
                          if t.x + 256 * t.i < B then return t.x + 256 * t.i end
                        end} }, var = "i"},
  },
}
