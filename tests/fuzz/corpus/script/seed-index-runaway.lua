local x = gpuperf.buffer("x", 4096)
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8,
  work = { gpuperf.load{x, index = function(t) while true do end end} } }
