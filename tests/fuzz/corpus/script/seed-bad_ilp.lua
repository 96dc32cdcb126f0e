-- ilp below 1
local op = gpuperf.fp64{4, ilp = 0}
