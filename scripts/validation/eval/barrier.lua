-- barrier.lua: the barrier family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, fam_barrier): 4096 steps, grid = 2048 threads per SM, no memory traffic
-- but the final store (the rows are not flushed; nothing else is read).
--   variant=fma_1_barrier: k_bar_fma, x = fmaf(x, a, b); __syncthreads() per step (10 regs).
--   variant=smem_exchange_2_barriers: k_bar_exchange, s[t] = x; sync; x = 0.5x +
--     0.25 s[(t+1) % blockDim]; sync (16 registers, block*4 bytes dynamic shared memory).
local block   = gpuperf.param("block", 256, "threads per block")
local iters   = gpuperf.param("iters", 4096, "steps")
local variant = gpuperf.param("variant", "fma_1_barrier", "fma_1_barrier | smem_exchange_2_barriers")
local grid = gpuperf.device.sm_count * (2048 / block)
local out = gpuperf.buffer("out", 4 * grid * block)

if variant == "fma_1_barrier" then
  gpuperf.launch{
    name = variant, grid = grid, block = block, regs = 10,
    work = {
      gpuperf.int(1), gpuperf.conv(1), gpuperf.fp32(1),   -- x = threadIdx.x * 1e-3f
      gpuperf.loop(iters, { gpuperf.fp32(1), gpuperf.barrier() }),
      gpuperf.int(3), gpuperf.store{out},
    },
  }
elseif variant == "smem_exchange_2_barriers" then
  gpuperf.launch{
    name = variant, grid = grid, block = block, regs = 16, dynamic_smem = 4 * block,
    work = {
      gpuperf.int(1), gpuperf.conv(1), gpuperf.fp32(1),
      gpuperf.int(1), gpuperf.imod(1), gpuperf.int(2),  -- (t + 1) % blockDim.x, hoisted
      gpuperf.loop(iters, {
        gpuperf.shared_store{},
        gpuperf.barrier(),
        gpuperf.shared_load{},          -- s[(t + 1) % blockDim.x]: the next word
        gpuperf.fp32(2),                -- 0.5x + 0.25 s
        gpuperf.barrier(),
      }),
      gpuperf.int(3), gpuperf.store{out},
    },
  }
else
  error("unknown variant " .. tostring(variant))
end
