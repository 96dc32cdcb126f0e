-- Streaming kernels of published A100 bandwidth measurements (see
-- validation/published/ampere.csv); one element per thread:
--   copy   out[i] = in[i]               (xytpai/nvbench threads_copy: `bytes`
--                                        = 4 x vec_size per thread; blocks of
--                                        1024 at commit 017724f, `block`)
--   read   t = B[i]; if t == c then A[i] = t      (gpu-benches cuda-stream)
--   scale  A[i] = B[i] * c                        (gpu-benches cuda-stream)
--   triad  A[i] = B[i] * c + C[i]                 (gpu-benches cuda-stream)
--   axpy   y[i] = a * x[i] + y[i]                 (cuBLAS axpy, GPUInspector.jl)
-- gpu-benches pins two blocks per SM with 6 KiB of static shared memory and
-- a 9% carve-out (smem = 6144, carveout = 9).
local kernel   = gpuperf.param("kernel", "triad", "copy, read, scale, triad or axpy")
local n        = gpuperf.param("n", 134217728, "elements per array")
local bytes    = gpuperf.param("bytes", 8, "bytes per element")
local block    = gpuperf.param("block", 256, "threads per block")
local smem     = gpuperf.param("smem", 0, "static shared memory per block, bytes")
local carveout = gpuperf.param("carveout", -1, "shared-memory carve-out in percent (-1: default)")
local regs     = gpuperf.param("regs", 16, "registers per thread")
local launches = gpuperf.param("launches", 1, "back-to-back launches")

local function array(name) return gpuperf.buffer(name, n * bytes) end
local arith = bytes == 8 and gpuperf.fp64 or gpuperf.fp32
local a, b, c = array("A"), array("B"), array("C")
local work = {
  copy  = { gpuperf.load{b, bytes = bytes}, gpuperf.store{a, bytes = bytes} },
  read  = { gpuperf.load{b, bytes = bytes}, arith(1), gpuperf.branch(1) },
  scale = { gpuperf.load{b, bytes = bytes}, arith(1), gpuperf.store{a, bytes = bytes} },
  triad = { gpuperf.load{b, bytes = bytes}, gpuperf.load{c, bytes = bytes}, arith(1),
            gpuperf.store{a, bytes = bytes} },
  axpy  = { gpuperf.load{b, bytes = bytes}, gpuperf.load{a, bytes = bytes}, arith(1),
            gpuperf.store{a, bytes = bytes} },
}
local launch = { name = kernel, grid = math.ceil(n / block), block = block, regs = regs,
                 smem = smem, work = work[kernel] or error("unknown kernel " .. kernel) }
if carveout >= 0 then launch.carveout = carveout end
for _ = 1, launches do gpuperf.launch(launch) end
