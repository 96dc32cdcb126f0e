-- gather.lua: the gather family of the H200 evaluation set (validation/h200/bench/
-- eval_sparse.cuh, fam_gather), block 256, L2 flushed. The input table is a 1 GiB
-- buffer (2^28 floats); loads from const __restrict__ pointers are LDG.E.CONSTANT
-- (space = "texture").
--   variant=embedding_rows: k_gather_rows, thread t copies float4 t % 16 of output row
--     t / 16 from table row idx[t / 16]; tab_rows rows of 256 bytes, rows output rows.
--   variant=scalar: k_gather1, out[i] = in[idx[i]], n = 2^22; mode=local: idx[i] in
--     i's 1024-element window; mode=random: idx[i] uniform below `range`.
--   variant=scatter: k_scatter_perm, out[(1664525 i + 1013904223) mod 2^28] = in[i].
local variant  = gpuperf.param("variant", "scalar", "embedding_rows | scalar | scatter")
local tab_rows = gpuperf.param("tab_rows", 2^16, "embedding_rows: table rows of 64 floats")
local rows     = gpuperf.param("rows", 2^14, "embedding_rows: rows gathered")
local n        = gpuperf.param("n", 2^22, "scalar, scatter: elements")
local mode     = gpuperf.param("mode", "random", "scalar: local | random")
local range    = gpuperf.param("range", 2^24, "scalar random: indices below this")

if variant == "embedding_rows" then
  local tab = gpuperf.buffer("table", 256 * tab_rows)
  local idx = gpuperf.buffer("idx", 4 * rows)
  local out = gpuperf.buffer("out", 256 * rows)
  -- idx[r] is a hash of r below tab_rows; the 16 threads of row r read the same
  -- table row, so the script hashes r itself (Knuth's multiplicative hash) instead of
  -- drawing a value per thread.
  local function trow(r) return (r * 2654435761) % tab_rows end
  gpuperf.launch{
    name = variant, grid = math.ceil(rows * 16 / 256), block = 256, regs = 18,
    work = {
      gpuperf.int(4),                                  -- t (64-bit), the bounds test, t / 16, t % 16
      gpuperf.load{idx, space = "texture", index = function(t) return math.floor(t.gx / 16) end},
      gpuperf.int(3),                                  -- idx * 16 + t % 16, the address
      gpuperf.load{tab, bytes = 16, space = "texture", depends = true, index = function(t)
        return trow(math.floor(t.gx / 16)) * 16 + t.gx % 16 end},
      gpuperf.store{out, bytes = 16, index = function(t) return t.gx end},
    },
  }
elseif variant == "scalar" then
  local inp = gpuperf.buffer("in", 4 * 2^28)
  local idx = gpuperf.buffer("idx", 4 * n)
  local out = gpuperf.buffer("out", 4 * n)
  local pick
  if mode == "local" then
    pick = function(t) return math.floor(t.gx / 1024) * 1024 + gpuperf.random(0, 1023) end
  elseif mode == "random" then
    pick = function(t) return gpuperf.random(0, range - 1) end
  else
    error("mode must be local or random, got " .. tostring(mode))
  end
  gpuperf.launch{
    name = variant .. "_" .. mode, grid = math.ceil(n / 256), block = 256, regs = 10,
    work = {
      gpuperf.int(3),                                  -- i (64-bit), the bounds test
      gpuperf.load{idx, space = "texture", index = function(t) return t.gx end},
      gpuperf.int(2),                                  -- &in[idx[i]]
      gpuperf.load{inp, space = "texture", depends = true, index = pick},
      gpuperf.store{out, index = function(t) return t.gx end},
    },
  }
elseif variant == "scatter" then
  local inp = gpuperf.buffer("in", 4 * n)
  local out = gpuperf.buffer("out", 4 * 2^28)
  gpuperf.launch{
    name = variant, grid = math.ceil(n / 256), block = 256, regs = 8,
    work = {
      gpuperf.int(3),                                  -- i (64-bit), the bounds test
      gpuperf.load{inp, space = "texture", index = function(t) return t.gx end},
      gpuperf.int(3),                                  -- IMAD, the mask, the address
      gpuperf.store{out, index = function(t) return (1664525 * t.gx + 1013904223) % 2^28 end},
    },
  }
else
  error("variant must be embedding_rows, scalar or scatter, got " .. tostring(variant))
end
