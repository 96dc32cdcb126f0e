-- simt.lua: divergence and shared-memory bank conflicts
-- (validation/h200/bench/kernels.cuh k_diverge, k_bank).
--   diverge  each warp splits into `paths` branches (threadIdx.x % paths); each
--            branch runs `iters` dependent FMAs; the paths run one after another
--   bank     each lane reads shared word (lane * stride) mod 1024 `iters` times
--            (volatile loads): a stride-s access is an s-way bank conflict
local kind   = gpuperf.param("kind", "diverge", "diverge | bank")
local iters  = gpuperf.param("iters", 1024, "loop trips")
local paths  = gpuperf.param("paths", 1, "diverge: branches per warp")
local stride = gpuperf.param("stride", 1, "bank: words between consecutive lanes")
local blocks = 2112                      -- 16 blocks of 256 per SM: two waves on an H200
local out = gpuperf.buffer("out", 4 * blocks * 256)

if kind == "diverge" then
  gpuperf.launch{
    name = "diverge", grid = blocks, block = 256, regs = 12,
    work = {
      gpuperf.int(4),                    -- p = threadIdx.x % paths
      gpuperf.diverge(paths, {
        gpuperf.int(2),                  -- path loop: compare, branch
        gpuperf.loop(iters, { gpuperf.fp32(1) }),
      }),
      gpuperf.int(4),
      gpuperf.store{out},
    },
  }
elseif kind == "bank" then
  gpuperf.launch{
    name = "bank", grid = blocks, block = 256, regs = 25, smem = 8192,
    work = {
      gpuperf.loop(8, { gpuperf.int(2), gpuperf.conv(1), gpuperf.shared_store{} }), -- fill s[]
      gpuperf.barrier(),
      gpuperf.int(3),
      -- idx = (lane * stride) & 1023, then idx ^= 1024 every trip
      gpuperf.loop{iters, var = "k", body = {
        gpuperf.shared_load{index = function(t)        -- vs[idx]
          return (t.lane * stride) % 1024 + 1024 * (t.k % 2) end},
        gpuperf.fp32(1),                       -- acc += ...
        gpuperf.int(1),                        -- idx ^= 1024
      }},
      gpuperf.int(4),
      gpuperf.store{out},
    },
  }
else
  error("kind must be diverge or bank")
end
