-- block is a string
gpuperf.launch{ name = "k", grid = 1, block = "big", regs = 8 }
