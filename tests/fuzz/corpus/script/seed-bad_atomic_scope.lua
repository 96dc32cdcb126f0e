-- an unknown atomic scope
local b = gpuperf.buffer("b", 64)
local op = gpuperf.atomic{ b, scope = "block" }
