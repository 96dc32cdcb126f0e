-- Kernel templates, launch overrides and default names.
local x = gpuperf.buffer("x", 4096)
local scale = gpuperf.kernel{
  name = "scale", block = 128, regs = 20, smem = 512,
  work = { gpuperf.load{x}, gpuperf.fp32(1), gpuperf.store{x} },
}
assert(scale.name == "scale" and scale.regs == 20, "templates are readable")
gpuperf.launch(scale, { grid = 8 })
gpuperf.launch(scale, { grid = {4, 2}, name = "scale_big", regs = 32, dynamic_smem = 256,
                        work = { gpuperf.fp64(2) } })
gpuperf.launch{ grid = 1, block = 32, regs = 4 }
local side = gpuperf.stream("side")
gpuperf.launch(gpuperf.kernel{ grid = 3, block = 64, regs = 8, stream = side })
gpuperf.launch(scale, { grid = 1 })
