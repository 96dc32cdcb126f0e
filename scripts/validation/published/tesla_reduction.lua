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
-- Global and shared addresses are the kernels' index expressions (index
-- functions, nil for a thread its `if` leaves out), so the bank conflicts of
-- kernel 2 and the coalescing follow from the addresses.
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

-- one step `sdata[a] += sdata[b]` in a fraction `f` of the warps, `addr`
-- instructions of address arithmetic; `a(t)` and `b(t)` are the words the
-- thread touches, nil for a thread the step's condition leaves out
local function step(f, addr, a, b)
  return {
    int(addr * f),
    gpuperf.shared_load{bytes = 4, count = f, index = a},
    gpuperf.shared_load{bytes = 4, count = f, index = b},
    int(f),
    gpuperf.shared_store{bytes = 4, count = f, index = a},
  }
end

-- the word tid + d of the threads tid < s (nil for the others)
local function below(s, d)
  return function(t) if t.x < s then return t.x + d end end
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
      -- if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s]: a thread in
      -- every warp until 2s > 32
      local f = 2 * s <= 32 and 1 or block / (2 * s) / warps
      local function a(t) if t.x % (2 * s) == 0 then return t.x end end
      local function b(t) if t.x % (2 * s) == 0 then return t.x + s end end
      add(w, { int(1), int(30), int(1), br(2) })  -- 2*s, %, compare, if
      add(w, step(f, 2, a, b))
    elseif k == 2 then
      -- index = 2*s*tid; if (index < blockDim.x) sdata[index] += sdata[index + s]:
      -- the threads tid < 64/s, 2s words apart
      local f = math.ceil(64 / s / 32) / warps
      local function a(t) local i = 2 * s * t.x; if i < block then return i end end
      local function b(t) local i = 2 * s * t.x; if i < block then return i + s end end
      add(w, { int(5), int(1), br(2) })  -- 2*s*tid (shift, 32-bit multiply), compare, if
      add(w, step(f, 3, a, b))
    else
      -- if (tid < s) sdata[tid] += sdata[tid + s]: the first s threads
      local f = math.ceil(s / 32) / warps
      add(w, { int(1), br(2) })
      add(w, step(f, 1, below(s, 0), below(s, s)))
    end
    add(w, { bar(), int(2), br(1) })
  end
  return w
end

-- kernels 5-7: `if (tid < 64)` then the last warp unrolled (6 steps in warp 0:
-- sdata[tid] += sdata[tid + 32], + 16, .., + 1 in the threads tid < 32)
local function unrolled(k)
  local w = {}
  if k == 5 then
    add(w, tree(5))                        -- the s = 64 iteration of the loop
  else
    add(w, { int(1), br(2) })              -- if (tid < 64) with blockSize constant
    add(w, step(2 / warps, 1, below(64, 0), below(64, 64)))
    add(w, { bar() })
  end
  add(w, { int(1), br(2) })                -- if (tid < 32)
  for d = 5, 0, -1 do add(w, step(1 / warps, 0, below(32, 0), below(32, 2 ^ d))) end
  return w
end

-- one level: `m` values in, one partial sum per block out
local function level(m, first)
  local w, grid = {}, nil
  local src = first and data or partial
  local function tid(t) return t.x end
  if kernel <= 3 then
    -- sdata[tid] = g_idata[blockIdx.x * blockDim.x + tid]
    grid = math.ceil(m / block)
    add(w, { int(3), gpuperf.load{src, bytes = 4, index = function(t) return t.gx end}, int(1),
             gpuperf.shared_store{bytes = 4, index = tid}, bar() })
    add(w, tree(kernel))
  elseif kernel <= 6 then
    -- i = blockIdx.x * (blockDim.x * 2) + tid; sdata[tid] = g[i] + g[i + blockDim.x]
    grid = math.ceil(m / (2 * block))
    add(w, { int(3),
             gpuperf.load{src, bytes = 4, index = function(t) return t.bx * 2 * block + t.x end},
             gpuperf.load{src, bytes = 4,
                          index = function(t) return t.bx * 2 * block + t.x + block end},
             int(1), int(1), gpuperf.shared_store{bytes = 4, index = tid}, bar() })
    add(w, kernel == 4 and tree(4) or unrolled(kernel))
  else
    -- i = blockIdx.x * (blockSize * 2) + tid; gridSize = blockSize * 2 * gridDim.x;
    -- while (i < n) { sdata[tid] += g[i] + g[i + blockSize]; i += gridSize; }
    grid = first and blocks or 1
    local trips = math.max(1, m / (2 * block * grid))
    local function at(d)
      return function(t)
        local i = t.bx * 2 * block + t.x + t.it * 2 * block * grid
        if i < m then return i + d end
      end
    end
    add(w, { int(4), gpuperf.shared_store{bytes = 4, index = tid} })  -- i, gridSize, sdata[tid] = 0
    add(w, { gpuperf.loop{trips, var = "it", body = {
      int(2), gpuperf.load{src, bytes = 4, index = at(0)},            -- g[i] + g[i+blockSize]
      gpuperf.load{src, bytes = 4, index = at(block)}, int(1),
      gpuperf.shared_load{bytes = 4, index = tid}, int(1), gpuperf.shared_store{bytes = 4, index = tid},
      int(2), br(1) }} })                                          -- i += gridSize; i < n
    add(w, { bar() })
    add(w, unrolled(7))
  end
  -- if (tid == 0) g_odata[blockIdx.x] = sdata[0]: warp 0, one thread
  local function lane0(v) return function(t) if t.x == 0 then return v(t) end end end
  add(w, { int(1), br(1),
           gpuperf.shared_load{bytes = 4, count = 1 / warps, index = lane0(function() return 0 end)},
           int(2 / warps),
           gpuperf.store{partial, bytes = 4, count = 1 / warps,
                         index = lane0(function(t) return t.bx end)} })
  gpuperf.launch{ name = "reduce" .. kernel, grid = grid, block = block, regs = regs,
                  dynamic_smem = block * 4, work = w }
  return grid
end

local m, first = n, true
repeat
  m = level(m, first)
  first = false
until m <= 1
