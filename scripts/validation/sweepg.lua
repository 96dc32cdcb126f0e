-- sweepg.lua: gathers into a buffer that the same launch reads in order
-- (validation/h200/bench/bench_sweepg.cu, family `sweepg`).
--
-- Thread g of n (the buffer's 4-byte words, blocks of 256) reads x[g] (sweep = 1) or
-- y[g] (sweep = 0, a buffer of the same size), and when the value is not negative
-- (always) its lanes l < a (a = 32: every lane; a = 1: lane 0 of each warp) read k
-- words of x drawn at random (an LCG in registers), unrolled: independent (chain = 0)
-- or each address waiting for the value before it (chain = 1), then store the sum.
-- The memset flush before the launch.
-- SASS (validation/h200/measured/run37/sweepg/sass_sweepg.txt.gz): the read, FSETP
-- and the branch; the hash of g, 11 integer instructions; per gather an IMAD (the
-- LCG), SHF, LOP3 (the mask) and an IMAD.WIDE (the address), the LDGs of the unrolled
-- gathers issued together, FADDs after them; LEA, LEA.HI.X and the store.
local n     = gpuperf.param("n", 2^20, "words of x (and of y)")
local k     = gpuperf.param("k", 4, "gathers a lane: 1, 4 or 16")
local a     = gpuperf.param("a", 32, "lanes of a warp that gather: 32 or 1")
local sweep = gpuperf.param("sweep", 1, "1: the ordered read is of x itself; 0: of y")
local chain = gpuperf.param("chain", 0, "1: each gather's address waits for the last value")
local regs  = gpuperf.param("regs", 20, "registers per thread, as ptxas reports")
assert(a == 32 or a == 1, "a must be 32 or 1")
assert(sweep == 0 or sweep == 1, "sweep must be 0 or 1")
assert(chain == 0 or chain == 1, "chain must be 0 or 1")

local x   = gpuperf.buffer("x", 4 * n)
local y   = gpuperf.buffer("y", 4 * n)
local out = gpuperf.buffer("out", 4 * n)

local function draw(t)
  if a == 32 or t.lane < a then return gpuperf.random(0, n - 1) end
end

gpuperf.flush_l2()
gpuperf.launch{
  name = string.format("%s_%s", sweep == 1 and "sweep" or "other", chain == 1 and "chain" or "ind"),
  grid = n / 256, block = 256, regs = regs,
  work = {
    gpuperf.int(2),                                        -- g, its address
    gpuperf.load{sweep == 1 and x or y, index = function(t) return t.gx end},
    gpuperf.fp32(1), gpuperf.branch(1),                    -- FSETP, the branch
    gpuperf.int(11),                                       -- the hash of g
    gpuperf.loop{k, var = "j", unroll = k, body = {
      gpuperf.int(4),                                      -- IMAD, SHF, LOP3, IMAD.WIDE
      gpuperf.load{x, depends = chain == 1, index = draw},
      gpuperf.fp32(1),                                     -- s += w
    }},
    gpuperf.int(2),                                        -- LEA, LEA.HI.X
    gpuperf.store{out, index = function(t) return t.gx end},
  },
}
