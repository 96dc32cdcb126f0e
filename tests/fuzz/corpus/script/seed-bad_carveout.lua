-- a carve-out above 100%
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, carveout = 101 }
