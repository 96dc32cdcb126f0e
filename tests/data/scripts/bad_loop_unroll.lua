-- a pinned unroll of no copies
local op = gpuperf.loop{8, unroll = 0, body = { gpuperf.fp32(1) }}
