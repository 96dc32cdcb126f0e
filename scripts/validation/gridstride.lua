-- gridstride.lua: read-only grid-stride sums (validation/h200/bench/bench_gridstride.cu),
-- one kernel per row:
--   gs    `trips` trips of L independent loads (4-byte float or 16-byte float4), load j
--         of trip k at g + (k L + j) T (T threads), then their adds, `#pragma unroll 1`
--         (k_gs<V, L, false>): every warp keeps exactly L loads in flight
--   near  the same with a warp's L loads of a trip on L consecutive 128-byte lines
--         (k_gs<float, L, true>)
--   nat   the plain loop `for (size_t i = gid; i < n; i += gridDim.x * blockDim.x)
--         s += in[i]` over n u32 (k_nat): nvcc does not unroll a loop whose stride is a
--         run-time value (one LDG.E.CONSTANT a trip in its SASS); described as a user
--         would, n / T trips (not a whole number) stepping T elements, no `unroll`: the
--         model tells the grid-stride loop from that
-- `bpsm` blocks of `block` threads per SM (dynamic shared memory `dyn` pins them).
-- ws = dram: the L2 holds none of the buffer (1 GiB, read at most once); ws = l2: a
-- 16 MiB buffer warm from the launches before (bench: 2 warm-ups; here in_l2, and
-- `reps` launches, divide_by). Per-thread instructions from the SASS
-- (validation/h200/measured/run10/gridstride/sass_counts_gridstride.txt).
local kernel = gpuperf.param("kernel", "gs", "gs | near | nat")
local block  = gpuperf.param("block", 256, "threads per block")
local bpsm   = gpuperf.param("bpsm", 8, "blocks per SM (grid = bpsm x SMs)")
local L      = gpuperf.param("L", 1, "gs, near: loads per trip")
local width  = gpuperf.param("width", 4, "gs: bytes per load, 4 or 16")
local trips  = gpuperf.param("trips", 512, "gs, near: trips of the loop")
local ws     = gpuperf.param("ws", "dram", "dram (cold) | l2 (warm)")
local n      = gpuperf.param("n", 2^28, "nat: u32 elements")
local dyn    = gpuperf.param("dyn", 0, "dynamic shared memory per block, bytes (pins blocks per SM)")
local regs   = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
local reps   = gpuperf.param("reps", 1, "launches, each timed alone")
local flush  = gpuperf.param("flush", ws == "dram" and "clean" or "none",
                             "clean: a read of the 1 GiB scratch before the launch (ws = dram) | " ..
                             "dirty: the usual 1 GiB cudaMemset (nat) | none")
assert(ws == "dram" or ws == "l2", "ws must be dram or l2, got '" .. tostring(ws) .. "'")
local warm = {in_l2 = ws == "l2"}  -- the bench's warm-ups leave the data in L2
assert(width == 4 or width == 16, "width must be 4 or 16")

local sms = gpuperf.device.sm_count
local grid = bpsm * sms
local T = grid * block
local texture = "texture"  -- const __restrict__ loads (LDG.E.CONSTANT)
local work, name

if kernel == "gs" or kernel == "near" then
  local nf = ws == "dram" and 2^28 or 2^22   -- floats in the buffer
  local nv = nf * 4 / width                  -- elements of `width` bytes
  local a = gpuperf.buffer("a", 4 * nf, warm)
  local out = gpuperf.buffer("out", 4 * T, warm)
  local body = { gpuperf.int(2 * L + 2) }    -- per load LOP3 + IMAD.WIDE; counter, compare
  for j = 0, L - 1 do
    local idx
    if kernel == "near" then
      idx = function(t) return ((t.gx - t.lane) * L + t.lane + j * 32 + t.k * L * T) % nv end
    else
      idx = function(t) return (t.gx + (t.k * L + j) * T) % nv end
    end
    body[#body + 1] = gpuperf.load{a, bytes = width, space = texture, index = idx}
  end
  body[#body + 1] = gpuperf.fp32(L * (width == 16 and 4 or 1))
  work = { gpuperf.int(6), gpuperf.loop{trips, var = "k", unroll = 1, body = body},
           gpuperf.store{out} }
  name = kernel .. width .. "_l" .. L
elseif kernel == "nat" then
  local x = gpuperf.buffer("in", 4 * n, warm)
  local out = gpuperf.buffer("out", 4 * T, warm)
  work = {
    gpuperf.int(3),
    gpuperf.loop{n / T, var = "k", body = {
      gpuperf.load{x, space = texture,
                   index = function(t) return math.min(t.gx + t.k * T, n - 1) end},
      gpuperf.int(1),   -- s += in[i]
      gpuperf.int(3),   -- i += stride (64-bit), the compare
    }},
    gpuperf.store{out},
  }
  name = "nat_u32"
else
  error("unknown kernel '" .. tostring(kernel) .. "'")
end

local k = gpuperf.kernel{ name = name, grid = grid, block = block, regs = regs,
                          dynamic_smem = dyn, work = work }
-- bench_gridstride times each launch alone (events around it, waited for), the ws = dram
-- ones right behind the flush it queues before each
assert(flush == "clean" or flush == "dirty" or flush == "none",
       "flush must be clean, dirty or none, got '" .. tostring(flush) .. "'")
for _ = 1, reps do
  if flush ~= "none" then gpuperf.flush_l2{clean = flush == "clean"} end
  gpuperf.launch(k); gpuperf.synchronize()
end
