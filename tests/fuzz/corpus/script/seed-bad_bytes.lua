-- a 3-byte access
local b = gpuperf.buffer("b", 64)
local op = gpuperf.load{b, bytes = 3}
