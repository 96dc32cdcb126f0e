-- 'result' is a boolean: whether the atomic's returned value is used
local b = gpuperf.buffer("b", 64)
local op = gpuperf.atomic{ b, result = 1 }
