-- loops nested 32 deep whose trip counts multiply beyond any kernel
local w = { gpuperf.fp32(1e18) }
for i = 1, 31 do w = { gpuperf.loop(1e18, w) } end
gpuperf.launch{name = "deep", grid = 1, block = 32, regs = 8, work = w}
