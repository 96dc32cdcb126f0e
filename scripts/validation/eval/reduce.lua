-- reduce.lua: the reduce family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, fam_reduce): the sum of n u32 into one counter, L2 flushed before.
--   variant=atomic_per_element: k_red_atomic_elem, one global atomicAdd per element (10 regs).
--   variant=atomic_per_thread: k_red_atomic_thread, grid 8 x SMs, grid-stride sum, one
--     atomicAdd per thread (12 regs).
--   variant=two_pass_tree: k_red_tree<block> (2 elements per thread, shared-memory tree,
--     one partial per block) then k_red_final<block> (one block sums the partials).
--   variant=warp_shuffle: k_red_shfl, grid = full occupancy, grid-stride sum, warp
--     shuffles, warp totals through shared memory, one atomicAdd per block (14 regs).
local n       = gpuperf.param("n", 2^24, "elements (u32)")
local block   = gpuperf.param("block", 256, "threads per block")
local variant = gpuperf.param("variant", "warp_shuffle",
                              "atomic_per_element | atomic_per_thread | two_pass_tree | warp_shuffle")
local sms = gpuperf.device.sm_count
local x   = gpuperf.buffer("in", 4 * n)
local sum = gpuperf.buffer("sum", 4)

-- A grid-stride loop over n elements by `threads` threads: s += in[i].
local function grid_stride(threads)
  return gpuperf.loop{n / threads, var = "k", body = {
    gpuperf.load{x, index = function(t) return math.min(t.gx + t.k * threads, n - 1) end},
    gpuperf.int(1),   -- s += in[i]
    gpuperf.int(3),   -- i += stride (64-bit), the compare
  }}
end

-- The shared-memory tree of k_red_tree / k_red_final: log2(bs) halving steps,
-- if (t < o) s[t] += s[t + o]; __syncthreads(). Every warp is described doing the step
-- (the language cannot say that warps past o skip it).
local function tree(bs)
  return gpuperf.loop(math.floor(math.log(bs) / math.log(2) + 0.5), {
    gpuperf.int(1),
    gpuperf.shared_load{count = 2, ilp = 2}, gpuperf.int(1), gpuperf.shared_store{},
    gpuperf.barrier(),
  })
end

if variant == "atomic_per_element" then
  gpuperf.launch{
    name = variant, grid = math.ceil(n / 256), block = 256, regs = 10,
    work = { gpuperf.int(3), gpuperf.load{x}, gpuperf.atomic{sum, scope = "same"} },
  }
elseif variant == "atomic_per_thread" then
  local grid = 8 * sms
  gpuperf.launch{
    name = variant, grid = grid, block = 256, regs = 12,
    work = { gpuperf.int(3), grid_stride(grid * 256), gpuperf.atomic{sum, scope = "same"} },
  }
elseif variant == "two_pass_tree" then
  local g = math.ceil(n / (2 * block))
  local part = gpuperf.buffer("part", 4 * g)
  gpuperf.launch{
    name = "red_tree", grid = g, block = block, regs = 12, smem = 4 * block,
    work = {
      gpuperf.int(5),  -- i = blockIdx.x*2*BS + threadIdx.x (64-bit), two bounds tests
      gpuperf.load{x, index = function(t) return t.bx * 2 * block + t.x end},
      gpuperf.load{x, index = function(t) return t.bx * 2 * block + t.x + block end},
      gpuperf.int(1), gpuperf.shared_store{}, gpuperf.barrier(),
      tree(block),
      gpuperf.store{part, count = 1 / block, index = function(t) return t.bx end},
    },
  }
  gpuperf.launch{
    name = "red_final", grid = 1, block = block, regs = block == 512 and 19 or 18,
    smem = 4 * block,
    work = {
      gpuperf.int(2),
      gpuperf.loop{g / block, var = "k", body = {
        gpuperf.load{part, index = function(t) return math.min(t.x + t.k * block, g - 1) end},
        gpuperf.int(1), gpuperf.int(3),
      }},
      gpuperf.shared_store{}, gpuperf.barrier(),
      tree(block),
      gpuperf.store{sum, count = 1 / block, index = function(t) return 0 end},
    },
  }
elseif variant == "warp_shuffle" then
  local grid = sms * (2048 / block)
  gpuperf.launch{
    name = variant, grid = grid, block = block, regs = 14, smem = 128,
    work = {
      gpuperf.int(3),
      grid_stride(grid * block),
      gpuperf.shfl(5), gpuperf.int(5),            -- __shfl_down_sync tree
      gpuperf.int(2),                             -- lane, warp
      gpuperf.shared_store{count = 1 / 32},       -- lane 0: ws[w] = s
      gpuperf.barrier(),
      -- warp 0 (described for every warp): ws[lane], shuffle tree, lane 0's atomicAdd
      gpuperf.int(2), gpuperf.shared_load{},
      gpuperf.shfl(5), gpuperf.int(5),
      gpuperf.atomic{sum, scope = "same", count = 1 / block},
    },
  }
else
  error("unknown variant " .. tostring(variant))
end
