-- a chase that walks a cycle (the default) and one whose steps draw afresh
local n = 2^16
local nxt = gpuperf.buffer("next", 128 * n)
gpuperf.flush_l2()
gpuperf.launch{ name = "cycle", grid = 1, block = 32, regs = 8,
  work = { gpuperf.loop(4096, { gpuperf.load{nxt, depends = true, walk = "cycle",
           index = function(t) return gpuperf.random(0, n - 1) * 32 end} }) } }
gpuperf.launch{ name = "draws", grid = 1, block = 32, regs = 8,
  work = { gpuperf.loop(4096, { gpuperf.load{nxt, depends = true, walk = "draws",
           index = function(t) return gpuperf.random(0, n - 1) * 32 end} }) } }
