-- the largest launch the device allows, with the largest counts a script
-- may give: 1e18 instructions per thread inside loops that multiply to
-- 1e18, over the largest buffer; every number of the answer must be finite
local d = gpuperf.device
local b = gpuperf.buffer("huge", 1e18)
local w = { gpuperf.fp32(1e18), gpuperf.load{b, pattern = "random", count = 1e18, bytes = 16},
            gpuperf.store{b, pattern = "random", count = 1e18} }
if d.compute_capability >= 1.1 then -- atomics from 1.1 on
  w[#w + 1] = gpuperf.atomic{b, scope = "same", count = 1e18}
end
for i = 1, 30 do w = { gpuperf.loop(2, w) } end
w = { gpuperf.loop(1e18 / 2^30, w) }
gpuperf.launch{name = "largest",
               grid = { d.max_grid_x, d.max_grid_y, d.max_grid_z },
               block = math.min(d.max_block_x, d.max_threads_per_block),
               regs = 8, work = w}

