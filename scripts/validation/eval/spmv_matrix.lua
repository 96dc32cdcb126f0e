-- spmv_matrix.lua: the sparse matrices of the H200 evaluation set
-- (validation/h200/bench/eval_sparse.cuh, kMats, build_csr, mat_col), for spmv_csr.lua
-- and spmv_ell.lua. rows = n = 2^k columns; kind "rand": `per` random columns per row;
-- "band": columns r - per/2 .. r + per/2 - 1, clamped; "irreg": 1 + hash(r) % 63
-- entries per row (uniform over 1..63), random columns.
local M = {}
function M.describe(rows, kind, per)
  local m = { rows = rows, kind = kind }
  if kind == "rand" or kind == "band" then
    m.avg, m.maxlen = per, per
  elseif kind == "irreg" then
    m.avg, m.maxlen = 32, 63                -- the mean of 1..63
  else
    error("kind must be rand, band or irreg, got '" .. kind .. "'")
  end
  m.nnz = math.floor(rows * m.avg)
  -- row r starts near r * avg (rows of equal length: exactly)
  function m.start(r) return math.floor(r * m.avg) end
  -- is entry p of a row present? (the row length is data: uniform 1..63 for "irreg")
  function m.present(p)
    if kind ~= "irreg" then return p < per end
    return p < gpuperf.random(1, 63)
  end
  -- the column of entry p of row r: a gather index read from ci[]
  function m.col(r, p)
    if kind == "band" then return math.max(0, math.min(r - math.floor(per / 2) + p, rows - 1)) end
    return gpuperf.random(0, rows - 1)
  end
  -- a thread walking its own row runs as long as the longest row of its warp: for
  -- "irreg", the expected maximum of 32 lengths uniform over 1..63
  if kind == "irreg" then
    local e = 0
    for j = 0, 62 do e = e + 1 - (j / 63) ^ 32 end
    m.warp_trips = e
  else
    m.warp_trips = per
  end
  return m
end
return M
