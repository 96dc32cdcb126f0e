-- a table that grows without end
local t = {}
for i = 1, 1e9 do t[i] = { i } end
