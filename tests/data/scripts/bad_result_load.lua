-- 'result' belongs to atomics: a load always returns its value
local b = gpuperf.buffer("b", 64)
local op = gpuperf.load{ b, result = true }
