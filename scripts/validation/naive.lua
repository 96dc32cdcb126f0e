-- naive.lua: the naive SGEMM, one output per thread (validation/h200/bench/bench_naive.cu,
-- family `naive`): C = A B, n x n fp32 row-major, row = by bdy + ty, col = bx bdx + tx,
-- s += A[row n + k] B[k n + col] for k < n (a run-time count), C[row n + col] = s. A and
-- B are const __restrict__ (LDG.E.CONSTANT: space = "texture"); the L2 flushed before
-- the launch. From the SASS (validation/h200/measured/run21/naive/sass_naive.txt.gz):
--   unroll = 16  the loop as nvcc leaves it (k_naive<.., 0>): 16 copies a trip, their
--                32 loads issued ahead of the FFMAs, a 4-copy and a 1-copy remainder;
--   unroll = 1   `#pragma unroll 1`: LDG, LDG, the pointer updates, FFMA, the branch.
local n      = gpuperf.param("n", 1024, "matrix size")
local bx     = gpuperf.param("bx", 32, "block width (8, 16 or 32); the height is 256 / bx")
local unroll = gpuperf.param("unroll", 16, "copies of the k loop a trip: 16 (as nvcc) or 1")
local regs   = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local by = 256 / bx
assert(unroll == 16 or unroll == 1, "unroll must be 16 or 1")
assert(n % bx == 0 and n % by == 0 and n % 16 == 0, "n must be a multiple of 16, bx and 256 / bx")
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)
gpuperf.flush_l2()
gpuperf.launch{
  name = unroll == 1 and ("naive_" .. bx .. "x" .. by .. "_u1") or ("naive_" .. bx .. "x" .. by),
  grid = { n / bx, n / by }, block = { bx, by }, regs = regs,
  work = {
    gpuperf.int(8),                                  -- row, col, the count test, base addresses
    gpuperf.loop{n, var = "k", unroll = unroll, body = {
      gpuperf.load{A, space = "texture", index = function(t) return t.gy * n + t.k end},
      gpuperf.load{B, space = "texture", index = function(t) return t.k * n + t.gx end},
      gpuperf.int(2),                                -- the B pointer's 64-bit step (A: immediate offsets)
      gpuperf.fp32(1),                               -- s += a * b
    }},
    gpuperf.int(3),
    gpuperf.store{C, index = function(t) return t.gy * n + t.gx end},
  },
}
