-- a buffer handle in a work list
local b = gpuperf.buffer("b", 64)
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, work = { b } }
