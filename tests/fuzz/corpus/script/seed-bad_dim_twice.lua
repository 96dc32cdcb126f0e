-- grid.x given twice
gpuperf.launch{ name = "k", grid = {4, x = 2}, block = 32, regs = 8 }
