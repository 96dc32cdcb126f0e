gpuperf.launch{ name = "a", grid = {2, 3, 4}, block = {x = 8, y = 4}, regs = 1 }
gpuperf.launch{ name = "b", grid = {x = 7}, block = {16, 2, 2}, regs = 1 }
gpuperf.launch{ name = "c", grid = 2^40, block = 1024, regs = 1 }
gpuperf.launch{ name = "d", grid = {2^62, 2^62, 4}, block = {1}, regs = 1 }
