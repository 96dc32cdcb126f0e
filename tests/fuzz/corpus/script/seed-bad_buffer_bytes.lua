-- an empty buffer
local b = gpuperf.buffer("x", 0)
