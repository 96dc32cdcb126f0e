-- regs is required
gpuperf.launch{ name = "k", grid = 1, block = 32 }
