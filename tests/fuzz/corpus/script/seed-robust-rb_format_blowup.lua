-- string.format building ever larger strings
local s = string.rep("y", 1e6)
for i = 1, 1e9 do s = string.format("%s%s", s, s) end
