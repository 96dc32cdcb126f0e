-- 'draws' shares the draws of an index function; without one there is nothing to share
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.store{ b, pattern = "random", draws = "slot" }
