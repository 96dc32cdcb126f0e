-- histogram.lua: the histogram family of the H200 evaluation set (validation/h200/bench/
-- eval_sparse.cuh, fam_histogram): 256 bins of n bytes, grid 8 blocks per SM of 256
-- threads, a grid-stride loop i = gid, gid + G, ... (G = the grid's threads), L2 flushed.
--   variant=global_atomics: k_hist_global, atomicAdd(&hist[in[i]], 1) (REDG in the SASS)
--   variant=shared_atomics: k_hist_shared, 256 shared bins per block (zeroed, barrier,
--     atomicAdd(&s[in[i]], 1), barrier), then if (s[b]) atomicAdd(&hist[b], s[b]).
--   dist: uniform (hashed bytes), skewed ((h & 255) < 230: bins 0..3, else any bin),
--     all_equal (bin 7).
local n       = gpuperf.param("n", 2^24, "bytes of input")
local dist    = gpuperf.param("dist", "uniform", "uniform | skewed | all_equal")
local variant = gpuperf.param("variant", "global_atomics", "global_atomics | shared_atomics")
local blocks = gpuperf.device.sm_count * 8
local G = blocks * 256
local inp  = gpuperf.buffer("in", n)
local hist = gpuperf.buffer("hist", 4 * 256)

-- The bin is the byte just read (data-dependent).
local bin
if dist == "uniform" then
  bin = function(t) return gpuperf.random(0, 255) end
elseif dist == "skewed" then
  bin = function(t)
    if gpuperf.random(0, 255) < 230 then return gpuperf.random(0, 3) end
    return gpuperf.random(0, 255)
  end
elseif dist == "all_equal" then
  bin = function(t) return 7 end
else
  error("dist must be uniform, skewed or all_equal, got " .. tostring(dist))
end

-- A block sees m = n / blocks bytes; bin b (b >= 4 when skewed) gets each with
-- probability share / 256, so it is non-zero (and merged) with probability
-- 1 - exp(-m share / 256).
local share = dist == "skewed" and 26 / 256 or 1
local nonzero = 1 - math.exp(-(n / blocks) * share / 256)

local function byte(t)
  local i = t.gx + G * t.i
  if i < n then return i end
end

if variant == "global_atomics" then
  gpuperf.launch{
    name = variant, grid = blocks, block = 256, regs = 18,
    work = {
      gpuperf.int(3),                                   -- i = gid (64-bit), the stride
      gpuperf.loop{n / G, var = "i", body = {
        gpuperf.load{inp, bytes = 1, space = "texture", index = byte},
        gpuperf.int(4),                                 -- i += stride (64-bit), &in[i], &hist[b]
        gpuperf.atomic{hist, index = bin, from_data = true},   -- hist[in[i]]: a bin from data
      }},
    },
  }
elseif variant == "shared_atomics" then
  gpuperf.launch{
    name = variant, grid = blocks, block = 256, regs = 14, smem = 1024,
    work = {
      gpuperf.int(3),
      gpuperf.shared_store{index = function(t) return t.x end},   -- s[b] = 0
      gpuperf.barrier(),
      gpuperf.loop{n / G, var = "i", body = {
        gpuperf.load{inp, bytes = 1, space = "texture", index = byte},
        gpuperf.int(3),                                 -- i += stride (64-bit), &in[i]
        gpuperf.atomic{space = "shared", index = bin, update = "inc"},   -- atomicAdd(&s[b], 1u)
      }},
      gpuperf.barrier(),
      gpuperf.shared_load{index = function(t) return t.x end},    -- s[b]
      gpuperf.int(1), gpuperf.branch(1),                           -- if (s[b])
      gpuperf.atomic{hist, index = function(t)
        if dist == "all_equal" then
          if t.x == 7 then return t.x end
        elseif (dist == "skewed" and t.x < 4) or gpuperf.random(0, 9999) < 10000 * nonzero then
          return t.x
        end end},
    },
  }
else
  error("variant must be global_atomics or shared_atomics, got " .. tostring(variant))
end
