-- uniform.lua: warp-uniform and few-address global loads with 1 to 64 warps per SM
-- (validation/h200/bench/bench_uniform.cu, family `uniform`).
--
-- Warp g (the global warp index gx / 32) reads, for j = 0..m-1 (`passes` times),
-- element j * step of its row(s) of x (float or float4 from a plain `const float *`),
-- lane l in address group a = l / (32 / na):
--   na < 32, same = 0  row (g % rg) * na + a: na rows, each its own line;
--   na < 32, same = 1  row g % rg, element j + a: na consecutive words of one line;
--   na = 32            row g % rg, element j * 32 + l: a coalesced load (the reference).
--   res = l1  rows of 1 KiB (step 1; coalesced: 32 lines a row, 4 rows), re-read;
--   res = l2  one line a load (step 32 / vec elements), 1024 loads, one pass, 128 rows
--             of 128 KiB (16 MiB): no row is re-read by its SM.
--   kind = ind  8 loads a trip of the source loop, each into its own accumulator (a
--               float4's four components added: 4 FADD), nvcc unrolls it 4 times more;
--   kind = chn  the next element index adds bits(v) >> 30 (always 0): one load in
--               flight per warp;
--   kind = mix  the naive GEMM trip: acc = fmaf(A[row][k], B[k][l % (32 / na)], acc),
--               A the few-address load, B coalesced (32 x 256 floats shared by every
--               warp), one accumulator; unrolled 4.
-- `warps` per SM: 1, 2, 4 as one block of 32 x warps threads, 8..64 as warps / 4
-- blocks of 128 threads (grid sms x blocks), no shared memory, carve-out 0. The
-- carve-out leaves 8 KiB of shared memory, the 1 KiB each block reserves: 8 blocks
-- per SM at a time, so warps = 64 runs as two waves of 32 warps.
-- The bench's _ldg, _ca and _mask rows (each load computes its own address: an
-- IMAD.WIDE, LEAs and an IADD3 a load) are not described here.
-- SASS (validation/h200/measured/run9/uniform/sass_uniform.txt.gz): plain LDG.E
-- (LDG.E.128 for float4) with immediate offsets from one pointer.
local kind  = gpuperf.param("kind", "ind", "ind | chn | mix")
local res   = gpuperf.param("res", "l1", "l1 | l2")
-- The bench times each launch after two warm-ups without a flush: x and B start in
-- L2 (in_l2); `reps` launches and the table's divide_by
local reps  = gpuperf.param("reps", 1, "launches")
local vec   = gpuperf.param("vec", 1, "1 (float) or 4 (float4)")
local na    = gpuperf.param("na", 1, "addresses (lane groups) per warp: 1, 2, 4, 8 or 32")
local same  = gpuperf.param("same", 0, "1: the na addresses are consecutive words of one row")
local all   = gpuperf.param("all", 0, "1: every warp reads the one row (rg = 1)")
local warps = gpuperf.param("warps", 8, "warps per SM")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")

assert(vec == 1 or vec == 4, "vec must be 1 or 4")
assert(na == 1 or na == 2 or na == 4 or na == 8 or na == 32, "na must be 1, 2, 4, 8 or 32")
assert(kind == "ind" or kind == "chn" or kind == "mix", "kind must be ind, chn or mix")
local sms = gpuperf.device.sm_count
local floor = math.floor
local coal = na == 32
if coal then same = 1 end

local m, passes, rg, step, pitch
if res == "l2" then
  m, passes, rg, step = 1024, 1, floor(128 / na), floor(32 / vec)
  pitch = m * step
elseif coal then
  m, rg, step = 32, 4, 32
  passes, pitch = floor(4096 / m), m * 32
else
  m, step = floor(256 / vec), 1
  passes, pitch = floor(4096 / m), m
  rg = all == 1 and 1 or (same == 1 and 64 or floor(64 / na))
end
local bt = warps <= 4 and 32 * warps or 128
local grid = sms * (warps <= 4 and 1 or floor(warps / 4))
local x = gpuperf.buffer("x", 32 * 2^20, {in_l2 = true})
local B = gpuperf.buffer("B", 4 * 256 * 32, {in_l2 = true})
local out = gpuperf.buffer("out", 4 * grid * bt)

-- element (in units of vec floats) of copy q of trip j
local group = floor(32 / na)
local function elem(t, j)
  local g = floor(t.gx / 32)
  local a = floor(t.lane / group)
  if same == 1 then
    return (g % rg) * pitch + a + j * step
  end
  return ((g % rg) * na + a) * pitch + j * step
end

local u = kind == "mix" and 4 or 32          -- loads a trip of the compiled loop
-- The ind loops' loads in flight, from their SASS (run9 sass_uniform.txt.gz, read by
-- validation/h200/bench/check_window.sh: the most loads issued and not yet read in
-- the unrolled main loop): ptxas reads each value a few loads after issuing it, 4 to
-- 8 floats where the 32 registers would hold 13, 4 float4 where 43 would hold 6.
-- The mix loops' 4 (A's and B's loads together) are not stated: their values feed
-- one FFMA chain that reads them in order, which the model's window (its loads
-- waited for together) does not describe; stated, those rows go from -6..+10% to
-- +38..+64% at 1 to 8 warps.
local window = nil
if kind == "ind" then
  if vec == 4 or res == "l2" or coal then
    window = 4
  elseif same == 1 then
    window = 5                                   -- w4: four words of one line
  else
    window = na == 1 and 7 or 8
  end
end
local body = {}
for q = 0, u - 1 do
  body[#body + 1] = gpuperf.load{x, bytes = 4 * vec, depends = kind == "chn",
    in_flight = window, index = function(t) return elem(t, u * t.j + q) end}
  if kind == "chn" then
    body[#body + 1] = gpuperf.int(2)             -- shift, add into the index
  end
  if kind == "mix" then
    body[#body + 1] = gpuperf.load{B, index = function(t) return (u * t.j + q) * 32 + t.lane % group end}
  end
end
if kind == "mix" then
  body[#body + 1] = gpuperf.fp32(u)              -- acc = fmaf(a, b, acc), one chain
elseif kind == "chn" then
  body[#body + 1] = gpuperf.fp32(u * vec)        -- acc += the element (float4: 4 FADD)
else
  body[#body + 1] = gpuperf.fp32{u * vec, ilp = 8}
end
body[#body + 1] = gpuperf.int(2)                 -- the pointer and the trip count
local function one()
  gpuperf.launch{
    name = string.format("%s_%s_f%d_%s", kind, res, vec,
                         coal and "coal" or (same == 1 and "w" .. na or "a" .. na)),
    grid = grid, block = bt, regs = regs, carveout = 0,
    work = {
      gpuperf.int(10),
      gpuperf.loop(passes, { gpuperf.loop{floor(m / u), var = "j", unroll = 1, body = body} }),
      gpuperf.store{out, index = function(t) return t.gx end},
    },
  }
  gpuperf.synchronize()
end
for _ = 1, reps do one() end
