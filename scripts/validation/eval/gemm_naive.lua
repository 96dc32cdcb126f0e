-- gemm_naive.lua: the gemm_naive family of the H200 evaluation set (validation/h200/
-- bench/eval_dense.cuh, k_gemm_naive): C = A B, n x n fp32 row-major, one output per
-- thread, row = by*bdy + ty, col = bx*bdx + tx, s += A[row*n + k] * B[k*n + col];
-- blocks bx x (256 / bx), 32 registers, L2 flushed. A and B are const __restrict__
-- (LDG.E.CONSTANT: space = "texture").
local n  = gpuperf.param("n", 1024, "matrix size")
local bx = gpuperf.param("bx", 16, "block width (16 or 32); the height is 256 / bx")
local by = 256 / bx
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)
gpuperf.launch{
  name = "naive", grid = {n / bx, n / by}, block = {bx, by}, regs = 32,
  work = {
    gpuperf.int(6),                                  -- row, col, the bounds tests, base addresses
    gpuperf.loop{n, var = "k", body = {
      gpuperf.load{A, space = "texture", index = function(t) return t.gy * n + t.k end},
      gpuperf.load{B, space = "texture", index = function(t) return t.k * n + t.gx end},
      gpuperf.fp32(1),                               -- s += a * b
      gpuperf.int(1),                                -- the B pointer advances by n (A folds)
    }},
    gpuperf.store{C, index = function(t) return t.gy * n + t.gx end},
  },
}
