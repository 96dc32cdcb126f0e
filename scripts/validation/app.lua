-- app.lua: two small applications of the H200 validation set
-- (validation/h200/bench/kernels.cuh k_reduce, k_sgemm_tiled).
--   reduce  shared-memory tree reduction: each thread adds 2 inputs, the block
--           halves its active threads log2(block) times, thread 0 writes the sum
--   sgemm   C = A * B for n x n floats with 16 x 16 shared-memory tiles
local kind  = gpuperf.param("kind", "reduce", "reduce | sgemm")
local n     = gpuperf.param("n", 2^26, "reduce: inputs; sgemm: matrix size")
local block = gpuperf.param("block", 256, "reduce: threads per block")

if kind == "reduce" then
  local src = gpuperf.buffer("in", 4 * n)
  local out = gpuperf.buffer("out", 4 * n / (2 * block))
  local warps = block / 32
  assert(block >= 64 and 2^math.floor(math.log(block, 2) + 0.5) == block,
         "block must be a power of two, at least 64")
  local work = {
    gpuperf.int(14),                          -- 64-bit index, bounds checks
    gpuperf.load{src}, gpuperf.load{src, offset = block},  -- in[i], in[i + blockDim]
    gpuperf.fp32(1),
    gpuperf.shared_store{},                   -- sd[t] = v
    gpuperf.barrier(),
  }
  -- for (s = blockDim/2; s > 0; s >>= 1) { if (t < s) sd[t] += sd[t+s]; sync }
  -- compiled with predication: every warp issues every step, the threads with
  -- t >= s switched off
  work[#work + 1] = gpuperf.loop(math.log(block, 2), {
    gpuperf.int(2),                           -- t < s, address of sd[t + s]
    gpuperf.shared_load{count = 2, ilp = 2},  -- sd[t], sd[t + s]
    gpuperf.fp32(1),
    gpuperf.shared_store{},
    gpuperf.barrier(),
    gpuperf.int(2),                           -- s >>= 1, s > 0
  })
  work[#work + 1] = gpuperf.store{out, pattern = "broadcast", count = 1 / warps} -- thread 0
  gpuperf.launch{
    name = "reduce", grid = gpuperf.grid(n / (2 * block)), block = block, regs = 14,
    dynamic_smem = 4 * block, work = work,
  }
elseif kind == "sgemm" then
  local T = 16
  local A = gpuperf.buffer("A", 4 * n * n)
  local B = gpuperf.buffer("B", 4 * n * n)
  local C = gpuperf.buffer("C", 4 * n * n)
  gpuperf.launch{
    name = "sgemm_tiled16", grid = {n / T, n / T}, block = {T, T}, regs = 32,
    smem = 2 * T * T * 4,                     -- As[16][16], Bs[16][16]
    work = {
      gpuperf.int(10),
      gpuperf.loop(n / T, {                   -- one tile of k per trip
        gpuperf.int(4),
        gpuperf.load{A}, gpuperf.load{B},     -- A[r][k0+tx], B[k0+ty][c]
        gpuperf.shared_store{count = 2},
        gpuperf.barrier(),
        -- As[ty][k]: nvcc reads four k at once (LDS.128), the same words for
        -- a whole row of threads; Bs[k][tx]: consecutive words
        gpuperf.shared_load{bytes = 16, pattern = "broadcast", count = T / 4},
        gpuperf.shared_load{count = T},
        gpuperf.fp32(T),                                        -- acc += As * Bs
        gpuperf.barrier(),
      }),
      gpuperf.store{C},
    },
  }
else
  error("kind must be reduce or sgemm")
end
