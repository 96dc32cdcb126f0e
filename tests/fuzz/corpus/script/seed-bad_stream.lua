-- a stream given by name
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, stream = "s1" }
