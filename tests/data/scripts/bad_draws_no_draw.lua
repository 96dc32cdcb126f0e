-- 'draws' on an index function that never calls gpuperf.random
local b = gpuperf.buffer("b", 4096)
local st = gpuperf.store{ b, draws = "slot",
                          index = function(t) return t.gx end }
gpuperf.launch{ name = "k", grid = 4, block = 256, regs = 16,
                work = { st } }
