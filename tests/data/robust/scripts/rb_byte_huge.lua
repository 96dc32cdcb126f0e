-- a string slice longer than the stack
local s = string.rep("b", 1e6)
local t = { s:byte(1, -1) }
