-- lib_timed.lua: a benchmark's timed repetition after an untimed one, the host waiting
-- between them, as bench_eval.cu's time_case times each repetition alone (events
-- around it): run() once, gpuperf.synchronize(), then run() between two events
-- recorded in `stream` (nil: the default stream), named with gpuperf.elapsed.
-- Shared by elementwise.lua and graph.lua.
return function(run, stream)
  local t0, t1 = gpuperf.event("t0"), gpuperf.event("t1")
  run()                            -- untimed
  gpuperf.synchronize()
  gpuperf.record(t0, stream)
  run()
  gpuperf.record(t1, stream)
  gpuperf.elapsed(t0, t1)
end
