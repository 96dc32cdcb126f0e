-- plain find is charged by its worst case too
local s = string.rep("a", 100000)
local needle = string.rep("a", 9000) .. "b"
for i = 1, 1e9 do string.find(s, needle, 1, true) end
