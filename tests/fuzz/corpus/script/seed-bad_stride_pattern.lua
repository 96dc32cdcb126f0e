-- a stride with the unit pattern
local b = gpuperf.buffer("b", 64)
local op = gpuperf.load{b, stride = 4, pattern = "unit"}
