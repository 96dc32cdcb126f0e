-- an op's state sits in its proxy under a key no script can make; the base
-- `next` (as pairs({}) returns it) reaches it, and overwriting it leaves an
-- op that is no operation: an error, never a read of something else
local rawnext = pairs({})
local op = gpuperf.load{gpuperf.buffer("b", 4096)}
local key = rawnext(op)
op[key] = "junk"
gpuperf.launch{name = "k", grid = 1, block = 32, regs = 8, work = {op}}
