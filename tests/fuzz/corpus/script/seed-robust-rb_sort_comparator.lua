-- a comparator that is not an order, and one that sorts again inside
local t = {}
for i = 1, 1000 do t[i] = i % 7 end
table.sort(t, function(a, b) return true end)
