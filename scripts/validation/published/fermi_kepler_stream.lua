-- GPU-STREAM / BabelStream (UoB-HPC/BabelStream, CUDA implementation; results
-- in results/cuda/*.txt, versions 0.0 and 0.9, and results/v2.0/k20x/cuda.txt,
-- results/v2.0/cuda-cray/K40.txt): one element per thread in blocks of 1024
-- (TBSIZE), double precision by default. Array sizes: 49,999,872 (0.0),
-- 52,428,800 (0.9), 2^25 (2.0).
--   copy  c[i] = a[i]            mul  b[i] = scalar * c[i]
--   add   c[i] = a[i] + b[i]     triad a[i] = b[i] + scalar * c[i]
local kernel = gpuperf.param("kernel", "copy", "copy, mul, add or triad")
local n      = gpuperf.param("n", 49999872, "elements per array")
local bytes  = gpuperf.param("bytes", 8, "bytes per element (8: double, 4: float)")
local block  = gpuperf.param("block", 1024, "threads per block")
local regs   = gpuperf.param("regs", 10, "registers per thread")

local arith = bytes == 8 and gpuperf.fp64 or gpuperf.fp32
local a = gpuperf.buffer("a", n * bytes)
local b = gpuperf.buffer("b", n * bytes)
local c = gpuperf.buffer("c", n * bytes)
local work = {
  copy  = { gpuperf.load{a, bytes = bytes}, gpuperf.store{c, bytes = bytes} },
  mul   = { gpuperf.load{c, bytes = bytes}, arith(1), gpuperf.store{b, bytes = bytes} },
  add   = { gpuperf.load{a, bytes = bytes}, gpuperf.load{b, bytes = bytes}, arith(1),
            gpuperf.store{c, bytes = bytes} },
  triad = { gpuperf.load{b, bytes = bytes}, gpuperf.load{c, bytes = bytes}, arith(1),
            gpuperf.store{a, bytes = bytes} },
}
gpuperf.launch{
  name = kernel, grid = math.ceil(n / block), block = block, regs = regs,
  work = work[kernel] or error("unknown kernel " .. kernel),
}
