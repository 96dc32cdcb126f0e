-- Every evaluation draws the same random numbers, whatever the last one did
-- with the generator: k = 1 seeds it otherwise, k = 2 does not draw.
local k = gpuperf.param("k", 0)
if k == 1 then math.randomseed(7) end
local bytes = k == 2 and 4 or 4 * math.random(1, 1000000)
local b = gpuperf.buffer("r", bytes)
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, work = { gpuperf.load{b} } }
