-- a kernel without work and one with only a barrier
gpuperf.launch{name = "nothing", grid = 1000, block = 256, regs = 8}
gpuperf.launch{name = "barrier_only", grid = 1000, block = 256, regs = 8,
               work = { gpuperf.barrier() }}
