-- regs above 65535
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 70000 }
