-- math read, then settled by a write; an op's hidden state key found with the
-- base next and moved to another op, set to junk, cleared
local rawnext = pairs({})
local f = math.floor
math.floor = nil
assert(math.floor == nil and math.ceil(1.5) == 2 and f(1.5) == 1)
local b = gpuperf.buffer("b", 4096)
local a, c, d = gpuperf.load{b}, gpuperf.store{b}, gpuperf.fp32(4)
local k, st = rawnext(a)
c[k] = st
d[k] = rawnext(math)
setmetatable(math, {__index = function() return 1 end})
gpuperf.launch{name = "k", grid = 2, block = 64, regs = 8, work = {a, c, d, gpuperf.load{b}}}
