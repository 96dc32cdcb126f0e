-- turnover.lua: short memory-bound blocks and grid-stride sums
-- (validation/h200/bench/bench_turnover.cu), one kernel per row:
--   store    out[g] = g & 1023                               (k_store)
--   copy     out[g] = a[g]                                   (k_ldk<1>)
--   ld2..ld8 out[g] = sum of a[(g + j n) & mask], j < k      (k_ldk<k>: k independent loads)
--   add2     out[g] = a[g] + b[g]                            (k_add2)
--   copy16   float4 copy                                     (k_copy16)
--   gsum     grid-stride sum: `trips` trips of L independent loads (4 or 16 bytes each)
--            then their adds (`#pragma unroll 1`), one store per thread (k_gsum<V, L>)
--   fma      `iters` dependent FMAs, then a store (store = 1) or none (k_fma)
-- One element per thread (n elements, `block` threads a block) except gsum (132 B
-- blocks of 256 threads). `dyn` bytes of dynamic shared memory pin the blocks per SM.
-- ws = dram: the L2 flushed before every launch (1 GiB buffers); ws = l2: the data
-- (8 to 32 MiB) warm from the launches before (bench: 2 warm-ups; here in_l2,
-- and `reps` launches, divide_by). Per-thread instructions from the SASS
-- (validation/h200/measured/run9/turnover/sass_counts_turnover.txt): the index is
-- S2R, IMAD and IMAD.WIDE per pointer (3 to 4 integer instructions), each further load
-- of ld-k an IADD3, LOP3 and IMAD.WIDE; the loads are LDG.E.CONSTANT (const __restrict__).
local kernel = gpuperf.param("kernel", "copy",
  "store | copy | ld2 | ld4 | ld8 | add2 | copy16 | gsum | fma")
local n      = gpuperf.param("n", 2^24, "elements (one per thread; gsum: floats in the buffer)")
local block  = gpuperf.param("block", 256, "threads per block")
local ws     = gpuperf.param("ws", "dram", "dram (cold) | l2 (warm)")
local dyn    = gpuperf.param("dyn", 0, "dynamic shared memory per block, bytes (pins blocks per SM)")
local bpsm   = gpuperf.param("bpsm", 8, "gsum: blocks per SM (grid = bpsm x SMs)")
local L      = gpuperf.param("L", 1, "gsum: loads per trip")
local width  = gpuperf.param("width", 4, "gsum: bytes per load, 4 or 16")
local passes = gpuperf.param("passes", 1, "gsum: reads of the buffer per launch")
local iters  = gpuperf.param("iters", 0, "fma: dependent FMAs per thread")
local st     = gpuperf.param("store", 1, "fma: 1 stores the result, 0 does not")
local regs   = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
local reps   = gpuperf.param("reps", 1, "launches, each timed alone")
assert(ws == "dram" or ws == "l2", "ws must be dram or l2, got '" .. tostring(ws) .. "'")
local warm = {in_l2 = ws == "l2"}  -- the bench's warm-ups leave the data in L2

local texture = "texture"  -- const __restrict__ loads (LDG.E.CONSTANT)
local exit = gpuperf.branch(1)
local name, grid, work = kernel, nil, nil

if kernel == "store" then
  local out = gpuperf.buffer("out", 4 * n, warm)
  grid = n / block
  work = { gpuperf.int(4), gpuperf.store{out}, exit }
elseif kernel == "copy" or kernel == "ld2" or kernel == "ld4" or kernel == "ld8" then
  local k = kernel == "copy" and 1 or tonumber(kernel:sub(3))
  local a = gpuperf.buffer("a", 4 * n * k, warm)
  local out = gpuperf.buffer("out", 4 * n, warm)
  grid = n / block
  work = { gpuperf.int(3) }
  for j = 0, k - 1 do
    if j > 0 then work[#work + 1] = gpuperf.int(3) end  -- IADD3, LOP3, IMAD.WIDE
    work[#work + 1] = gpuperf.load{a, space = texture,
                                   index = function(t) return t.gx + j * n end}
  end
  work[#work + 1] = gpuperf.fp32(k)  -- the sum (FADD from 0 included)
  work[#work + 1] = gpuperf.store{out}
  work[#work + 1] = exit
elseif kernel == "add2" then
  local a, b = gpuperf.buffer("a", 4 * n, warm), gpuperf.buffer("b", 4 * n, warm)
  local out = gpuperf.buffer("out", 4 * n, warm)
  grid = n / block
  work = { gpuperf.int(4), gpuperf.load{a, space = texture}, gpuperf.load{b, space = texture},
           gpuperf.fp32(1), gpuperf.store{out}, exit }
elseif kernel == "copy16" then
  local a, out = gpuperf.buffer("a", 16 * n, warm), gpuperf.buffer("out", 16 * n, warm)
  grid = n / block
  work = { gpuperf.int(3), gpuperf.load{a, bytes = 16, space = texture},
           gpuperf.store{out, bytes = 16}, exit }
elseif kernel == "gsum" then
  assert(width == 4 or width == 16, "width must be 4 or 16")
  local sms = gpuperf.device.sm_count
  grid = bpsm * sms
  local T = grid * block
  local nv = n * 4 / width                     -- elements of `width` bytes
  local trips = math.floor(nv * passes / (T * L))
  local a = gpuperf.buffer("a", 4 * n, warm)
  local out = gpuperf.buffer("out", 4 * T, warm)
  local body = { gpuperf.int(2 * L + 2) }      -- per load LOP3 + IMAD.WIDE; counter, compare
  for j = 0, L - 1 do
    body[#body + 1] = gpuperf.load{a, bytes = width, space = texture,
      index = function(t) return (t.gx + (t.k * L + j) * T) % nv end}
  end
  body[#body + 1] = gpuperf.fp32(L * (width == 16 and 4 or 1))
  work = { gpuperf.int(6), gpuperf.loop{trips, var = "k", unroll = 1, body = body},
           gpuperf.store{out}, exit }
  name = "gsum" .. width .. "_l" .. L
elseif kernel == "fma" then
  local out = gpuperf.buffer("out", 4 * n, warm)
  grid = n / block
  work = { gpuperf.int(4), gpuperf.fp32(1) }
  if iters > 0 then work[#work + 1] = gpuperf.loop(iters, { gpuperf.fp32(1) }) end
  if st == 1 then work[#work + 1] = gpuperf.store{out} end
  work[#work + 1] = exit
else
  error("unknown kernel '" .. tostring(kernel) .. "'")
end

local k = gpuperf.kernel{ name = name, grid = grid, block = block, regs = regs,
                          dynamic_smem = dyn, work = work }
-- bench_turnover times each launch alone (events around it, waited for)
-- bench_turnover writes the 1 GiB scratch before each ws = dram launch and launches behind
-- it; the fma rows run warm
for _ = 1, reps do
  if ws == "dram" and kernel ~= "fma" then gpuperf.flush_l2() end
  gpuperf.launch(k); gpuperf.synchronize()
end
