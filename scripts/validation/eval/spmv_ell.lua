-- spmv_ell.lua: the ELL sparse matrix-vector product of the H200 evaluation set
-- (validation/h200/bench/eval_sparse.cuh, k_ell): a thread per row, entry k of row r at
-- k * rows + r (column-major), padding has column -1 and is skipped (if (c >= 0)).
-- All inputs are const __restrict__ (ld.global.nc: space "texture").
local rows  = gpuperf.param("rows", 2^20, "rows = columns")
local kind  = gpuperf.param("kind", "rand", "rand | band | irreg (spmv_matrix.lua)")
local width = gpuperf.param("width", 16, "ELL width: entries per row, padded")
local block = gpuperf.param("block", 128, "threads per block")
local m = require("spmv_matrix").describe(rows, kind, width)
local ci = gpuperf.buffer("ci", 4 * width * rows)
local v  = gpuperf.buffer("v", 4 * width * rows)
local x  = gpuperf.buffer("x", 4 * rows)
local y  = gpuperf.buffer("y", 4 * rows)
local tex = "texture"
gpuperf.launch{
  name = "ell", grid = math.ceil(rows / block), block = block, regs = 40,
  work = {
    gpuperf.int(3),                                     -- r, r < rows, the base address
    gpuperf.loop{width, var = "k", body = {
      gpuperf.int(2),                                   -- k * rows + r (a pointer step), c >= 0
      gpuperf.load{ci, space = tex, index = function(t) return t.k * rows + t.gx end},
      gpuperf.branch(1),                                -- if (c >= 0)
      gpuperf.load{v, space = tex, index = function(t)
        if m.present(t.k) then return t.k * rows + t.gx end end},
      gpuperf.load{x, space = tex, depends = true, index = function(t)
        if m.present(t.k) then return m.col(t.gx, t.k) end end},
      gpuperf.fp32(1),
    }},
    gpuperf.store{y, index = function(t) return t.gx end},
  },
}
