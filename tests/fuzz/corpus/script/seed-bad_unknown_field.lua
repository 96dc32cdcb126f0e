-- a misspelt field
gpuperf.launch{ name = "k", gird = 1, block = 32, regs = 8 }
