-- 'from_data' is a boolean: whether the address comes from data
local b = gpuperf.buffer("b", 64)
local op = gpuperf.atomic{ b, bins = 4, from_data = "yes" }
