local x = gpuperf.buffer("x", 4 * 2^16)
local k = gpuperf.kernel{ name = "k", grid = 256, block = 256, regs = 16,
  work = { gpuperf.load{x}, gpuperf.fp32(2), gpuperf.store{x} } }
local t0, t1 = gpuperf.event("t0"), gpuperf.event("t1")
local s = gpuperf.stream("s")
gpuperf.launch(k)
gpuperf.record(t0, s)
gpuperf.launch(k, { stream = s })
gpuperf.record(t1, s)
gpuperf.elapsed(t0, t1)
