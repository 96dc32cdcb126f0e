-- spmv_csr.lua: CSR sparse matrix-vector products of the H200 evaluation set
-- (validation/h200/bench/eval_sparse.cuh): k_csr_scalar (a thread per row) and
-- k_csr_vector (a warp per row, lanes stride 32, a __shfl_down_sync sum, lane 0 writes).
-- All inputs are const __restrict__ (ld.global.nc: space "texture").
local rows    = gpuperf.param("rows", 2^20, "rows = columns")
local kind    = gpuperf.param("kind", "rand", "rand | band | irreg (spmv_matrix.lua)")
local per     = gpuperf.param("per", 16, "non-zeros per row (rand, band); 63 = the maximum (irreg)")
local variant = gpuperf.param("variant", "scalar", "scalar | vector")
local m = require("spmv_matrix").describe(rows, kind, per)
local rp = gpuperf.buffer("rp", 4 * (rows + 1))
local ci = gpuperf.buffer("ci", 4 * m.nnz)
local v  = gpuperf.buffer("v", 4 * m.nnz)
local x  = gpuperf.buffer("x", 4 * rows)
local y  = gpuperf.buffer("y", 4 * rows)
local tex = "texture"

if variant == "scalar" then
  local function entry(t)
    if m.present(t.j) then return math.min(m.start(t.gx) + t.j, m.nnz - 1) end
  end
  gpuperf.launch{
    name = "csr_scalar", grid = math.ceil(rows / 256), block = 256, regs = 32,
    work = {
      gpuperf.int(3),                                   -- r, r < rows, the address of rp[r]
      gpuperf.load{rp, space = tex, index = function(t) return t.gx end},
      gpuperf.load{rp, space = tex, index = function(t) return t.gx + 1 end},
      -- for (j = rp[r]; j < rp[r + 1]; ++j) s += v[j] * x[ci[j]]
      gpuperf.loop{m.warp_trips, var = "j", body = {
        gpuperf.int(2),                                 -- the address of x[c]; j's pointer steps
        gpuperf.load{v, space = tex, index = entry},
        gpuperf.load{ci, space = tex, index = entry},
        gpuperf.load{x, space = tex, depends = true, index = function(t)
          if m.present(t.j) then return m.col(t.gx, t.j) end end},
        gpuperf.fp32(1),
      }},
      gpuperf.store{y, index = function(t) return t.gx end},
    },
  }
elseif variant == "vector" then
  -- r = global thread / 32 = blockIdx.x * 8 + warp; j = rp[r] + lane, += 32
  local function row(t) return t.bx * 8 + t.warp end
  local trips = m.kind == "irreg" and (32 * 1 + 31 * 2) / 63 or math.ceil(per / 32)
  local function entry(t)
    local p = t.k * 32 + t.lane
    if p < m.maxlen and m.present(p) then return math.min(m.start(row(t)) + p, m.nnz - 1) end
  end
  gpuperf.launch{
    name = "csr_vector", grid = rows * 32 / 256, block = 256, regs = 32,
    work = {
      gpuperf.int(4),                                   -- r, lane, r < rows, the address of rp[r]
      gpuperf.load{rp, space = tex, index = function(t) return row(t) end},
      gpuperf.load{rp, space = tex, index = function(t) return row(t) + 1 end},
      gpuperf.int(1),                                   -- j = rp[r] + lane
      gpuperf.loop{trips, var = "k", body = {
        gpuperf.int(2),
        gpuperf.load{v, space = tex, index = entry},
        gpuperf.load{ci, space = tex, index = entry},
        gpuperf.load{x, space = tex, depends = true, index = function(t)
          local p = t.k * 32 + t.lane
          if p < m.maxlen and m.present(p) then return m.col(row(t), p) end end},
        gpuperf.fp32(1),
      }},
      -- for (o = 16; o > 0; o >>= 1) s += __shfl_down_sync(~0, s, o)
      gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.fp32(1) }),
      gpuperf.store{y, index = function(t) if t.lane == 0 then return row(t) end end},
    },
  }
else
  error("variant must be scalar or vector, got '" .. variant .. "'")
end
