-- transpose.lua: n x n float transpose (validation/h200/bench/bench_own.cu):
-- 32 x 32 tiles, blocks of 32 x 8 threads, each thread moves 4 elements.
--   naive            read in[y][x] (coalesced), write out[x][y] (a column: every
--                    lane writes another row)
--   tiled_conflicts  through __shared__ float tile[32][32]: the column read of the
--                    tile is a 32-way bank conflict
--   tiled_padded     tile[32][33]: no conflict
local kind = gpuperf.param("kind", "naive", "naive | tiled_conflicts | tiled_padded")
local n    = gpuperf.param("n", 4096, "matrix size, a multiple of 32")
local src = gpuperf.buffer("in", 4 * n * n)
local dst = gpuperf.buffer("out", 4 * n * n)
local work
if kind == "naive" then
  work = {
    gpuperf.int(12),
    gpuperf.load{src, count = 4, ilp = 4},
    gpuperf.store{dst, pattern = "stride", stride = n, count = 4},
  }
else
  local pad = kind == "tiled_padded" and 33 or 32
  assert(kind == "tiled_padded" or kind == "tiled_conflicts", "unknown kind " .. kind)
  work = {
    gpuperf.int(14),
    gpuperf.load{src, count = 4, ilp = 4},
    gpuperf.shared_store{count = 4},                      -- tile[ty + j][tx]
    gpuperf.barrier(),
    gpuperf.shared_load{stride = pad, count = 4, ilp = 4},  -- tile[tx][ty + j]
    gpuperf.store{dst, count = 4},
  }
end
gpuperf.launch{
  name = kind, grid = {n / 32, n / 32}, block = {32, 8},
  regs = kind == "naive" and 18 or 22, smem = kind == "naive" and 0 or 4 * 32 * (kind == "tiled_padded" and 33 or 32),
  work = work,
}
