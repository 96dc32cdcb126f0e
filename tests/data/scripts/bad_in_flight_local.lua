-- 'in_flight' applies to global and texture loads
local op = gpuperf.load{ space = "local", footprint = 4096, in_flight = 4 }
