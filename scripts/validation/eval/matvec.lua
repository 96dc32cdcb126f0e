-- matvec.lua: the matvec family of the H200 evaluation set (validation/h200/bench/
-- eval_dense.cuh, fam_matvec): y = A x, A rows x cols floats, block 256, L2 flushed.
--   variant=thread_per_row: k_mv_thread, y[r] = sum_c A[r*cols + c] x[c] (row walk).
--   variant=warp_per_row: k_mv_warp, lane l sums c = l, l+32, ...; __shfl_xor_sync sum.
--   variant=thread_per_row_colmajor: k_mv_thread_colmajor over At[c*rows + r].
-- Registers from ptxas_bench_eval.txt (29, 32, 32).
local rows    = gpuperf.param("rows", 4096, "rows of A")
local cols    = gpuperf.param("cols", 4096, "columns of A")
local variant = gpuperf.param("variant", "thread_per_row",
                              "thread_per_row | warp_per_row | thread_per_row_colmajor")
local A = gpuperf.buffer("A", 4 * rows * cols)
local x = gpuperf.buffer("x", 4 * cols)
local y = gpuperf.buffer("y", 4 * rows)

if variant == "thread_per_row" or variant == "thread_per_row_colmajor" then
  local cm = variant == "thread_per_row_colmajor"
  gpuperf.launch{
    name = variant, grid = math.ceil(rows / 256), block = 256, regs = cm and 32 or 29,
    work = {
      gpuperf.int(4),  -- r, the bounds test, the row (or column) base address (64-bit)
      gpuperf.loop{cols, var = "c", body = {
        gpuperf.load{A, index = cm and function(t) return t.c * rows + t.gx end
                                    or function(t) return t.gx * cols + t.c end},
        gpuperf.load{x, index = function(t) return t.c end},
        gpuperf.fp32(1),   -- s += a * x[c]: one dependent FMA
        gpuperf.int(2),    -- advance the A and x addresses
      }},
      gpuperf.store{y, index = function(t) return t.gx end},
    },
  }
elseif variant == "warp_per_row" then
  gpuperf.launch{
    name = variant, grid = math.ceil(rows * 32 / 256), block = 256, regs = 32,
    work = {
      gpuperf.int(5),  -- r = gx >> 5, lane, the bounds test, the row base address
      gpuperf.loop{cols / 32, var = "c", body = {
        gpuperf.load{A, index = function(t)
          return math.floor(t.gx / 32) * cols + t.c * 32 + t.lane end},
        gpuperf.load{x, index = function(t) return t.c * 32 + t.lane end},
        gpuperf.fp32(1),
        gpuperf.int(2),
      }},
      gpuperf.shfl(5), gpuperf.fp32(5),   -- warp_sum: 5 __shfl_xor_sync and adds
      gpuperf.int(1),
      gpuperf.store{y, count = 1 / 32,    -- lane 0 writes y[r]
                    index = function(t) return math.floor(t.gx / 32) end},
    },
  }
else
  error("unknown variant " .. tostring(variant))
end
