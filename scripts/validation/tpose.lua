-- tpose.lua: matrix transposes and copies through a shared 32x32 tile
-- (validation/h200/bench/bench_tpose.cu, family `tpose`), n x n floats, the L2 flushed
-- before the launch; loads const __restrict__ (LDG.E.CONSTANT). From the SASS
-- (validation/h200/measured/run22/tpose/sass_tpose.txt.gz):
--   naive    out[x n + y] = in[y n + x], blocks of 32x8: LDG, STG (a column of 32 lines)
--   t32x8    a 32x32 tile, blocks of 32x8: four LDG 8 rows apart, four STS into
--            tile[ty + 8j][tx], BAR, four LDS of tile[tx][ty + 8j], four STG to the
--            transposed tile; pad = 1: rows of 33 floats, pad = 0: of 32 (the LDS
--            32-way bank conflicts)
--   t32x32   the same tile with blocks of 32x32, one element a thread
--   c32x8    t32x8 without the transpose: the tile read back where it was stored
--   t        bench_tconf's tile transpose (family `tconf`): blocks of 32 x `by` (8, 16, 32)
--            and tile rows of `w` floats (33: conflict-free; 34, 36, 40, 48, 32: 2-, 4-,
--            8-, 16- and 32-way conflicts on the reads tile[tx][ty + j])
local n      = gpuperf.param("n", 4096, "matrix size")
local kernel = gpuperf.param("kernel", "t32x8", "naive | t32x8 | t32x32 | c32x8 | t")
local pad    = gpuperf.param("pad", 1, "t32x8: 1 = tile[32][33], 0 = tile[32][32]")
local by_t   = gpuperf.param("by", 8, "kernel t: block rows, 8, 16 or 32")
local w_t    = gpuperf.param("w", 33, "kernel t: floats a tile row, 32, 33, 34, 36, 40 or 48")
local regs   = gpuperf.param("regs", 22, "registers per thread, as ptxas reports")
assert(n % 32 == 0, "n must be a multiple of 32")
assert(pad == 0 or pad == 1, "pad must be 0 or 1")
-- integer instructions a thread before its loads, between its loads and its shared
-- stores, and after its shared loads, by block rows (SASS: by = 8 and 32 from run22/tpose,
-- by = 16 from run24/tconf: S2R, IMAD, LEA, SHF, IADD3 and the like)
local INT_PRE = { [8] = 14, [16] = 14, [32] = 12 }
local INT_MID = { [8] = 12, [16] = 11, [32] = 11 }
local INT_POST = { [8] = 2, [16] = 4, [32] = 2 }
local src = gpuperf.buffer("in", 4 * n * n)
local dst = gpuperf.buffer("out", 4 * n * n)
local texture = "texture"
local name, grid, block, work, smem

if kernel == "naive" then
  name, grid, block = "naive", { n / 32, n / 8 }, { 32, 8 }
  work = {
    gpuperf.int(10),
    gpuperf.load{src, space = texture, index = function(t) return t.gy * n + t.gx end},
    gpuperf.int(4),
    gpuperf.store{dst, index = function(t) return t.gx * n + t.gy end},
  }
elseif kernel == "t32x8" or kernel == "t32x32" or kernel == "c32x8" or kernel == "t" then
  local by = kernel == "t32x32" and 32 or 8
  local W = 32 + (kernel == "t32x32" and 1 or pad)
  if kernel == "t" then
    if by_t ~= 8 and by_t ~= 16 and by_t ~= 32 then
      error("by must be 8, 16 or 32, got " .. tostring(by_t))
    end
    local ok = { [32] = true, [33] = true, [34] = true, [36] = true, [40] = true, [48] = true }
    if not ok[w_t] then error("w must be 32, 33, 34, 36, 40 or 48, got " .. tostring(w_t)) end
    by, W = by_t, w_t
  end
  local transpose = kernel ~= "c32x8"
  name = kernel == "t32x8" and pad == 0 and "t32x8_nopad" or kernel
  if kernel == "t" then name = "t" .. by .. "_w" .. W end
  grid, block, smem = { n / 32, n / 32 }, { 32, by }, 4 * 32 * W
  work = { gpuperf.int(INT_PRE[by]) }
  for j = 0, 31, by do
    work[#work + 1] = gpuperf.load{src, space = texture, index = function(t)
      return (t.by * 32 + t.y + j) * n + t.bx * 32 + t.x end}
  end
  work[#work + 1] = gpuperf.int(INT_MID[by])
  for j = 0, 31, by do
    work[#work + 1] = gpuperf.shared_store{index = function(t) return (t.y + j) * W + t.x end}
  end
  work[#work + 1] = gpuperf.barrier()
  for j = 0, 31, by do
    work[#work + 1] = gpuperf.shared_load{index = function(t)
      if transpose then return t.x * W + t.y + j end
      return (t.y + j) * W + t.x end}
  end
  work[#work + 1] = gpuperf.int(INT_POST[by])
  for j = 0, 31, by do
    work[#work + 1] = gpuperf.store{dst, index = function(t)
      if transpose then return (t.bx * 32 + t.y + j) * n + t.by * 32 + t.x end
      return (t.by * 32 + t.y + j) * n + t.bx * 32 + t.x end}
  end
else
  error("kernel must be naive, t32x8, t32x32, c32x8 or t, got '" .. tostring(kernel) .. "'")
end

gpuperf.flush_l2()
gpuperf.launch{ name = name, grid = grid, block = block, regs = regs, smem = smem, work = work }
