-- a swept parameter, then a runaway loop
local n = gpuperf.param("n", 1)
while true do end
