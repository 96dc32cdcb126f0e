-- Op checks that raise inside pcall (unknown fields, a bad size), then
-- launches of ops built before them (checked once, reused): the failed checks
-- must leave nothing behind that changes what the later launches read.
local b = gpuperf.buffer("x", 2^20)
local inner = gpuperf.loop{8, body = { gpuperf.load{b} }}
if gpuperf.param("errors", 1) == 1 then
  for i = 1, 3 do
    assert(not pcall(gpuperf.loop, {8, body = { gpuperf.load{b} }, bogus = i}))
    assert(not pcall(gpuperf.load, {b, bytes = 3}))
    assert(not pcall(function() return gpuperf.loop{4, body = { inner }, nope = true} end))
  end
end
local k = gpuperf.kernel{ name = "k", grid = 256, block = 256, regs = 16,
  work = { inner, gpuperf.loop{4, body = { inner, gpuperf.fp32(2) }} } }
gpuperf.launch(k)
gpuperf.launch(k)
