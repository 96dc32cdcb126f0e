-- stream.lua: the streaming kernels of the H200 validation set
-- (validation/h200/bench/kernels.cuh and bench_own.cu), one element per thread:
--   copy             out[i] = in[i]                (k_copy)
--   triad            a[i] = b[i] + s * c[i]        (k_triad)
--   copy4            float4 copy                   (k_copy4)
--   copy2            float2 copy                   (bench_own: copy_float2)
--   copy_misaligned  out[i] = in[i + 1]            (bench_own)
-- Per-thread instruction counts are those of the compiled kernels (SASS, sm_90):
-- 64-bit index arithmetic and the bounds check are about 13 integer instructions.
local kernel = gpuperf.param("kernel", "copy", "copy | triad | copy4 | copy2 | copy_misaligned")
local n      = gpuperf.param("n", 2^24, "elements (floats)")
local block  = gpuperf.param("block", 256, "threads per block")

-- the shared set and bench_own write a 1 GiB scratch buffer before every repetition
-- and launch behind it
gpuperf.flush_l2()

local index = gpuperf.int(13)          -- blockIdx * blockDim + threadIdx, bounds check
local exit  = gpuperf.branch(1)

if kernel == "copy" or kernel == "copy_misaligned" then
  local src = gpuperf.buffer("in", 4 * (n + 1))
  local dst = gpuperf.buffer("out", 4 * n)
  gpuperf.launch{
    name = kernel, grid = gpuperf.grid(math.ceil(n / block)), block = block, regs = 8,
    work = {
      index,
      gpuperf.load{src, offset = kernel == "copy" and 0 or 1, footprint = 4 * n},
      gpuperf.store{dst},
      exit,
    },
  }
elseif kernel == "triad" then
  local a = gpuperf.buffer("a", 4 * n)
  local b = gpuperf.buffer("b", 4 * n)
  local c = gpuperf.buffer("c", 4 * n)
  gpuperf.launch{
    name = "triad", grid = gpuperf.grid(math.ceil(n / block)), block = block, regs = 12,
    work = {
      gpuperf.int(15),
      gpuperf.load{b}, gpuperf.load{c},   -- two independent loads in flight
      gpuperf.fp32(1),                    -- b + s * c: one FFMA
      gpuperf.store{a},
      exit,
    },
  }
elseif kernel == "copy4" or kernel == "copy2" then
  local width = kernel == "copy4" and 4 or 2
  local src = gpuperf.buffer("in", 4 * n)
  local dst = gpuperf.buffer("out", 4 * n)
  gpuperf.launch{
    name = kernel, grid = gpuperf.grid(math.ceil(n / width / block)), block = block,
    regs = kernel == "copy4" and 14 or 8,
    work = {
      index,
      gpuperf.load{src, bytes = 4 * width},
      gpuperf.store{dst, bytes = 4 * width},
      exit,
    },
  }
else
  error("kernel must be copy, triad, copy4, copy2 or copy_misaligned, not " .. tostring(kernel))
end
