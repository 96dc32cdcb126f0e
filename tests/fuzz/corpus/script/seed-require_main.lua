local h = require("helpers")
local again = require("helpers")
assert(h == again and loads == 1, "a module runs once per evaluation")
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, work = h.axpy(h.buf) }
