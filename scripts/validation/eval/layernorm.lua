-- layernorm.lua: the layernorm family of the H200 evaluation set (validation/h200/bench/
-- eval_dense.cuh, fam_layernorm): rows x cols floats, gamma and beta of cols floats,
-- mean, variance of x - mean, then the normalised write; block 256, L2 flushed.
--   variant=row_per_block: k_ln_block (20 registers, 128 bytes of shared memory)
--   variant=warp_per_row:  k_ln_warp (32 registers)
local rows    = gpuperf.param("rows", 4096, "rows")
local cols    = gpuperf.param("cols", 4096, "columns")
local variant = gpuperf.param("variant", "row_per_block", "row_per_block | warp_per_row")
local lib = require("lib_rows")
local inp = gpuperf.buffer("in", 4 * rows * cols)
local out = gpuperf.buffer("out", 4 * rows * cols)
local g = gpuperf.buffer("gamma", 4 * cols)
local b = gpuperf.buffer("beta", 4 * cols)
if variant == "row_per_block" then
  lib.layernorm_block(variant, inp, out, g, b, rows, cols)
elseif variant == "warp_per_row" then
  lib.layernorm_warp(variant, inp, out, g, b, rows, cols)
else
  error("variant must be row_per_block or warp_per_row, got " .. tostring(variant))
end
