-- lib_warm.lua: k_warm of validation/h200/bench/common.cuh, shared by scatter.lua and
-- scatterw.lua: a grid-stride int4 sum over a buffer of n ints, `sms` x 4 blocks of 512
-- threads, that leaves its lines in L2, then a synchronize.
return function(p, n, sms)
  local G = sms * 4 * 512
  gpuperf.launch{
    name = "k_warm", grid = sms * 4, block = 512, regs = 16,
    work = { gpuperf.loop{math.ceil(n / 4 / G), var = "i", unroll = 1, body = {
      gpuperf.load{p, bytes = 16, index = function(t) return (t.gx + t.i * G) % (n / 4) end},
      gpuperf.int(4) }} },
  }
  gpuperf.synchronize()
end
