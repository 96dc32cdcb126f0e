-- a string in a work list
local x = gpuperf.buffer("x", 64)
gpuperf.launch{
  name = "saxpy", grid = 1, block = 32, regs = 8,
  work = { gpuperf.load{x}, gpuperf.fp32(1), "store" },
}
