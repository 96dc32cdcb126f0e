-- The work-efficient, bank-conflict-free exclusive scan (prefix sum) of
-- M. Harris, "Parallel Prefix Sum (Scan) with CUDA" (NVIDIA, April 2007), as
-- the CUDA SDK sample scan_largearray runs it on n floats: blocks of B/2 = 256
-- threads each scan B = 512 elements in shared memory (section "Arrays of
-- Arbitrary Size"), the total of each block goes to an array of block sums,
-- that array is scanned the same way (recursively, one launch per level),
-- and a uniform-add kernel adds the scanned sum of block j to every element
-- of block j. A part that is not a multiple of 512 is scanned by one more
-- block of floorPow2 threads (the sample's non-power-of-two path).
-- Per scan block (Listing 2 with blocks A-E of "Avoiding Bank Conflicts"):
--   A  two coalesced loads (elements thid and thid + 256), padded stores
--   B  up-sweep: log2(2t) levels, each a barrier, then in the threads
--      thid < d: two indices (offset*(2*thid+1)-1, __mul24), their padding
--      (a shift and an add each), temp[bi] += temp[ai]
--   C  thread 0 stores the block total and clears the last element
--   D  down-sweep: log2(2t) levels, each a barrier, then in the threads
--      thid < d: the same indices, a swap and an add
--   E  a barrier, then two padded shared loads and coalesced stores
-- The shared-memory addresses are the sample's own expressions as index
-- functions, padded by its default CONFLICT_FREE_OFFSET (i >> 4): no bank
-- conflict at the levels of 32 or more active threads (the paper's Figure
-- 4), two-way ones at the root levels of 2 to 16 (the sample's
-- ZERO_BANK_CONFLICTS variant, off by default, pads those too). A level runs
-- only in the warps that hold an active thread (its count).
-- Work is counted one instruction per C operation, as tesla_reduction.lua.
local n    = gpuperf.param("n", 1048576, "floats to scan")
local regs = gpuperf.param("regs", 10,
  "registers per thread (not published; <= 10 lets three blocks of 256 share an SM of 1.0)")
local runs = gpuperf.param("runs", 1, "scans back to back (the sample averages over its runs)")

local B = 512                                -- elements per block (B/2 threads)
local int, br, bar, fp = gpuperf.int, gpuperf.branch, gpuperf.barrier, gpuperf.fp32

local function add(a, b)
  for _, x in ipairs(b) do a[#a + 1] = x end
  return a
end

local function pow2(x) return x > 0 and x % 1 == 0 and 2 ^ math.floor(math.log(x) / math.log(2) + 0.5) == x end
local function floor_pow2(x) return 2 ^ math.floor(math.log(x) / math.log(2) + 1e-9) end

-- CONFLICT_FREE_OFFSET(i) of the sample: i >> LOG_NUM_BANKS, 16 banks on the
-- G80 (ZERO_BANK_CONFLICTS, the variant that also pads the root levels, is
-- off by default)
local function pad(i) return i + math.floor(i / 16) end

-- one block scan of 2t elements by t threads. `base(t)`: the block's first
-- element (__mul24(blockIdx.x, blockDim.x << 1), or the last block's base);
-- `last`: the elements of a non-power-of-two block (loads of bi < last
-- only), nil for a full one; `sums`: thread 0 stores the block total at
-- element `slot(t)` of it
local function scan_work(t, src, dst, sums, base, last, slot)
  local warps = math.ceil(t / 32)
  local levels = math.floor(math.log(2 * t) / math.log(2) + 0.5)
  local function ai(th) return th.x end                        -- ai = thid
  local function bi(th) return th.x + t end                    -- bi = thid + blockDim.x
  local function mem(i) return function(th) return base(th) + i(th) end end
  local function mem_b(th) if not last or bi(th) < last then return base(th) + bi(th) end end
  local function sh(i) return function(th) return pad(i(th)) end end
  local w = {
    -- A: ai, bi, the block's base (__mul24), two paddings, two loads
    int(6), gpuperf.load{src, bytes = 4, index = mem(ai)},
    gpuperf.load{src, bytes = 4, index = mem_b},
    gpuperf.shared_store{bytes = 4, index = sh(ai)},
    gpuperf.shared_store{bytes = 4, index = sh(bi)},
  }
  -- one level of B or D with d active threads, stride = t / d: in the threads
  -- thid < d, i = 2 * stride * thid, ai = i + stride - 1, bi = ai + stride,
  -- both padded (`swap`: the down-sweep's t = s[ai]; s[ai] = s[bi]; s[bi] += t)
  local function level(d, swap)
    local f = math.ceil(d / 32) / warps
    local stride = t / d
    local function a(th) if th.x < d then return pad(2 * stride * th.x + stride - 1) end end
    local function b(th) if th.x < d then return pad(2 * stride * th.x + 2 * stride - 1) end end
    add(w, { bar(), int(1), br(2) })                       -- if (thid < d)
    add(w, { int(8 * f),                                   -- ai, bi (2 mul24, 2 adds, 2 subs), 2 offsets
             int(4 * f),                                   -- CONFLICT_FREE_OFFSET: 2 shifts, 2 adds
             gpuperf.shared_load{bytes = 4, count = f, index = a},
             gpuperf.shared_load{bytes = 4, count = f, index = b},
             fp(f) })
    if swap then add(w, { gpuperf.shared_store{bytes = 4, count = f, index = a} }) end
    add(w, { gpuperf.shared_store{bytes = 4, count = f, index = b} })
    add(w, { int(2), br(1) })                              -- d >>= 1 or d *= 2, offset; loop
  end
  for k = levels - 1, 0, -1 do level(2 ^ k, false) end     -- up-sweep: d = t .. 1
  -- C: if (thid == 0) { SUMS[blockIndex] = temp[last]; temp[last] = 0; }
  local function lane0(v) return function(th) if th.x == 0 then return v(th) end end end
  local root = lane0(function() return pad(2 * t - 1) end)
  add(w, { int(3), br(2), gpuperf.shared_load{bytes = 4, count = 1 / warps, index = root} })
  if sums then add(w, { gpuperf.store{sums, bytes = 4, count = 1 / warps, index = lane0(slot)} }) end
  add(w, { gpuperf.shared_store{bytes = 4, count = 1 / warps, index = root} })
  for k = 0, levels - 1 do level(2 ^ k, true) end          -- down-sweep: d = 1 .. t
  -- E: g_odata[mem_ai] = s[ai + bankOffsetA]; (bi < n) g_odata[mem_bi] = s[bi + bankOffsetB]
  local function sh_b(th) if not last or bi(th) < last then return pad(bi(th)) end end
  add(w, { bar(), gpuperf.shared_load{bytes = 4, index = sh(ai)},
           gpuperf.shared_load{bytes = 4, index = sh_b},
           gpuperf.store{dst, bytes = 4, index = mem(ai)},
           gpuperf.store{dst, bytes = 4, index = mem_b} })
  return w
end

-- uniformAdd: thread 0 reads uniforms[blockIdx.x + blockOffset] into shared
-- memory, a barrier, then every thread adds it to g_data[address] and
-- g_data[address + blockDim.x] (the second times (thid + blockDim.x < n):
-- past the array's end in the last block of a non-power-of-two size the
-- sample touches words outside it, left out here)
local function uniform_work(data, incr, t, base, last, slot)
  local warps = math.ceil(t / 32)
  local function lane0(v) return function(th) if th.x == 0 then return v(th) end end end
  local function a(th) return base(th) + th.x end
  local function b(th) if not last or th.x + t < last then return base(th) + th.x + t end end
  return {
    int(2), br(2), gpuperf.load{incr, bytes = 4, count = 1 / warps, index = lane0(slot)},
    gpuperf.shared_store{bytes = 4, count = 1 / warps, index = lane0(function() return 0 end)},
    int(4), bar(),                                         -- address (__mul24, shift, 2 adds)
    gpuperf.shared_load{bytes = 4, index = function() return 0 end},
    gpuperf.load{data, bytes = 4, index = a}, gpuperf.load{data, bytes = 4, index = b},
    int(3), fp(2),                                         -- the bound test as a product, 2 adds
    gpuperf.store{data, bytes = 4, index = a}, gpuperf.store{data, bytes = 4, index = b},
  }
end

local function smem(t) return 4 * (2 * t + math.floor(2 * t / 16)) end

-- prescanArrayRecursive of the sample: returns after launching every level
local level_bufs = {}
local function scan(m, src, dst, lvl)
  local blocks = math.max(1, math.ceil(m / B))
  local zero = function() return 0 end
  if blocks == 1 then
    local t = pow2(m) and m / 2 or floor_pow2(m)
    t = math.max(1, t)
    gpuperf.launch{ name = "prescan_l" .. lvl, grid = 1, block = t, regs = regs,
                    dynamic_smem = smem(t),
                    work = scan_work(t, src, dst, nil, zero, not pow2(m) and m or nil) }
    return
  end
  local sums = level_bufs[lvl]
  if not sums then
    sums = gpuperf.buffer("sums" .. lvl, 4 * blocks)
    level_bufs[lvl] = sums
  end
  local last = m - (blocks - 1) * B
  local np2 = last ~= B
  local full = math.max(1, blocks - (np2 and 1 or 0))
  local function base(th) return th.bx * B end
  local function bx(th) return th.bx end
  local np2_base = function() return m - last end
  local np2_slot = function() return blocks - 1 end
  gpuperf.launch{ name = "prescan_l" .. lvl, grid = gpuperf.grid(full), block = B / 2,
                  regs = regs, dynamic_smem = smem(B / 2),
                  work = scan_work(B / 2, src, dst, sums, base, nil, bx) }
  local tl = 1
  if np2 then
    tl = math.max(1, math.floor(last / 2))
    if not pow2(last) then tl = floor_pow2(last) end
    gpuperf.launch{ name = "prescan_np2_l" .. lvl, grid = 1, block = tl, regs = regs,
                    dynamic_smem = smem(tl),
                    work = scan_work(tl, src, dst, sums, np2_base, last, np2_slot) }
  end
  scan(blocks, sums, sums, lvl + 1)
  gpuperf.launch{ name = "uniform_add_l" .. lvl, grid = gpuperf.grid(full), block = B / 2,
                  regs = regs, smem = 4, work = uniform_work(dst, sums, B / 2, base, nil, bx) }
  if np2 then
    gpuperf.launch{ name = "uniform_add_np2_l" .. lvl, grid = 1, block = tl, regs = regs,
                    smem = 4, work = uniform_work(dst, sums, tl, np2_base, last, np2_slot) }
  end
end

local input = gpuperf.buffer("idata", 4 * n)
local output = gpuperf.buffer("odata", 4 * n)
for _ = 1, runs do scan(n, input, output, 0) end
