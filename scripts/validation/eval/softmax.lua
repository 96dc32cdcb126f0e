-- softmax.lua: the softmax family of the H200 evaluation set (validation/h200/bench/
-- eval_dense.cuh, fam_softmax): rows x cols floats, three passes per row (max, sum of
-- __expf, write), block 256, L2 flushed before the kernel.
--   variant=row_per_block: k_softmax_block, block bx owns row bx, c = tid, tid + 256, ...
--   variant=warp_per_row:  k_softmax_warp, row = gid / 32, c = lane, lane + 32, ...
local rows    = gpuperf.param("rows", 4096, "rows")
local cols    = gpuperf.param("cols", 4096, "columns")
local variant = gpuperf.param("variant", "row_per_block", "row_per_block | warp_per_row")
local lib = require("lib_rows")
local inp = gpuperf.buffer("in", 4 * rows * cols)
local out = gpuperf.buffer("out", 4 * rows * cols)
if variant == "row_per_block" then
  lib.softmax_block(variant, inp, out, rows, cols)
elseif variant == "warp_per_row" then
  lib.softmax_warp(variant, inp, out, rows, cols)
else
  error("variant must be row_per_block or warp_per_row, got " .. tostring(variant))
end
