-- 'in_flight' counts loads: a whole number from 1
local b = gpuperf.buffer("b", 4096)
local op = gpuperf.load{ b, in_flight = 0 }
