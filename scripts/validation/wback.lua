-- wback.lua: what a kernel leaves in L2 for the next kernel that reads the same buffer
-- (validation/h200/bench/bench_wback.cu, family `wback`).
--
-- k_wr writes S MiB, one float4 a thread (STG.E.128); k_rd reads them, one float4 a
-- thread (LDG.E.128, summed; the store behind `if (s == -1)` never runs). The bench
-- empties the L2 before each repetition by reading its 1 GiB scratch (clean lines) and
-- waits for it, then times, with events on one stream:
--   mode = wr_rd  k_wr then k_rd;   rd_rd  k_rd then k_rd;
--          wr     k_wr alone;       rd     k_rd alone.
-- SASS (validation/h200/measured/run11/wback/sass_wback.txt.gz): the index (IMAD.WIDE.U32)
-- and its 64-bit guard, then k_rd's LDG.E.128.CONSTANT, three FADD and a compare, k_wr's
-- conversion of i & 3 and STG.E.128; ptxas: k_rd 10 registers, k_wr 14.
local mode = gpuperf.param("mode", "wr_rd", "wr_rd | rd_rd | wr | rd")
local mib  = gpuperf.param("mib", 32, "MiB written or read")

local n4 = math.floor(mib * 2^20 / 16)
local a = gpuperf.buffer("a", 16 * n4)
local out = gpuperf.buffer("out", 4096)
local grid = math.ceil(n4 / 256)

local function wr()
  gpuperf.launch{name = "k_wr", grid = grid, block = 256, regs = 14, work = {
    gpuperf.int(4),                                   -- the index, its guard
    gpuperf.conv(1),                                  -- (float)(i & 3)
    gpuperf.store{a, bytes = 16},
  }}
end
local function rd()
  gpuperf.launch{name = "k_rd", grid = grid, block = 256, regs = 10, work = {
    gpuperf.int(4),
    gpuperf.load{a, bytes = 16, space = "texture"},  -- const __restrict__: LDG.E.128.CONSTANT
    gpuperf.fp32{3, ilp = 2},
    gpuperf.int(1),                                   -- the compare
  }}
end

gpuperf.flush_l2{clean = true}   -- the scratch read, waited for
gpuperf.synchronize()
if mode == "wr_rd" then wr(); rd()
elseif mode == "rd_rd" then rd(); rd()
elseif mode == "wr" then wr()
elseif mode == "rd" then rd()
else error("mode must be wr_rd, rd_rd, wr or rd, got " .. tostring(mode)) end
