-- table.sort called from its own comparator, without end
local t = {3, 1, 2}
local function cmp(a, b) table.sort({2, 1}, cmp) return a < b end
table.sort(t, cmp)
