-- matmul_tiled.lua: C = A*B for n x n floats with 16x16 shared-memory tiles
-- (k_sgemm_tiled in validation/h200/KERNELS.md). One thread computes
-- one element of C; a block computes one 16x16 tile of C.
local T = 16                                     -- tile edge
local n = gpuperf.param("n", 1024, "matrix size, a multiple of 16")
assert(n >= T and n % T == 0, "n must be a positive multiple of 16")
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)

-- the k loop, unrolled: nvcc reads As[ty][k..k+3] with one 16-byte load
-- (the same words for a whole row of threads) and Bs[k][tx] word by word
-- (the same 16 words for both rows of threads of a warp)
local inner = {}
for q = 0, T / 4 - 1 do
  inner[#inner + 1] = gpuperf.shared_load{bytes = 16, index = function(t) return t.y * T / 4 + q end}
end
for k = 0, T - 1 do
  inner[#inner + 1] = gpuperf.shared_load{index = function(t) return T * T + k * T + t.x end}
end

-- r = blockIdx.y * 16 + ty, c = blockIdx.x * 16 + tx
gpuperf.launch{
  name = "sgemm_tiled16",
  grid = {n / T, n / T}, block = {T, T},
  regs = 32,                                     -- as ptxas -v reports (sm_90, -O3)
  smem = 2 * T * T * 4,                          -- __shared__ float As[16][16], Bs[16][16]
  work = {
    gpuperf.loop{n / T, var = "kt", body = {     -- one trip per tile along k: k0 = 16 * kt
      -- A[r][k0+tx] and B[k0+ty][c]: a warp reads two 64-byte row pieces
      gpuperf.load{A, index = function(t) return t.gy * n + T * t.kt + t.x end},
      gpuperf.load{B, index = function(t) return (T * t.kt + t.y) * n + t.gx end},
      gpuperf.shared_store{index = function(t) return t.y * T + t.x end},          -- As[ty][tx]
      gpuperf.shared_store{index = function(t) return T * T + t.y * T + t.x end},  -- Bs[ty][tx]
      gpuperf.barrier(),
      inner,
      gpuperf.fp32(T),                             -- acc += As * Bs, T times
      gpuperf.barrier(),
    }},
    gpuperf.store{C, index = function(t) return t.gy * n + t.gx end},             -- C[r][c] = acc
  },
}
