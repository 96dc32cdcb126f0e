-- 'draws' is the name the stores that share one draw give alike
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.store{ b, index = function(t) return gpuperf.random(0, 1023) end,
                          draws = 7 }
