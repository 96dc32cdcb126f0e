-- a script that launches nothing
local n = gpuperf.param("n", 1)
