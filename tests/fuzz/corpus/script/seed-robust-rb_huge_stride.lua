-- a stride beyond any address space
local b = gpuperf.buffer("b", 1e18)
gpuperf.launch{grid = 1, block = 64, regs = 8,
               work = { gpuperf.load{b, pattern = "stride", stride = 1e18} }}
