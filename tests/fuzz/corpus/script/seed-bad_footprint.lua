-- a footprint larger than the buffer
local b = gpuperf.buffer("b", 64)
local op = gpuperf.store{b, footprint = 128}
