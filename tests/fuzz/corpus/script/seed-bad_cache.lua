-- an unknown cache preference
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, cache = "l1" }
