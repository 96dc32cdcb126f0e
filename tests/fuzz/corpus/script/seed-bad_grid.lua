-- grid.x is negative
gpuperf.launch{ name = "k", grid = {-3, 2}, block = 32, regs = 8 }
