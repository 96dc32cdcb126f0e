-- buffers that start in the L2, one larger than it, then a flush between launches
local a = gpuperf.buffer("a", 2^23, {in_l2 = true})
local b = gpuperf.buffer("b", 2^30, {in_l2 = true, device = 0})
local c = gpuperf.buffer("c", 2^20, {in_l2 = false})
local k = gpuperf.kernel{name = "read", grid = 2^13, block = 256, regs = 16,
  work = {gpuperf.load{a}, gpuperf.load{b, footprint = 2^30}, gpuperf.store{c, index = function(t) return t.gx % 2^18 end}}}
gpuperf.launch(k)
gpuperf.flush_l2()
gpuperf.launch(k)
