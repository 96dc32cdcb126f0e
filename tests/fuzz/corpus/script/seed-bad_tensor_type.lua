-- an unknown tensor type
local op = gpuperf.tensor{ flops = 256, type = "fp4" }
