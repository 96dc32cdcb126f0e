-- many small launches (the engine's cost grows with their number)
local n = gpuperf.param("n", 1000, "launches")
local k = gpuperf.kernel{name = "k", grid = 1, block = 32, regs = 8, work = {gpuperf.fp32(1)}}
for i = 1, n do gpuperf.launch(k) end
