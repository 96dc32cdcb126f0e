-- gemm_tiled.lua: the gemm_tiled family of the H200 evaluation set (validation/h200/
-- bench/eval_dense.cuh, k_gemm_tiled<T>): C = A B, n x n fp32, T x T threads per
-- block, one output each; per step k0 the block stages As[ty][tx] = A[row*n + k0 + tx]
-- and Bs[ty][tx] = B[(k0 + ty)*n + col], barrier, T FMAs s += As[ty][k] * Bs[k][tx]
-- (unrolled; the SASS reads As[ty][k..k+3] with LDS.128), barrier. 32 registers,
-- 2 T^2 floats of shared memory, L2 flushed.
local n = gpuperf.param("n", 1024, "matrix size")
local T = gpuperf.param("tile", 16, "tile (16 or 32)")
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)

local inner = {}
for q = 0, T / 4 - 1 do                              -- As[ty][4q .. 4q+3]: one LDS.128
  inner[#inner + 1] = gpuperf.shared_load{bytes = 16,
    index = function(t) return t.y * T / 4 + q end}
  for k = 4 * q, 4 * q + 3 do                        -- Bs[k][tx], then the FMA
    inner[#inner + 1] = gpuperf.shared_load{index = function(t) return T * T + k * T + t.x end}
    inner[#inner + 1] = gpuperf.fp32(1)
  end
end

gpuperf.launch{
  name = "smem_tiled", grid = {n / T, n / T}, block = {T, T}, regs = 32, smem = 2 * T * T * 4,
  work = {
    gpuperf.int(6),                                  -- row, col, base addresses
    gpuperf.loop{n / T, var = "s", body = {
      gpuperf.load{A, space = "texture", index = function(t) return t.gy * n + t.s * T + t.x end},
      gpuperf.load{B, space = "texture", index = function(t) return (t.s * T + t.y) * n + t.gx end},
      gpuperf.shared_store{index = function(t) return t.y * T + t.x end},
      gpuperf.shared_store{index = function(t) return T * T + t.y * T + t.x end},
      gpuperf.barrier(),
      inner,
      gpuperf.barrier(),
      gpuperf.int(2),                                -- advance the A and B pointers
    }},
    gpuperf.store{C, index = function(t) return t.gy * n + t.gx end},
  },
}
