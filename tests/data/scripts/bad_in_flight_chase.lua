-- 'in_flight' is for independent loads: a chase waits for the load before it
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.load{ b, depends = true, in_flight = 4 }
