local n = gpuperf.param("n", 1024, "number of elements")
local block = gpuperf.param("block", 128)
local mode = gpuperf.param("mode", "fast", "fast or exact")
assert(type(n) == "number" and type(mode) == "string")
gpuperf.buffer(mode, 4 * n)
gpuperf.launch{ name = "k_" .. mode, grid = math.ceil(n / block), block = block, regs = 8 }
