-- shmembench of gpumembench (ekondis/gpumembench, shmembench-cuda/
-- shmem_kernels.cu; output for a GTX 480 in its README): blocks of 256
-- threads, each with six vectors of `bytes` per thread in dynamic shared
-- memory (6 x 256 x bytes). A thread stores its six values, then runs 1024
-- trips of five swaps (each two loads and two stores of independent
-- elements), reads the six values back and writes their sum to global
-- memory. 2^20 x 4 / bytes threads.
local bytes = gpuperf.param("bytes", 4, "bytes per access: 4 (float), 8 (float2), 16 (float4)")
local trips = gpuperf.param("trips", 1024, "loop trips")
local regs  = gpuperf.param("regs", 16, "registers per thread")

local block = 256
local threads = 1048576 * 4 / bytes
local out = gpuperf.buffer("g_data", threads * bytes)
gpuperf.launch{
  name = "shmem_" .. (8 * bytes) .. "bit", grid = threads / block, block = block,
  regs = regs, dynamic_smem = 6 * block * bytes,
  work = {
    gpuperf.store{space = "shared", bytes = bytes, count = 6},
    gpuperf.loop(trips, {
      gpuperf.load{space = "shared", bytes = bytes, count = 10, ilp = 5},
      gpuperf.store{space = "shared", bytes = bytes, count = 10},
    }),
    gpuperf.load{space = "shared", bytes = bytes, count = 6, ilp = 6},
    gpuperf.fp32(5 * bytes / 4),
    gpuperf.store{out, bytes = bytes},
  },
}
