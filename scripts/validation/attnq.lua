-- attnq.lua: a thread per row looping over the rows of a small key table, every trip a
-- long dependent FMA chain beside warp-uniform loads (validation/h200/bench/
-- bench_attnq.cu, family `attnq`).
--
-- Every thread holds q[d] (and o[d]) in registers and runs `warm` untimed trips, then
-- 1024 more (both loops `#pragma unroll 1`); trip j reads row r = j & mask of K (and
-- for the bodies with an update the same row of V), every lane of the warp the same
-- address: d floats (vec 1: d 4-byte loads; vec 4: d / 4 float4 loads) through
-- const __restrict__ pointers (LDG.E.CONSTANT), or (fp = smem) from a copy of 32 rows
-- of K and V the block made in shared memory before the loops (nvcc makes LDS.128 of
-- the scalar reads too: one address a warp, 16 bytes a load).
--   s = q . k: nacc = 1 one chain of d FFMA (the first an FMUL); nacc = 2, 4: nacc
--   chains of d / nacc, then their sum.
--   body = dot   tot += s
--          dotv  o[c] = fmaf(s, v[c], o[c])                    (d independent FFMA)
--          exp1  p = __expf(s - 4); o[c] = fmaf(p, v[c], o[c])  (FFMA, MUFU.EX2)
--          soft  the online softmax of a fused attention: mn = fmaxf(m, s),
--                corr = __expf(m - mn), p = __expf(s - mn), l = l * corr + p,
--                o[c] = o[c] * corr + p * v[c] (FMUL and FFMA), m = mn
-- fp = l1    16 KiB of K rows (and of V), the warm trips touch them once: L1 hits;
--      l2    no wrap, no warm trips: every row is the SM's first touch, K and V in L2;
--      smem  32 rows in shared memory.
-- Launch: `warps` per SM as `bpsm` blocks of 32 * warps / bpsm threads per SM (grid
-- sms * bpsm); carve-out preference 0 (the largest L1) for fp = l1, l2.
-- SASS (validation/h200/measured/run10/attnq/sass_attnq.txt.gz), a trip of k_aq: the
-- row's address (LOP3, SHF, IMAD.WIDE), every LDG of K before the first FFMA (the
-- LDG of V, where a body has them, among the dot product's FFMA), the body, the next
-- index and the exit test (IADD3, ISETP, BRA); the shared-memory trips interleave their
-- LDS.128 with the chain.
local d      = gpuperf.param("d", 64, "row length: 16, 32, 64 floats")
local vec    = gpuperf.param("vec", 1, "1 (float loads) or 4 (float4 loads)")
local nacc   = gpuperf.param("nacc", 1, "accumulators of the dot product: 1, 2, 4")
local body_k = gpuperf.param("body", "dot", "dot | dotv | exp1 | soft")
local fp     = gpuperf.param("fp", "l1", "l1 | l2 | smem")
local warps  = gpuperf.param("warps", 1, "warps per SM")
local bpsm   = gpuperf.param("bpsm", 1, "blocks per SM")
local regs   = gpuperf.param("regs", 64, "registers per thread, as ptxas reports")
-- The bench times each launch after two warm-ups without a flush: K and V start in
-- L2 (in_l2); `reps` launches and the table's divide_by
local reps   = gpuperf.param("reps", 4, "launches")

assert(d == 16 or d == 32 or d == 64, "d must be 16, 32 or 64")
assert(vec == 1 or vec == 4, "vec must be 1 or 4")
assert(nacc == 1 or nacc == 2 or nacc == 4, "nacc must be 1, 2 or 4")
local upd = body_k ~= "dot"
local sms = gpuperf.device.sm_count
local floor = math.floor
local trips, smem_rows = 1024, 32
local bt = floor(32 * warps / bpsm)
local grid = sms * bpsm
local K = gpuperf.buffer("K", 4 * 2^20, {in_l2 = true})
local V = gpuperf.buffer("V", 4 * 2^20, {in_l2 = true})

local rows, warm
if fp == "l1" then
  rows = floor(16384 / (4 * d)); warm = rows
elseif fp == "l2" then
  rows = floor(2^20 / d); warm = 0
elseif fp == "smem" then
  rows = smem_rows; warm = smem_rows
else
  error("fp must be l1, l2 or smem, got " .. tostring(fp))
end

-- the d floats of row (j + base) % rows of buf: `bytes` a load, one address a warp
local function row_loads(buf, base, off)
  local t = {}
  if fp == "smem" then
    for c = 0, d / 4 - 1 do
      t[#t + 1] = gpuperf.shared_load{bytes = 16, index = function(s)
        return off + ((s.j + base) % rows) * d / 4 + c end}
    end
  else
    for c = 0, d / vec - 1 do
      t[#t + 1] = gpuperf.load{buf, bytes = 4 * vec, space = "texture", index = function(s)
        return ((s.j + base) % rows) * d / vec + c end}
    end
  end
  return t
end

local function trip(base)
  local t = {}
  local function add(op) t[#t + 1] = op end
  add(gpuperf.int(2))                                   -- the row's address
  add(row_loads(K, base, 0))
  if nacc == 1 then
    add(gpuperf.fp32(d))                                -- s = q[0] k[0]; s += q[c] k[c]
  else
    add(gpuperf.fp32{d, ilp = nacc})                    -- nacc chains of d / nacc
    add(gpuperf.fp32(nacc - 1))                         -- their sum
  end
  if body_k == "dot" then
    add(gpuperf.fp32(1))                                -- tot += s
  else
    if upd then add(row_loads(V, base, smem_rows * d / 4)) end
    if body_k == "dotv" then
      add(gpuperf.fp32{d, ilp = d})                     -- o[c] += s v[c]
    elseif body_k == "exp1" then
      add(gpuperf.fp32(1)); add(gpuperf.sfu(1))         -- (s - 4) log2 e, MUFU.EX2
      add(gpuperf.fp32{d, ilp = d})                     -- o[c] += p v[c]
    elseif body_k == "soft" then
      add(gpuperf.fp32(2))                              -- fmaxf, m - mn and s - mn
      add(gpuperf.sfu(2))                               -- two MUFU.EX2
      add(gpuperf.fp32(1))                              -- l = l corr + p
      add(gpuperf.fp32{2 * d, ilp = d})                 -- o[c] = o[c] corr + p v[c]
    else
      error("body must be dot, dotv, exp1 or soft, got " .. tostring(body_k))
    end
  end
  add(gpuperf.int(2))                                   -- the next row, the exit test
  return t
end

local work = { gpuperf.int(8), gpuperf.fp32{d, ilp = d} }  -- q[c], o[c] = 0
if fp == "smem" then
  -- for (i = threadIdx.x; i < 32 * d; i += blockDim.x): a run-time stride, which nvcc
  -- does not unroll (the SASS: one LDG of K and one of V, then their STS, a trip)
  local per = math.ceil(smem_rows * d / bt)
  work[#work + 1] = gpuperf.loop{per, var = "i", unroll = 1, body = {
    gpuperf.load{K, index = function(s) return s.x + s.i * bt end},
    gpuperf.shared_store{index = function(s) return s.x + s.i * bt end},
    upd and gpuperf.load{V, index = function(s) return s.x + s.i * bt end} or {},
    upd and gpuperf.shared_store{index = function(s) return s.x + s.i * bt end} or {},
  }}
  work[#work + 1] = gpuperf.barrier()
end
if fp == "l1" then
  -- j & mask over 16 KiB of rows: the warm pass, then trips / rows passes over the same
  -- rows (written as passes: the rows a pass reads are the rows the next one re-reads)
  work[#work + 1] = gpuperf.loop{rows, var = "j", unroll = 1, body = trip(0)}
  work[#work + 1] = gpuperf.loop(trips / rows, {
    gpuperf.loop{rows, var = "j", unroll = 1, body = trip(0)} })
else
  if warm > 0 then work[#work + 1] = gpuperf.loop{warm, var = "j", unroll = 1, body = trip(0)} end
  work[#work + 1] = gpuperf.loop{trips, var = "j", unroll = 1, body = trip(warm)}
end
work[#work + 1] = gpuperf.fp32(d)                       -- tot + l + sum o
work[#work + 1] = gpuperf.store{gpuperf.buffer("out", 4 * grid * bt),
                                index = function(s) return s.gx end}

local smem_bytes = fp == "smem" and (upd and 2 or 1) * smem_rows * 4 * d or 0
for _ = 1, reps do
  gpuperf.launch{name = "aq_" .. body_k, grid = grid, block = bt, regs = regs,
                 dynamic_smem = smem_bytes, carveout = fp ~= "smem" and 0 or nil, work = work}
  gpuperf.synchronize()
end
