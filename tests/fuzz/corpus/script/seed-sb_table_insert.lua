-- O(n) library calls are charged to the budget
local t = {}
for i = 1, 1e5 do t[i] = i end
for i = 1, 1e6 do table.insert(t, 1, i) end
