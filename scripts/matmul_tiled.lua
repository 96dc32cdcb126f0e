-- matmul_tiled.lua: C = A*B for n x n floats with 16x16 shared-memory tiles
-- (k_sgemm_tiled in validation/h200/KERNELS.md). One thread computes
-- one element of C; a block computes one 16x16 tile of C.
local T = 16                                     -- tile edge
local n = gpuperf.param("n", 1024, "matrix size, a multiple of 16")
assert(n >= T and n % T == 0, "n must be a positive multiple of 16")
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)

gpuperf.launch{
  name = "sgemm_tiled16",
  grid = {n / T, n / T}, block = {T, T},
  regs = 32,                                     -- as ptxas -v reports (sm_90, -O3)
  smem = 2 * T * T * 4,                          -- __shared__ float As[16][16], Bs[16][16]
  work = {
    gpuperf.loop(n / T, {                        -- one trip per tile along k
      -- A[r][k0+tx] and B[k0+ty][c]: a warp reads two 64-byte row pieces,
      -- the same sectors as one unit-stride access
      gpuperf.load{A}, gpuperf.load{B},
      gpuperf.shared_store{}, gpuperf.shared_store{}, -- As[ty][tx], Bs[ty][tx]
      gpuperf.barrier(),
      -- the k loop is unrolled: nvcc reads As[ty][k..k+3] with one 16-byte
      -- load (the same words for a whole row of threads) and Bs[k][tx] word by word
      gpuperf.shared_load{bytes = 16, pattern = "broadcast", count = T / 4},
      gpuperf.shared_load{count = T},
      gpuperf.fp32(T),                             -- acc += As * Bs, T times
      gpuperf.barrier(),
    }),
    gpuperf.store{C},                            -- C[r][c] = acc
  },
}
