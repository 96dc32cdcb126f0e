-- 'walk' is for a chase (depends = true) and is "cycle" or "draws"
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.load{ b, walk = "cycle" }
