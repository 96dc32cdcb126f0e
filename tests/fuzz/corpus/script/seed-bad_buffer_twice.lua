-- two buffers with one name
local a = gpuperf.buffer("a", 64)
local b = gpuperf.buffer("a", 64)
