-- Nothing may leak from one evaluation of a script into the next.
assert(leaked == nil, "a global survived the last evaluation")
assert(string.marker == nil and ("ab"):rep(2) == "abab", "the string library kept a change")
leaked = true
string.marker = true
string.rep = nil
local n = gpuperf.param("n", 16)
local b = gpuperf.buffer("rand", math.random(1, 1000000))
gpuperf.launch{ name = "k", grid = n, block = 64, regs = 8, work = { gpuperf.load{b} } }
