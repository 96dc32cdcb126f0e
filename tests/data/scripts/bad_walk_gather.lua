-- 'walk' belongs to a chase: a load with depends = true
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.load{ b, walk = "cycle" }
