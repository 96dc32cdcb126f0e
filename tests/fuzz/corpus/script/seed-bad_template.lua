-- a template is checked where it is written
local t = gpuperf.kernel{ name = "t", block = 0, regs = 1 }
