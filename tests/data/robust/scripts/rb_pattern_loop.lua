-- each call is within the pattern limit, but a loop of them must not run
-- for hours: the worst case of every match is charged to the budget
local s = string.rep("a", 10000)
for i = 1, 1e9 do string.find(s, ".-b") end
