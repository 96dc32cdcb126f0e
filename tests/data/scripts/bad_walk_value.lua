-- 'walk' says how a chase's drawn nodes come: "cycle" or "draws"
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.load{ b, depends = true, walk = "ring" }
