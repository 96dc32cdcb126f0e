-- concurrent.lua: kernels in one stream or side by side in several
-- (validation/h200/bench: the calibration set's concurrent family and
-- bench_own.cu's). Every kernel is k_fma: `iters` steps of `ilp` FMA chains.
--   seed   kernel A (40 x 256, fma ilp 1, 65536 steps) and kernel B (20 x 512,
--          8 KiB dynamic shared memory, same work)
--   full   two kernels that each fill the GPU for two waves: 2112 x 256 and
--          1056 x 512, fma ilp 1, 8192 steps
--   small  16 x 256, fma ilp 4, 16384 steps; `count` of them
--   half   66 x 256 pinned to one block per SM, fma ilp 4, 8192 steps
--   ovl    132 x 256 pinned to one block per SM, fma ilp 4, 262144 steps, and a
--          64 MiB host-to-device copy
-- `mode`: a (first kernel only), b (second only), serial (one stream) or
-- streams (one stream each).
local case  = gpuperf.param("case", "seed", "seed | full | small | half | ovl")
local mode  = gpuperf.param("mode", "streams", "a | b | serial | streams")
local count = gpuperf.param("count", 8, "small: kernels")
local out = gpuperf.buffer("out", 4 * 2^24)

local function fma(name, grid, block, ilp, iters, dyn, regs)
  return gpuperf.kernel{
    name = name, grid = grid, block = block, regs = regs, dynamic_smem = dyn,
    work = {
      gpuperf.int(3), gpuperf.conv(1), gpuperf.fp32{ilp, ilp = ilp},
      gpuperf.loop(iters, { gpuperf.fp32{ilp, ilp = ilp} }),
      gpuperf.fp32(ilp - 1), gpuperf.int(5), gpuperf.store{out},
    },
  }
end

local jobs = {}
if case == "seed" then
  jobs = { fma("A", 40, 256, 1, 65536, 0, 10), fma("B", 20, 512, 1, 65536, 8192, 10) }
elseif case == "full" then
  jobs = { fma("full1", 2112, 256, 1, 8192, 0, 10), fma("full2", 1056, 512, 1, 8192, 0, 10) }
elseif case == "small" then
  for i = 1, count do jobs[i] = fma("small" .. i, 16, 256, 4, 16384, 0, 16) end
elseif case == "half" then
  jobs = { fma("half1", 66, 256, 4, 8192, 232448, 16), fma("half2", 66, 256, 4, 8192, 232448, 16) }
elseif case == "ovl" then
  jobs = { fma("kernel", 132, 256, 4, 262144, 232448, 16), "copy" }
else
  error("case must be seed, full, small, half or ovl")
end

local function run(job, stream)
  if job == "copy" then
    gpuperf.copy{ bytes = 64 * 2^20, kind = "h2d", stream = stream }
  else
    gpuperf.launch(job, { stream = stream })
  end
end

if mode == "a" then
  run(jobs[1], gpuperf.default_stream)
elseif mode == "b" then
  run(jobs[2], gpuperf.default_stream)
elseif mode == "serial" then
  for _, job in ipairs(jobs) do run(job, gpuperf.default_stream) end
elseif mode == "streams" then
  for i, job in ipairs(jobs) do run(job, gpuperf.stream("s" .. i)) end
else
  error("mode must be a, b, serial or streams")
end
