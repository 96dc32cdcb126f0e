-- two_kernels.lua: the design seed's first case study. Two independent
-- kernels, each in its own stream:
--   A: 40 blocks x 256 threads, 32 registers per thread, no shared memory
--   B: 20 blocks x 512 threads, 64 registers per thread, 8 KiB shared memory
-- On seed-20sm (20 SMs of A100 resources: 2048 threads, 65536 registers,
-- 164 KiB shared memory per SM) A alone fits 8 blocks per SM (threads and
-- registers both allow 8) and B alone 2 (registers: 2 x 32768). Launched
-- side by side, A's 40 blocks spread two to an SM; B's blocks then take what
-- is left on each SM - 48 warp slots and 49152 registers, room for one B
-- block - so the two kernels overlap. Each thread runs `iters` dependent
-- FMAs and stores one float.
--   mode=streams  A and B in two streams (they overlap)
--   mode=serial   both in the default stream (B waits for A)
--   mode=a | b    one kernel alone
local mode  = gpuperf.param("mode", "streams", "streams | serial | a | b")
local iters = gpuperf.param("iters", 65536, "dependent FMA steps per thread")
local out = gpuperf.buffer("out", 4 * 40 * 256)

local function work()
  return {
    gpuperf.int(3),                              -- the thread's index
    gpuperf.loop(iters, { gpuperf.fp32(1) }),    -- one dependent FMA chain
    gpuperf.store{out},
  }
end

local A = gpuperf.kernel{ name = "A", grid = 40, block = 256, regs = 32, work = work() }
local B = gpuperf.kernel{ name = "B", grid = 20, block = 512, regs = 64, smem = 8 * 1024,
                          work = work() }

if mode == "streams" then
  gpuperf.launch(A, { stream = gpuperf.stream("streamA") })
  gpuperf.launch(B, { stream = gpuperf.stream("streamB") })
elseif mode == "serial" then
  gpuperf.launch(A)
  gpuperf.launch(B)
elseif mode == "a" then
  gpuperf.launch(A)
elseif mode == "b" then
  gpuperf.launch(B)
else
  error("mode must be streams, serial, a or b, not " .. tostring(mode))
end
