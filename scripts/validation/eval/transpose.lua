-- transpose.lua: the n x n float transposes of the H200 evaluation set
-- (validation/h200/bench/eval_grid.cuh): k_tr_naive32 (32x32 blocks, one element per
-- thread, strided writes), k_tr_smem32<PAD> (a 32 x (32 + PAD) shared tile, PAD 0 or 1)
-- and k_tr_diag (diagonal block order, padded tile, 32x8 threads, 4 elements each).
-- `in` is const __restrict__ (ld.global.nc: space "texture").
local n    = gpuperf.param("n", 4096, "matrix side")
local kind = gpuperf.param("kind", "naive", "naive | smem | smem_pad | diagonal")
local inp = gpuperf.buffer("in", 4 * n * n)
local out = gpuperf.buffer("out", 4 * n * n)
local gx = n / 32

if kind == "naive" then
  gpuperf.launch{
    name = "tr_naive32", grid = {gx, gx}, block = {32, 32}, regs = 12,
    work = {
      gpuperf.int(6),    -- x, y, the two 64-bit addresses
      gpuperf.load{inp, space = "texture", index = function(t) return t.gy * n + t.gx end},
      gpuperf.store{out, index = function(t) return t.gx * n + t.gy end},
    },
  }
elseif kind == "smem" or kind == "smem_pad" then
  local W = kind == "smem" and 32 or 33
  gpuperf.launch{
    name = "tr_" .. kind .. "32", grid = {gx, gx}, block = {32, 32}, regs = 16, smem = 32 * W * 4,
    work = {
      gpuperf.int(5),    -- x, y, the address of in, the tile offset
      gpuperf.load{inp, space = "texture", index = function(t) return t.gy * n + t.gx end},
      gpuperf.shared_store{index = function(t) return t.y * W + t.x end},
      gpuperf.barrier(),
      gpuperf.int(5),    -- x, y again, the address of out, the tile offset
      gpuperf.shared_load{index = function(t) return t.x * W + t.y end},
      gpuperf.store{out, index = function(t) return (t.bx * 32 + t.y) * n + t.by * 32 + t.x end},
    },
  }
elseif kind == "diagonal" then
  -- by = blockIdx.x, bx = (blockIdx.x + blockIdx.y) % gridDim.x: gridDim.x is a run-time
  -- value, so the % is an integer remainder (rem.u32 in the PTX)
  local function dbx(t) return (t.bx + t.by) % gx end
  gpuperf.launch{
    name = "tr_diag", grid = {gx, gx}, block = {32, 8}, regs = 20, smem = 32 * 33 * 4,
    work = {
      gpuperf.int(1), gpuperf.imod(1),          -- blockIdx.x + blockIdx.y, % gridDim.x
      gpuperf.int(4),                           -- x, y, the base address
      gpuperf.loop{4, var = "j", body = {       -- for (j = 0; j < 32; j += 8), unrolled
        gpuperf.int(1),                         -- the row step of the address
        gpuperf.load{inp, space = "texture", index = function(t)
          return (t.bx * 32 + t.y + 8 * t.j) * n + dbx(t) * 32 + t.x end},
        gpuperf.shared_store{index = function(t) return (t.y + 8 * t.j) * 33 + t.x end},
      }},
      gpuperf.barrier(),
      gpuperf.int(4),
      gpuperf.loop{4, var = "j", body = {
        gpuperf.int(1),
        gpuperf.shared_load{index = function(t) return t.x * 33 + t.y + 8 * t.j end},
        gpuperf.store{out, index = function(t)
          return (dbx(t) * 32 + t.y + 8 * t.j) * n + t.bx * 32 + t.x end},
      }},
    },
  }
else
  error("kind must be naive, smem, smem_pad or diagonal, got '" .. kind .. "'")
end
