-- in_l2 must be a boolean, and device needs it
local a = gpuperf.buffer("a", 64, {in_l2 = 1})
local b = gpuperf.buffer("b", 64, {device = 0})
