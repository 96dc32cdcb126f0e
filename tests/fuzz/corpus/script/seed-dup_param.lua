local n = gpuperf.param("n", 1)
local again = gpuperf.param("n", 2)
