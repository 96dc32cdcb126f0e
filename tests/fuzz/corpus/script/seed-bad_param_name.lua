-- parameter names are identifiers
local n = gpuperf.param("2n", 1)
