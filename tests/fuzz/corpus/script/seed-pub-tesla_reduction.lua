-- The seven parallel-reduction kernels of M. Harris, "Optimizing Parallel
-- Reduction in CUDA" (NVIDIA, 2007), as measured on a GeForce 8800 GTX: the
-- sum of n = 2^22 ints with blocks of 128 threads, each kernel applied level
-- after level (one launch per level) until one value is left.
--   1 interleaved addressing, `if (tid % (2*s) == 0)`: divergent warps, slow %
--   2 interleaved addressing, index = 2*s*tid: strided shared accesses
--   3 sequential addressing, `if (tid < s)`: no conflicts, half the threads idle
--   4 first add during the global load: a block reduces 256 elements
--   5 the last warp unrolled (no barriers, no conditions below s = 32)
--   6 completely unrolled (block size known at compile time)
--   7 several elements per thread: `blocks` blocks stride through the input
-- Work per thread is counted from the CUDA source, one instruction per C
-- operation: index and address arithmetic as `int`, a 32-bit multiply as 4
-- (16 clocks, Programming Guide 1.x: __mul24 takes 4), the unsigned `%` as 30
-- dependent instructions (Wong et al., ISPASS 2010, Tab. III: urem takes 728
-- cycles, 30 times the 24-cycle latency of one instruction), a divergent `if`
-- as a branch plus its reconvergence. A step of the tree runs only in warps
-- with an active thread: its count is the fraction of the block's 4 warps.
local kernel = gpuperf.param("kernel", 7, "Harris's kernel number, 1 to 7")
local n      = gpuperf.param("n", 4194304, "ints to sum")
local blocks = gpuperf.param("blocks", 64, "kernel 7: blocks of the first level")
local regs   = gpuperf.param("regs", 8, "registers per thread (<= 10: six blocks per SM)")

local block = 128
local warps = block / 32
local int, br, bar = gpuperf.int, gpuperf.branch, gpuperf.barrier
if kernel < 1 or kernel > 7 or kernel % 1 ~= 0 then error("kernel must be 1 to 7") end

local data = gpuperf.buffer("data", n * 4)
local partial = gpuperf.buffer("partial", n * 4 / 128 + 4)

-- one step `sdata[a] += sdata[b]` in a fraction `f` of the warps, `c`-way
-- bank conflicts per half-warp, `addr` instructions of address arithmetic
local function step(f, c, addr)
  return {
    int(addr * f),
    gpuperf.shared_load{bytes = 4, count = 2 * f, conflicts = c},
    int(f),
    gpuperf.shared_store{bytes = 4, count = f, conflicts = c},
  }
end

-- append the ops of list b to list a
local function add(a, b)
  for _, x in ipairs(b) do a[#a + 1] = x end
  return a
end

-- the loop of kernels 1-3 (and the s > 32 part of 4-5): per iteration the
-- condition, the step where a warp has an active thread, the barrier, and
-- the loop control (s *= 2 or s >>= 1, compare, branch)
local function tree(k)
  local w = {}
  for lvl = 0, 6 do
    local s = k <= 2 and 2 ^ lvl or 2 ^ (6 - lvl)   -- 1, 2 .. 64 or 64, 32 .. 1
    if k == 5 and s <= 32 then break end          -- kernel 5 loops while s > 32
    if k == 1 then
      -- tid % 2s == 0: a thread in every warp until 2s > 32
      local f = 2 * s <= 32 and 1 or block / (2 * s) / warps
      add(w, { int(1), int(30), int(1), br(2) })  -- 2*s, %, compare, if
      add(w, step(f, 1, 2))
    elseif k == 2 then
      -- index = 2*s*tid < 128: the threads tid < 64/s, 2s words apart
      local active = 64 / s
      local f = math.ceil(active / 32) / warps
      local ways = math.min(2 * s, 16, active)        -- in an active half-warp
      local c = active >= 32 and ways or math.max(1, ways / 2)  -- one half idle
      add(w, { int(5), int(1), br(2) })  -- 2*s*tid (shift, 32-bit multiply), compare, if
      add(w, step(f, c, 3))
    else
      -- tid < s: the first s threads, consecutive words
      local f = math.ceil(s / 32) / warps
      add(w, { int(1), br(2) })
      add(w, step(f, 1, 1))
    end
    add(w, { bar(), int(2), br(1) })
  end
  return w
end

-- kernels 5-7: `if (tid < 64)` then the last warp unrolled (6 steps in warp 0)
local function unrolled(k)
  local w = {}
  if k == 5 then
    add(w, tree(5))                        -- the s = 64 iteration of the loop
  else
    add(w, { int(1), br(2) })              -- if (tid < 64) with blockSize constant
    add(w, step(2 / warps, 1, 1))
    add(w, { bar() })
  end
  add(w, { int(1), br(2) })                -- if (tid < 32)
  for _ = 1, 6 do add(w, step(1 / warps, 1, 0)) end
  return w
end

-- one level: `m` values in, one partial sum per block out
local function level(m, first)
  local w, grid = {}, nil
  local src = first and data or partial
  if kernel <= 3 then
    grid = math.ceil(m / block)
    add(w, { int(3), gpuperf.load{src, bytes = 4}, int(1),
             gpuperf.shared_store{bytes = 4}, bar() })
    add(w, tree(kernel))
  elseif kernel <= 6 then
    grid = math.ceil(m / (2 * block))
    add(w, { int(3), gpuperf.load{src, bytes = 4, count = 2, ilp = 2}, int(1), int(1),
             gpuperf.shared_store{bytes = 4}, bar() })
    add(w, kernel == 4 and tree(4) or unrolled(kernel))
  else
    grid = first and blocks or 1
    local trips = math.max(1, m / (2 * block * grid))
    add(w, { int(4), gpuperf.shared_store{bytes = 4} })  -- i, gridSize, sdata[tid] = 0
    add(w, { gpuperf.loop(trips, {
      int(2), gpuperf.load{src, bytes = 4, count = 2, ilp = 2}, int(1),  -- g[i] + g[i+blockSize]
      gpuperf.shared_load{bytes = 4}, int(1), gpuperf.shared_store{bytes = 4},
      int(2), br(1) }) })                                       -- i += gridSize; i < n
    add(w, { bar() })
    add(w, unrolled(7))
  end
  -- if (tid == 0) g_odata[blockIdx.x] = sdata[0]: one 32-byte transaction
  -- per block (a 4-byte store by one thread), 1/16 of a warp's 2 x 64 bytes
  add(w, { int(1), br(1), gpuperf.shared_load{bytes = 4, count = 1 / warps},
           int(2 / warps), gpuperf.store{partial, bytes = 4, count = 1 / (4 * warps)} })
  gpuperf.launch{ name = "reduce" .. kernel, grid = grid, block = block, regs = regs,
                  dynamic_smem = block * 4, work = w }
  return grid
end

local m, first = n, true
repeat
  m = level(m, first)
  first = false
until m <= 1
