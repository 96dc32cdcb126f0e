-- catastrophic backtracking
local s = string.rep("a", 100000)
local i = s:find(".-.-.-b")
