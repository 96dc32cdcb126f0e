-- a terabyte string
local s = string.rep("x", 2^40)
