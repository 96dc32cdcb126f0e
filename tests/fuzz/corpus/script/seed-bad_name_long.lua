-- a 64-byte kernel name
gpuperf.launch{ name = string.rep("k", 64), grid = 1, block = 32, regs = 8 }
