-- an op changed after it was built is checked again at launch
local op = gpuperf.fp32(2)
op.count = -1
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, work = { op } }
