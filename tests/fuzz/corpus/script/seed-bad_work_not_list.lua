-- work is a table of fields, not a list
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, work = { count = 3 } }
