-- l1issue.lua: L1-hit loads against the issue slots beside them
-- (validation/h200/bench/bench_l1issue.cu, family `l1issue`).
--
-- Each trip of a loop of 1024 trips (`#pragma unroll 1`) issues 8 coalesced 4-byte
-- loads (LDG.E): load u reads line u + 1 of the warp's own row of 9 lines (warp g =
-- gx / 32 reads row g % 64; lane l word l), all L1 hits; each value is added into `e` of
-- 8 accumulators (e FADDs a load). `form`:
--   imm   the loads at immediate offsets from the row's pointer
--   wide  each load's address its own, the row's base plus a masked word index: nvcc
--         hoists the masked offsets (LOP3, IMAD.WIDE.U32) out of the loop and adds each
--         to the base in it (IADD3, IADD3.X a load, SASS run42), into one register pair
--         that the load's value then takes, so ptxas runs the trip's loads one at a time
--         (not said here: the language's `depends` would make them a chase)
--   pair  imm's loads, each beside a warp-uniform load of word u of the row's line 0
--         whose value is added to the loaded one (an FADD)
-- Per trip beside them: the row pointer's step by a run-time zero and the count's
-- compare. Blocks of 256 threads, `warps` / 8 per SM (grid SMs x blocks), no shared
-- memory, carve-out 0.
local form  = gpuperf.param("form", "imm", "imm | wide | pair")
local e     = gpuperf.param("e", 1, "FADDs a load: 1 to 12")
local warps = gpuperf.param("warps", 64, "warps per SM: 16, 32 or 64")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
assert(form == "imm" or form == "wide" or form == "pair", "form must be imm, wide or pair")
assert(e >= 1 and e <= 12 and e == math.floor(e), "e must be an integer from 1 to 12")
assert(warps == 16 or warps == 32 or warps == 64, "warps must be 16, 32 or 64")
local nld = 8
local grid, x, out, row = require("lib_rows9")(warps)  -- 64 rows of 9 lines, a warp's row
local body = { gpuperf.int(2) }  -- the row's step, the compare
for u = 1, nld do
  if form == "wide" then body[#body + 1] = gpuperf.int(2) end  -- IADD3, IADD3.X
  body[#body + 1] = gpuperf.load{x, index = function(t) return row(t) + u * 32 + t.lane end}
end
if form == "pair" then
  for u = 1, nld do
    body[#body + 1] = gpuperf.load{x, index = function(t) return row(t) + u - 1 end}
  end
  body[#body + 1] = gpuperf.fp32(nld)
end
body[#body + 1] = gpuperf.fp32(nld * e)
gpuperf.launch{
  name = form .. "_fadd" .. e, grid = grid, block = 256, regs = regs, carveout = 0,
  work = {
    gpuperf.int(8),
    gpuperf.loop{1024, var = "j", unroll = 1, body = body},
    gpuperf.fp32(7),
    gpuperf.store{out, index = function(t) return t.gx end},
  },
}
