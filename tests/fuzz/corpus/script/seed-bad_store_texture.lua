-- stores cannot go to the read-only texture path
local b = gpuperf.buffer("b", 64)
local op = gpuperf.store{ b, space = "texture" }
