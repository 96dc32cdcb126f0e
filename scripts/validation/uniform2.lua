-- uniform2.lua: a warp's independent global loads, 1 to 16 a trip, with 1 to 32 warps
-- per SM (validation/h200/bench/bench_uniform2.cu, family `uniform2`).
--
-- Each trip of the loop (not unrolled) issues `nind` independent loads from one pointer
-- at immediate offsets, then adds each value into its own accumulator (a float4's four
-- components: 4 FADD); the pointer advances past them. Warp g (the global warp index
-- gx / 32) reads row g % rg of x:
--   coal = 0  every lane the same element (warp-uniform);
--   coal = 1  lane l element l of each 32-element group (one line a float, four a float4).
--   res = l1  4096 loads a thread: uniform rows of 1 KiB (256 / vec elements, step 1),
--             rg = 64; coalesced rows of 32 groups (step 32), rg = 4; re-read.
--   res = l2  512 loads a thread, one pass, each its own line (uniform step 32 / vec,
--             coalesced step 32), rg = 128 rows: no line is re-read by its SM.
-- `ldm`: plain (LDG.E), nc (ld.global.nc: LDG.E.CONSTANT, as __ldg or const __restrict__
-- give; described as texture-path loads), ca (ld.global.ca: LDG.E.STRONG.SM).
-- `warps` per SM: 1, 2, 4 as one block of 32 x warps threads, 16 and 32 as warps / 4
-- blocks of 128 threads (grid sms x blocks), no shared memory, carve-out 0.
-- SASS (validation/h200/measured/run9/uniform2/sass_uniform2.txt.gz): the loop's LDG
-- (LDG.E.128 for float4) with immediate offsets from one pointer; ptxas keeps all
-- `nind` loads of a trip in flight up to 8 floats, but with 16 accumulators (32
-- registers) it rotates 4 value registers (16 loads, 4 in flight), and float4 x 8
-- rotates 3.
local coal  = gpuperf.param("coal", 0, "1: coalesced (lane l reads element l); 0: warp-uniform")
local res   = gpuperf.param("res", "l1", "l1 | l2")
-- reps: the bench re-reads x that its warm-ups and earlier repetitions left in L2;
-- here `reps` launches, the first from a cold L2, and the table's divide_by
local reps  = gpuperf.param("reps", 1, "launches (res = l2: warm L2 after the first)")
local vec   = gpuperf.param("vec", 1, "1 (float) or 4 (float4)")
local nind  = gpuperf.param("nind", 8, "independent loads a trip: 1, 2, 4, 8 or 16")
local ldm   = gpuperf.param("ldm", "plain", "plain | nc | ca")
local warps = gpuperf.param("warps", 1, "warps per SM")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")

assert(vec == 1 or vec == 4, "vec must be 1 or 4")
assert(ldm == "plain" or ldm == "nc" or ldm == "ca", "ldm must be plain, nc or ca")
local sms = gpuperf.device.sm_count
local floor = math.floor

local m, passes, rg, step, pitch
if res == "l2" then
  m, passes, rg = 512, 1, 128
  step = coal == 1 and 32 or floor(32 / vec)
  pitch = m * step
elseif coal == 1 then
  m, rg, step = 32, 4, 32
  passes, pitch = floor(4096 / m), m * 32
else
  m, rg, step = floor(256 / vec), 64, 1
  passes, pitch = floor(4096 / m), m
end
local bt = warps <= 4 and 32 * warps or 128
local grid = sms * (warps <= 4 and 1 or floor(warps / 4))
local x = gpuperf.buffer("x", 32 * 2^20)
local out = gpuperf.buffer("out", 4 * grid * bt)

local body = {}
for q = 0, nind - 1 do
  body[#body + 1] = gpuperf.load{x, bytes = 4 * vec, space = ldm == "nc" and "texture" or nil,
    index = function(t)
      local g = floor(t.gx / 32)
      return (g % rg) * pitch + (coal == 1 and t.lane or 0) + (nind * t.j + q) * step
    end}
end
body[#body + 1] = gpuperf.fp32{nind * vec, ilp = nind}
body[#body + 1] = gpuperf.int(1)                 -- the pointer
local function one()
  gpuperf.launch{
    name = string.format("%s_%s%s_n%d%s", coal == 1 and "coal" or "uni", res,
                         vec == 4 and "_f4" or "", nind, ldm == "plain" and "" or "_" .. (ldm == "nc" and "ldg" or "ca")),
    grid = grid, block = bt, regs = regs, carveout = 0,
    work = {
      gpuperf.int(6),
      gpuperf.loop(passes, { gpuperf.loop{floor(m / nind), var = "j", unroll = 1, body = body} }),
      gpuperf.store{out, index = function(t) return t.gx end},
    },
  }
  gpuperf.synchronize()
end
for _ = 1, reps do one() end
