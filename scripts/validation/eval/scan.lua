-- scan.lua: the scan family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, fam_scan): an inclusive scan of n u32, 4 per thread.
--   variant=block_scan: one k_scan_block<block> launch (tile scans only).
--   variant=full_multi_kernel: scan_full<block>: tile scans, the tile totals scanned
--     recursively, k_scan_add; all launches timed together.
-- Both rows flush the L2 before the timed launches (the L2 starts empty here).
local S = require("lib_scan")
local n       = gpuperf.param("n", 2^20, "elements (u32)")
local block   = gpuperf.param("block", 256, "threads per block: 256 or 1024")
local variant = gpuperf.param("variant", "block_scan", "block_scan | full_multi_kernel")
assert(block == 256 or block == 1024, "block must be 256 or 1024 (the kernel's template values)")

local src = gpuperf.buffer("in", 4 * n)
local dst = gpuperf.buffer("out", 4 * n)
if variant == "block_scan" then
  S.block("scan_block", src, dst, nil, n, block)
elseif variant == "full_multi_kernel" then
  S.full("scan", src, dst, n, block)
else
  error("variant must be block_scan or full_multi_kernel, got " .. tostring(variant))
end
