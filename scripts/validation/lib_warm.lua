-- lib_warm.lua: how the random-access benches (bench_scatter, bench_scatterw, bench_l1cap,
-- bench_fields) time a kernel k over their buffer p of n ints, shared by scatter.lua,
-- scatterw.lua, l1cap.lua and fields.lua. ws = "l2": k_warm of validation/h200/bench/
-- common.cuh once (a grid-stride int4 sum, `sms` x 4 blocks of 512 threads, that leaves
-- p's lines in L2, then a synchronize), then `reps` launches; otherwise the bench's
-- flush before each launch (gpuperf.flush_l2 with `flush`, its options; nil: the
-- memset). Every launch is waited for.
return function(k, p, n, sms, ws, reps, flush)
  if ws == "l2" then
    local G = sms * 4 * 512
    gpuperf.launch{
      name = "k_warm", grid = sms * 4, block = 512, regs = 16,
      work = { gpuperf.loop{math.ceil(n / 4 / G), var = "i", unroll = 1, body = {
        gpuperf.load{p, bytes = 16, index = function(t) return (t.gx + t.i * G) % (n / 4) end},
        gpuperf.int(4) }} },
    }
    gpuperf.synchronize()
  end
  for _ = 1, reps do
    if ws ~= "l2" then gpuperf.flush_l2(flush) end
    gpuperf.launch(k); gpuperf.synchronize()
  end
end
