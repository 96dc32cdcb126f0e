-- pipeline.lua: the pipeline family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, fam_pipeline).
--   variant=conv_rows_then_cols: k_conv_rows then k_conv_cols on an n x n image (tmp stays
--     between them), both timed, L2 flushed before.
--   variant=produce_consume: k_pipe_produce (b[i] = a[i] + 1) then k_pipe_consume (sum of b
--     in uint4 loads, warp shuffle, one atomic per warp), both timed, L2 flushed before.
--   variant=consume_cold: the consumer alone, the L2 flushed after the producer.
--   variant=consume_warm: the consumer alone right after the producer, b left in L2: the
--     bench's repetition flushes the L2 and runs the producer untimed, then records its
--     start event and the consumer, the host not waiting between them (so the consumer
--     queues behind the producer); the script times the same interval with
--     gpuperf.elapsed. (The 4-byte memset of the sum before the flush is left out.)
local C = require("lib_conv")
local variant = gpuperf.param("variant", "produce_consume",
                              "conv_rows_then_cols | produce_consume | consume_cold | consume_warm")
local n      = gpuperf.param("n", 1024, "conv: image side")
local mib    = gpuperf.param("mib", 16, "producer/consumer: buffer size in MiB")
local sms = gpuperf.device.sm_count

if variant == "conv_rows_then_cols" then
  local img = gpuperf.buffer("img", 4 * n * n)
  local tmp = gpuperf.buffer("tmp", 4 * n * n)
  local out = gpuperf.buffer("out", 4 * n * n)
  local filt = gpuperf.buffer("c_filt", 4 * 17 * 17)
  C.rows_then_cols("conv", img, tmp, out, filt, n)
  return
end

local ne = mib * 2^20 / 4          -- u32 elements
local n4 = ne / 4                  -- uint4 elements
local a = gpuperf.buffer("a", 4 * ne)
local b = gpuperf.buffer("b", 4 * ne)
local sum = gpuperf.buffer("sum", 4)

local function produce()
  gpuperf.launch{
    name = "produce", grid = math.ceil(ne / 256), block = 256, regs = 10,
    work = {
      gpuperf.int(3),            -- i (64-bit), the bounds test
      gpuperf.load{a}, gpuperf.int(1), gpuperf.store{b},
    },
  }
end

local function consume()
  local grid = 8 * sms
  local threads = grid * 256
  gpuperf.launch{
    name = "consume", grid = grid, block = 256, regs = 15,
    work = {
      gpuperf.int(3),
      -- grid-stride loop over n4 uint4: i = gx + k * gridDim.x * blockDim.x
      gpuperf.loop{n4 / threads, var = "k", body = {
        -- (past n4 the loop has ended: clamped to the last element)
        gpuperf.load{b, bytes = 16, index = function(t)
          return math.min(t.gx + t.k * threads, n4 - 1) end},
        gpuperf.int(4),          -- s += v.x + v.y + v.z + v.w
        gpuperf.int(3),          -- i += stride (64-bit), the compare
      }},
      gpuperf.shfl(5), gpuperf.int(5),            -- __shfl_down_sync tree, 5 steps
      gpuperf.int(1),
      gpuperf.atomic{sum, scope = "same", count = 1 / 32},  -- lane 0 of each warp
    },
  }
end

if variant == "produce_consume" then
  produce()
  consume()
elseif variant == "consume_cold" then
  consume()
elseif variant == "consume_warm" then
  local t0, t1 = gpuperf.event("t0"), gpuperf.event("t1")
  gpuperf.flush_l2()
  produce()                        -- untimed
  gpuperf.record(t0)
  consume()
  gpuperf.record(t1)
  gpuperf.elapsed(t0, t1)
else
  error("unknown variant " .. tostring(variant))
end
