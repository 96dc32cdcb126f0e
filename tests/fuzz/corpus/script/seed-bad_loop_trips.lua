-- a negative trip count
local op = gpuperf.loop(-1, { gpuperf.fp32(1) })
