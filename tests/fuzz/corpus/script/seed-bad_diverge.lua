-- more paths than a warp has threads
local op = gpuperf.diverge(33, { gpuperf.fp32(1) })
