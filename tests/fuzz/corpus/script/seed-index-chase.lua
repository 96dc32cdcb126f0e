local n = 2^16
local nxt = gpuperf.buffer("next", 4 * n)
local hist = gpuperf.buffer("hist", 4 * 256)
gpuperf.launch{ name = "chase", grid = 1, block = 32, regs = 8,
  work = { gpuperf.loop(100, { gpuperf.load{nxt, depends = true,
           index = function(t) return gpuperf.random(0, n - 1) end} }) } }
gpuperf.launch{ name = "hist", grid = n / 256, block = 256, regs = 8, smem = 1024,
  work = { gpuperf.load{nxt, pattern = "random", range = {0, 255}},
           gpuperf.atomic{space = "shared", index = function(t) return gpuperf.random(0, 255) end},
           gpuperf.atomic{hist, bins = 256}, gpuperf.shfl(5), gpuperf.vote(1), gpuperf.match(1),
           gpuperf.warp_reduce(1), gpuperf.idiv(1), gpuperf.imod(1), gpuperf.fdiv(1), gpuperf.rcp(1) } }
