-- a global load with neither buffer nor footprint
local op = gpuperf.load{bytes = 8}
