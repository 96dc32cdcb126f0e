-- sectors.lua: partial-sector loads and stores completed by other instructions
-- (validation/h200/bench/bench_sectors.cu). Each thread handles K consecutive
-- elements of E bytes with K separate scalar instructions (inline PTX ld.global /
-- st.global: one LDG/STG each), so one warp instruction touches up to 32 sectors
-- and uses E bytes of every K * E; the other K - 1 instructions complete them.
--   copy_scalar    v[i] = in[t K + i] (i = 0..K-1), then out[t K + i] = v[i] ^ salt
--   load_scalar    the K loads, their sum stored once per thread (out[t])
--   store_scalar   out[t K + i] = salt
--   *_vector       the same bytes as one 8- or 16-byte access (two 16-byte for 32)
--   copy_spread, store_spread   K = 32 / E; G consecutive threads interleaved:
--                  element i of thread t is (t / G) G K + i G + t % G
--   copy_far       per i: load element i, `work` dependent FFMAs, __syncthreads(),
--                  store element i
--   copy_pass, store_pass   K launches, launch i does element i of every thread
--   store_partial  launch 0 alone: E bytes of every K E stored
--   copy_trans, store_trans blocks of 32 K threads; warp w does element w of the
--                  block's 32 groups (lane = group): g = block 32 + lane, g K + w
-- ws = dram: 256 MiB in, 256 MiB out, L2 flushed before every launch; ws = l2:
-- 8 MiB each, each launch covers them 16 times (thread t works on t modulo the
-- data's threads), L2 warm (bench: 2 warm-ups; here in_l2, and `reps` launches, divide_by).
local case = gpuperf.param("case", "copy_scalar", "the bench_sectors row name")
local E    = gpuperf.param("E", 4, "bytes per element: 4 or 8")
local K    = gpuperf.param("K", 4, "elements per thread: 1, 2, 4, 8 (K E <= 32)")
local G    = gpuperf.param("G", 1, "spread rows: threads interleaved (1..32)")
local fma  = gpuperf.param("work", 0, "copy_far: dependent FFMAs between elements")
local ws   = gpuperf.param("ws", "dram", "dram (256 MiB, cold) | l2 (8 MiB x 16, warm)")
local regs = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
local reps = gpuperf.param("reps", 1, "launches")
assert(E == 4 or E == 8, "E must be 4 or 8, got " .. tostring(E))
assert(K == 1 or K == 2 or K == 4 or K == 8, "K must be 1, 2, 4 or 8, got " .. tostring(K))
assert(K * E <= 32, "K * E must be at most 32")
assert(ws == "dram" or ws == "l2", "ws must be dram or l2, got '" .. tostring(ws) .. "'")
local warm = {in_l2 = ws == "l2"}  -- the bench's warm-ups leave the data in L2
local bytes = ws == "dram" and 256 * 2^20 or 8 * 2^20
local rep = ws == "dram" and 1 or 16
local n = bytes / E                    -- elements of each array
local src = gpuperf.buffer("in", bytes, warm)
local dst = gpuperf.buffer("out", bytes, warm)

-- element i of thread t (modulo the data's threads) with G threads interleaved
local function elem(t, i, per, g)
  local threads = n / per
  local u = t % threads
  return math.floor(u / g) * g * per + i * g + u % g
end

local function launch(name, block, work, passes)
  local threads = (case:find("trans") and n or n / K) * rep
  gpuperf.launch{ name = name, grid = threads / block, block = block, regs = regs, work = work }
end

-- Integer work per thread (address arithmetic, the salt), from the SASS
-- (validation/h200/measured/run7/sectors/sass_sectors.txt.gz): the non-memory
-- instructions of k_scalar are about 20 + 6.5 K (copy: 29, 39, 49, 72 for K = 1,
-- 2, 4, 8), 30 + 2.5 K (loads: 40, 50 for K = 4, 8), 22 + 2.5 K (stores: 23, 34,
-- 42 for K = 1, 4, 8); k_vector about 19 + 1.5 K (21, 23, 31); k_pass 23, k_trans 22.
local function int_of(kind, form)
  if form == "vector" then return 19 + 1.5 * K end
  if kind == "copy" then return 20 + 6.5 * K end
  if kind == "load" then return 30 + 2.5 * K end
  return 22 + 2.5 * K
end

local function scalar_ops(kind, g)
  local w = { gpuperf.int(int_of(kind, "scalar")) }
  if kind ~= "store" then
    for i = 0, K - 1 do
      w[#w + 1] = gpuperf.load{src, bytes = E, index = function(t) return elem(t.gx, i, K, g) end}
    end
  end
  if kind == "load" then  -- the sum's adds are in int_of
    w[#w + 1] = gpuperf.store{dst, bytes = E, index = function(t) return t.gx % (n / K) end}
  else
    for i = 0, K - 1 do
      w[#w + 1] = gpuperf.store{dst, bytes = E, index = function(t) return elem(t.gx, i, K, g) end}
    end
  end
  return w
end

local function vector_ops(kind)
  local vb = K * E
  local chunk = math.min(vb, 16)
  local w = { gpuperf.int(int_of(kind, "vector")) }
  local per = vb / chunk
  if kind ~= "store" then
    for h = 0, per - 1 do
      w[#w + 1] = gpuperf.load{src, bytes = chunk,
                               index = function(t) return (t.gx % (n / K)) * per + h end}
    end
  end
  if kind == "load" then
    w[#w + 1] = gpuperf.store{dst, bytes = E, index = function(t) return t.gx % (n / K) end}
  else
    for h = 0, per - 1 do
      w[#w + 1] = gpuperf.store{dst, bytes = chunk,
                                index = function(t) return (t.gx % (n / K)) * per + h end}
    end
  end
  return w
end

local function one()
  if ws == "dram" then gpuperf.flush_l2() end
  local kind, form = case:match("^(%a+)_(%a+)$")
  assert(kind and form, "unknown case '" .. case .. "'")
  if form == "scalar" then
    launch(case, 256, scalar_ops(kind, 1))
  elseif form == "vector" then
    assert(K * E >= 8, "vector rows need K E >= 8")
    launch(case, 256, vector_ops(kind))
  elseif form == "spread" then
    launch(case, 256, scalar_ops(kind, G))
  elseif form == "far" then
    launch(case, 256, {
      gpuperf.int(12),
      gpuperf.loop{K, var = "i", body = {
        gpuperf.int(6),
        gpuperf.load{src, bytes = E, index = function(t) return elem(t.gx, t.i, K, 1) end},
        gpuperf.fp32(fma > 0 and fma + 2 or 2),
        gpuperf.barrier(),
        gpuperf.store{dst, bytes = E, index = function(t) return elem(t.gx, t.i, K, 1) end},
      }},
    })
  elseif form == "pass" or form == "partial" then
    for i = 0, (form == "partial" and 0 or K - 1) do
      local w = { gpuperf.int(23) }
      if kind == "copy" then
        w[#w + 1] = gpuperf.load{src, bytes = E, index = function(t) return elem(t.gx, i, K, 1) end}
      end
      w[#w + 1] = gpuperf.store{dst, bytes = E, index = function(t) return elem(t.gx, i, K, 1) end}
      launch(case .. i, 256, w)
    end
  elseif form == "trans" then
    local groups = n / K
    local function idx(t) return ((t.bx * 32 + t.lane) % groups) * K + t.warp end
    local w = { gpuperf.int(22) }
    if kind == "copy" then w[#w + 1] = gpuperf.load{src, bytes = E, index = idx} end
    w[#w + 1] = gpuperf.store{dst, bytes = E, index = idx}
    launch(case, 32 * K, w)
  else
    error("unknown case '" .. case .. "'")
  end
  gpuperf.synchronize()
end

for _ = 1, reps do one() end
