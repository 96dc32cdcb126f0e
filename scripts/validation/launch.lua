-- launch.lua: launch overhead (validation/h200/bench/kernels.cuh k_empty):
-- `count` launches of an empty kernel <<<1, 32>>> back to back in one stream.
-- With divide_by = count a validation row compares the time per launch.
local count = gpuperf.param("count", 1, "launches")
for i = 1, count do
  gpuperf.launch{ name = "empty", grid = 1, block = 32, regs = 4, work = {} }
end
