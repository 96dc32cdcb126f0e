-- Dependent fused multiply-add chains: the FP32/FP64 peak-throughput kernels
-- of two published A100 measurements (see validation/published/ampere.csv).
--   GPUInspector.jl peakflops_gpu_fmas: each thread loads a, b, c, runs
--     100,000 dependent FMAs and stores one value; 5,000,000 threads in
--     blocks of the occupancy calculator's size (1024 for this small kernel).
--   xytpai/nvbench single_precision_compute: a = a * b + b, 10^8 times per
--     thread, 2048 blocks of 256 threads.
-- The FMA loops are unrolled by the compilers; `unroll` FMAs form one trip.
local n        = gpuperf.param("n", 5000000, "threads, one element each")
local block    = gpuperf.param("block", 1024, "threads per block")
local fmas     = gpuperf.param("fmas", 100000, "dependent FMAs per thread")
local unroll   = gpuperf.param("unroll", 100, "FMAs per loop trip")
local loads    = gpuperf.param("loads", 3, "values a thread loads before its chain")
local prec     = gpuperf.param("precision", "fp32", "fp32 or fp64")
local regs     = gpuperf.param("regs", 32, "registers per thread")
local launches = gpuperf.param("launches", 1, "back-to-back launches")

local bytes = prec == "fp64" and 8 or 4
local fma = prec == "fp64" and gpuperf.fp64 or gpuperf.fp32
local input = gpuperf.buffer("input", n * bytes * loads)
local out = gpuperf.buffer("out", n * bytes)

for _ = 1, launches do
  gpuperf.launch{
    name = "fma_" .. prec, grid = math.ceil(n / block), block = block, regs = regs,
    work = {
      gpuperf.load{input, bytes = bytes, count = loads},
      gpuperf.loop(fmas / unroll, { fma(unroll) }),
      gpuperf.store{out, bytes = bytes},
    },
  }
end
