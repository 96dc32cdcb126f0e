-- stage.lua: one-float blocks staged through shared memory
-- (validation/h200/bench/bench_stage.cu, family `stage`), one kernel per row.
--   1-D, `block` threads, thread t of block b owns element g = b block + t:
--     copy    out[g] = a[g]
--     bar     v = a[g]; __syncthreads(); out[g] = v (ptxas puts the BAR.SYNC before the
--             load: nothing in shared memory depends on it)
--     smem    s[t] = a[g]; __syncthreads(); out[g] = s[t ^ 32] (the next warp's value)
--     smem5   s[t + 1] = a[g], s[0] and s[block + 1] zeroed by threads 0 and block - 1;
--             __syncthreads(); five LDS: 0.5 s[t + 1] + 0.125 (s[t] + s[t + 2] +
--             s[(t + 32) % block + 1] + s[(t - 32) % block + 1])
--   2-D, blocks of bx x by over n x n floats, i = y n + x:
--     copy2d  out[i] = a[i]
--     smem2d  t[ty][tx] = a[i]; __syncthreads(); out[i] = t[(ty + 1) % by][tx]
--     st2d    the 5-point stencil from a (by + 2) x (bx + 2) tile: the centre loaded
--             (bounds checked), the halo cells zeroed by the border threads (predicated
--             STS), __syncthreads(), five LDS, the sum stored where 1 <= x, y < n - 1
-- ws = dram: the L2 flushed before the launch (n = 2^26); ws = l2: a and out (16 MiB
-- each at n = 2^22) warm from the launches before (bench: 2 warm-ups; here in_l2,
-- and `reps` launches, divide_by). Instructions per thread from the SASS
-- (validation/h200/measured/run20/stage/sass_stage.txt.gz); the loads are
-- LDG.E.CONSTANT (const __restrict__).
local kernel = gpuperf.param("kernel", "copy", "copy | bar | smem | smem5 | copy2d | smem2d | st2d")
local n      = gpuperf.param("n", 2^26, "elements (2-D: n is the side, n x n elements)")
local block  = gpuperf.param("block", 256, "1-D: threads per block")
local bx     = gpuperf.param("bx", 32, "2-D: block width")
local by     = gpuperf.param("by", 8, "2-D: block height")
local ws     = gpuperf.param("ws", "dram", "dram (cold) | l2 (warm)")
local regs   = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
local reps   = gpuperf.param("reps", 1, "launches, each timed alone")
assert(ws == "dram" or ws == "l2", "ws must be dram or l2, got '" .. tostring(ws) .. "'")
local warm = {in_l2 = ws == "l2"}  -- the bench's warm-ups leave the data in L2

local texture = "texture"
local exit = gpuperf.branch(1)
local work, grid, blk, smem

if kernel == "copy" or kernel == "bar" or kernel == "smem" or kernel == "smem5" then
  assert(block % 64 == 0, "block must be a multiple of 64")
  local a, out = gpuperf.buffer("a", 4 * n, warm), gpuperf.buffer("out", 4 * n, warm)
  local warps = block / 32
  grid, blk, smem = n / block, block, 4 * (block + 2)
  local load = gpuperf.load{a, space = texture}
  if kernel == "copy" then
    work = { gpuperf.int(6), load, gpuperf.int(2), gpuperf.store{out}, exit }
  elseif kernel == "bar" then
    work = { gpuperf.int(6), gpuperf.barrier(), load, gpuperf.int(2), gpuperf.store{out}, exit }
  elseif kernel == "smem" then
    work = { gpuperf.int(6), load, gpuperf.int(5),
             gpuperf.shared_store{index = function(t) return t.x end},
             gpuperf.barrier(),
             gpuperf.shared_load{index = function(t)              -- t ^ 32
               return math.floor(t.x / 32) % 2 == 0 and t.x + 32 or t.x - 32 end},
             gpuperf.int(2), gpuperf.store{out}, exit }
  else
    work = { gpuperf.int(6), load, gpuperf.int(16),
             gpuperf.shared_store{index = function(t) return t.x + 1 end},
             gpuperf.shared_store{count = 1 / warps, index = function(t)
               if t.x == 0 then return 0 end end},
             gpuperf.shared_store{count = 1 / warps, index = function(t)
               if t.x == block - 1 then return block + 1 end end},
             gpuperf.barrier(), gpuperf.int(1),
             gpuperf.shared_load{index = function(t) return t.x + 1 end},
             gpuperf.shared_load{index = function(t) return t.x end},
             gpuperf.shared_load{index = function(t) return t.x + 2 end},
             gpuperf.shared_load{index = function(t) return (t.x + 32) % block + 1 end},
             gpuperf.shared_load{index = function(t) return (t.x + block - 32) % block + 1 end},
             gpuperf.fp32(5), gpuperf.int(1), gpuperf.store{out}, exit }
  end
elseif kernel == "copy2d" or kernel == "smem2d" or kernel == "st2d" then
  assert(n % bx == 0 and n % by == 0, "n must be a multiple of bx and by")
  assert(bx * by % 32 == 0, "bx x by must be a multiple of 32")
  local a, out = gpuperf.buffer("a", 4 * n * n, warm), gpuperf.buffer("out", 4 * n * n, warm)
  local W = bx + 2
  local warps = bx * by / 32
  local rows = math.max(1, math.floor(32 / bx))         -- rows of the tile per warp
  grid, blk, smem = { n / bx, n / by }, { bx, by }, 4 * W * (by + 2)
  local function inside(t) return t.gx >= 1 and t.gx < n - 1 and t.gy >= 1 and t.gy < n - 1 end
  local load = gpuperf.load{a, space = texture, index = function(t) return t.gy * n + t.gx end}
  if kernel == "copy2d" then
    work = { gpuperf.int(10), load, gpuperf.int(2),
             gpuperf.store{out, index = function(t) return t.gy * n + t.gx end}, exit }
  elseif kernel == "smem2d" then
    work = { gpuperf.int(10), load, gpuperf.int(9),
             gpuperf.shared_store{index = function(t) return t.y * W + t.x end},
             gpuperf.barrier(),
             gpuperf.shared_load{index = function(t) return ((t.y + 1) % by) * W + t.x end},
             gpuperf.store{out, index = function(t) return t.gy * n + t.gx end}, exit }
  else
    local function s(dx, dy) return function(t)
      if inside(t) then return (t.y + 1 + dy) * W + t.x + 1 + dx end end end
    work = { gpuperf.int(16), load, gpuperf.int(14),
             gpuperf.shared_store{index = function(t) return (t.y + 1) * W + t.x + 1 end},
             -- the halo zeroed: tx == 0 and tx == bx - 1 in every warp (a lane per row
             -- of it), ty == 0 and ty == by - 1 in the one warp holding that row
             gpuperf.shared_store{index = function(t) if t.x == 0 then return (t.y + 1) * W end end},
             gpuperf.shared_store{index = function(t)
               if t.x == bx - 1 then return (t.y + 1) * W + bx + 1 end end},
             gpuperf.shared_store{count = 1 / warps, index = function(t)
               if t.y % rows == 0 then return t.x + 1 end end},
             gpuperf.shared_store{count = 1 / warps, index = function(t)
               if t.y % rows == 0 then return (by + 1) * W + t.x + 1 end end},
             gpuperf.barrier(),
             gpuperf.shared_load{index = s(0, 0)}, gpuperf.shared_load{index = s(-1, 0)},
             gpuperf.shared_load{index = s(1, 0)}, gpuperf.shared_load{index = s(0, -1)},
             gpuperf.shared_load{index = s(0, 1)}, gpuperf.fp32(5), gpuperf.int(2),
             gpuperf.store{out, index = function(t) if inside(t) then return t.gy * n + t.gx end end},
             exit }
  end
else
  error("kernel must be copy, bar, smem, smem5, copy2d, smem2d or st2d, got '" .. tostring(kernel) .. "'")
end

local k = gpuperf.kernel{ name = kernel, grid = grid, block = blk, regs = regs, smem = smem,
                          work = work }
-- bench_stage times each launch alone (events around it, waited for); before each
-- ws = dram launch it writes the 1 GiB scratch and launches behind it
for _ = 1, reps do
  if ws == "dram" then gpuperf.flush_l2() end
  gpuperf.launch(k); gpuperf.synchronize()
end
