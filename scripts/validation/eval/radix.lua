-- radix.lua: the radix family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, radix_rows): one pass over the lowest `bits` of n hashed u32 keys,
-- block 256, 8 keys per thread (tile 2048), L2 flushed before.
--   variant=histogram: k_radix_hist<bits>: digit counts in shared memory (shared atomics),
--     then counts[d * nblocks + blockIdx.x] (digit-major).
--   variant=pass_hist_scan_scatter: the histogram, scan_full<256> of the B * nblocks
--     counts (lib_scan.lua), then k_radix_scatter<bits>.
-- 19 registers each; static shared memory 4*B (hist) and 8*B (scatter) bytes.
local S = require("lib_scan")
local n       = gpuperf.param("n", 2^22, "keys")
local bits    = gpuperf.param("bits", 8, "digit bits: 4 or 8")
local variant = gpuperf.param("variant", "histogram", "histogram | pass_hist_scan_scatter")
assert(bits == 4 or bits == 8, "bits must be 4 or 8 (the kernel's template values)")
local B = 2^bits
local items, tile = 8, 256 * 8
local nb = math.ceil(n / tile)
local ncnt = B * nb

local keys   = gpuperf.buffer("keys", 4 * n)
local counts = gpuperf.buffer("counts", 4 * ncnt)

-- for (d = threadIdx.x; d < B; d += blockDim.x): B/256 trips per thread on average
local function per_digit(body)
  return gpuperf.loop{B / 256, var = "d", body = body}
end
-- counts[d * gridDim.x + blockIdx.x] for the thread's digit d = threadIdx.x
local function digit_major(t) return (t.x % B) * nb + t.bx end
local function key_index(t) return t.bx * tile + t.k * 256 + t.x end

local function hist()
  gpuperf.launch{
    name = "radix_hist", grid = nb, block = 256, regs = 19, smem = 4 * B,
    work = {
      per_digit{ gpuperf.int(1), gpuperf.shared_store{} },
      gpuperf.barrier(),
      gpuperf.int(3),
      gpuperf.loop{items, var = "k", body = {
        gpuperf.int(3),                                   -- i, the bounds test
        gpuperf.load{keys, index = key_index},
        gpuperf.int(3),                                   -- (key >> shift) & (B-1), address
        gpuperf.atomic{space = "shared", bins = B},       -- atomicAdd(&c[digit], 1)
      }},
      gpuperf.barrier(),
      per_digit{ gpuperf.int(3), gpuperf.shared_load{}, gpuperf.store{counts, index = digit_major} },
    },
  }
end

if variant == "histogram" then
  hist()
elseif variant == "pass_hist_scan_scatter" then
  local incl = gpuperf.buffer("incl", 4 * ncnt)
  local out = gpuperf.buffer("out", 4 * n)
  hist()
  S.full("scan", counts, incl, ncnt, 256)
  -- Scatter: out[off[d] + atomicAdd(&c[d], 1)] = key. Keys are hashed, so digits are
  -- uniform: the 256/B keys of one digit in each 256-key step land next to each other in
  -- that digit's region (ranks from the shared atomic), the digits far apart.
  local per = 256 / B
  gpuperf.launch{
    name = "radix_scatter", grid = nb, block = 256, regs = 19, smem = 8 * B,
    work = {
      per_digit{
        gpuperf.int(3),
        gpuperf.load{counts, index = digit_major}, gpuperf.load{incl, index = digit_major},
        gpuperf.int(1), gpuperf.shared_store{count = 2},
      },
      gpuperf.barrier(),
      gpuperf.int(3),
      gpuperf.loop{items, var = "k", body = {
        gpuperf.int(3),
        gpuperf.load{keys, index = key_index},
        gpuperf.int(3),
        gpuperf.shared_load{pattern = "random"},           -- off[d]
        gpuperf.atomic{space = "shared", bins = B},        -- rank: atomicAdd(&c[d], 1)
        gpuperf.int(2),
        gpuperf.store{out, index = function(t)
          local d = gpuperf.random(0, B - 1)
          return d * (n / B) + (t.bx * items + t.k) * per + t.lane % per
        end},
      }},
    },
  }
else
  error("unknown variant " .. tostring(variant))
end
