-- mixbench, the compute/memory balancing microbenchmark of E. Konstantinidis
-- (ekondis/mixbench, mix_kernels.cu, "grid strided" version; results in
-- results/GTX480.txt, results/CUDA/TeslaK20c.txt, results/CUDA/GTX660.txt).
-- Each thread runs 8192 / 32 = 256 trips of a 32-slot unrolled body:
--   `compute` slots of 4 FMAs on r0..r3 (r0, r1, r2 use last trip's values,
--   r3 the new r0: three independent chains), then 32 - compute slots that
--   alternate a volatile store and a volatile load; loads rotate through the
--   four registers, so up to four are in flight.
-- A 256 MB buffer: 2^25 / 32 = 1M threads in blocks of 256. The loads read
-- 16 grid-strided elements per thread from one half of the buffer, the
-- stores write the other half. Volatile accesses bypass L1 ("cg").
local compute  = gpuperf.param("compute", 32, "compute slots of the 32 (the ratio's numerator)")
local prec     = gpuperf.param("precision", "fp32", "fp32 or fp64")
local threads  = gpuperf.param("threads", 1048576, "threads")
local block    = gpuperf.param("block", 256, "threads per block")
-- no register count is published; 20 keeps every part at full occupancy, as
-- the near-peak compute-only rates of the measurements imply
local regs     = gpuperf.param("regs", 20, "registers per thread")

if compute < 0 or compute > 32 then error("compute must be 0..32") end
local bytes  = prec == "fp64" and 8 or 4
local fma    = prec == "fp64" and gpuperf.fp64 or gpuperf.fp32
local memops = 32 - compute
local half   = threads * 16 * bytes
local src    = gpuperf.buffer("read_half", half)
local dst    = gpuperf.buffer("write_half", half)

local body = {}
if compute > 0 then body[#body + 1] = fma(4 * compute, 3) end
local writes, reads = math.floor((memops + 1) / 2), math.floor(memops / 2)
if writes > 0 then body[#body + 1] = gpuperf.store{dst, bytes = bytes, count = writes} end
if reads > 0 then
  body[#body + 1] = gpuperf.load{src, bytes = bytes, count = reads, ilp = math.min(4, reads)}
end

gpuperf.launch{
  name = "mixbench_" .. prec .. "_" .. compute .. "_" .. memops,
  grid = math.ceil(threads / block), block = block, regs = regs, global_cache = "cg",
  work = { gpuperf.loop(8192 / 32, body) },
}
