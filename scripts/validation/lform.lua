-- lform.lua: L1-hit loads by the form of their address arithmetic, the kind of load and
-- the arithmetic on their values (validation/h200/bench/bench_lform.cu, family `lform`).
--
-- Each trip of a loop of 1024 trips (`#pragma unroll 1`) issues 8 coalesced 4-byte
-- loads: load u reads line u + 1 of the warp's own row of 9 lines (warp g = gx / 32
-- reads row g % 64; lane l word l), all L1 hits. The pointer starts at the row each
-- trip and reaches load u's line by
--   imm    immediate offsets from the row's pointer: no integer work
--   add64  a 64-bit add a load (IADD3, IADD3.X)
--   madwu, madws  mad.wide.u32 / .s32 of the step by 4: ptxas hoists the product and
--          adds it, IADD3 and IADD3.X a load, as add64 (SASS)
--   lea    an int index stepped by an add, base + idx * 4: IMAD.IADD, SHF, LEA, LEA.HI.X
--   madi   the same index, mad.wide.s32 idx, 4, base: ptxas makes it IMAD.IADD (or
--          VIADD), LEA, LEA.HI.X.SX32 (weak loads only; run39)
-- `kind`: weak (ld.global: LDG.E), nc (ld.global.nc: LDG.E.CONSTANT, described as a
-- texture-path load), ca (ld.global.ca: as a global load). `arith`: sum (an FADD a
-- value), sq ((v - c)^2 summed: FADD, FFMA), pair (a warp-uniform word of the row's line
-- 0 at an immediate offset beside each load, one FFMA: the naive SGEMM's k step), none
-- (no loads: the address arithmetic alone, its last pointer folded a trip; lea folds
-- every address, a LOP3 for two, and ptxas adds two madw steps with one IADD3 and one
-- IADD3.X).
-- Per trip beside them (SASS): the row pointer's step by a run-time zero (IMAD.WIDE) and
-- the count's compare; the pair kernels' uniform pointer (IADD3, IADD3.X).
-- Blocks of 256 threads, `warps` / 8 per SM (grid SMs x blocks), no shared memory,
-- carve-out 0. SASS: validation/h200/measured/run38/lform/sass_lform.txt.gz (run39 for
-- madi).
local form  = gpuperf.param("form", "imm", "imm | add64 | madwu | madws | lea | madi")
local kind  = gpuperf.param("kind", "weak", "weak | nc | ca | none (arith = none)")
local arith = gpuperf.param("arith", "sum", "sum | sq | pair | none")
local warps = gpuperf.param("warps", 64, "warps per SM: 16, 32 or 64")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
assert(form == "imm" or form == "add64" or form == "madwu" or form == "madws" or form == "lea"
       or form == "madi", "form must be imm, add64, madwu, madws, lea or madi")
assert(kind == "weak" or kind == "nc" or kind == "ca" or kind == "none",
       "kind must be weak, nc, ca or none")
assert(arith == "sum" or arith == "sq" or arith == "pair" or arith == "none",
       "arith must be sum, sq, pair or none")
assert((arith == "none") == (kind == "none"), "kind = none goes with arith = none")
assert(not (arith == "none" and form == "imm"), "form = imm has no arithmetic to time alone")
assert(warps == 16 or warps == 32 or warps == 64, "warps must be 16, 32 or 64")
local nld = 8
local grid, x, out, row = require("lib_rows9")(warps)  -- 64 rows of 9 lines, a warp's row
local space = kind == "nc" and "texture" or nil
-- integer instructions a load's address takes (SASS)
local addr = ({imm = 0, add64 = 2, madwu = 2, madws = 2, lea = 4, madi = 3})[form]
local body = { gpuperf.int(arith == "pair" and 4 or 2) }  -- the row's step, the compare
if arith == "none" then
  -- add64: IADD3 + IADD3.X a step; madw: one of each for two steps; lea, madi:
  -- IMAD.IADD, LEA a step, a LOP3 for two
  local per = ({add64 = 2, madwu = 1, madws = 1, lea = 2.5, madi = 2.5})[form]
  body[#body + 1] = gpuperf.int(nld * per)
  body[#body + 1] = gpuperf.int(1)                       -- the fold
else
  for u = 1, nld do
    if addr > 0 then body[#body + 1] = gpuperf.int(addr) end
    body[#body + 1] = gpuperf.load{x, space = space,
      index = function(t) return row(t) + u * 32 + t.lane end}
  end
  for u = 1, nld do
    if arith == "pair" then
      body[#body + 1] = gpuperf.load{x, space = space,
        index = function(t) return row(t) + (u - 1) end}
      body[#body + 1] = gpuperf.fp32(1)
    else
      body[#body + 1] = gpuperf.fp32(arith == "sq" and 2 or 1)
    end
  end
end
gpuperf.launch{
  name = string.format("%s_%s_%s", form, kind, arith), grid = grid, block = 256, regs = regs,
  carveout = 0,
  work = {
    gpuperf.int(8),
    gpuperf.loop{1024, var = "j", unroll = 1, body = body},
    gpuperf.fp32(3),
    gpuperf.store{out, index = function(t) return t.gx end},
  },
}
