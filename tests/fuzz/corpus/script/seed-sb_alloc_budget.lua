-- C work (copying strings) is charged to the budget too
local s = string.rep("x", 1e6)
for i = 1, 1e6 do local t = s .. i end
