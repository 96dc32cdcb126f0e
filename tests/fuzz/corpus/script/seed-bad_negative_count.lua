-- a negative instruction count
local op = gpuperf.fp32(-2)
