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
-- x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
-- for (j = 0; j < 32; j += 8): four trips, loop counter `j` (0..3) is j / 8
local function rows(body) return gpuperf.loop{4, var = "j", body = body} end
local work
if kind == "naive" then
  work = {
    gpuperf.int(12),
    rows{
      gpuperf.load{src, index = function(t)                 -- in[(y + j) * n + x]
        return (t.by * 32 + t.y + 8 * t.j) * n + t.bx * 32 + t.x end},
      gpuperf.store{dst, index = function(t)                -- out[x * n + (y + j)]
        return (t.bx * 32 + t.x) * n + t.by * 32 + t.y + 8 * t.j end},
    },
  }
else
  local pad = kind == "tiled_padded" and 33 or 32
  assert(kind == "tiled_padded" or kind == "tiled_conflicts", "unknown kind " .. kind)
  work = {
    gpuperf.int(14),
    rows{
      gpuperf.load{src, index = function(t)                 -- in[(y + j) * n + x]
        return (t.by * 32 + t.y + 8 * t.j) * n + t.bx * 32 + t.x end},
      gpuperf.shared_store{index = function(t)              -- tile[ty + j][tx]
        return (t.y + 8 * t.j) * pad + t.x end},
    },
    gpuperf.barrier(),
    -- x = blockIdx.y * 32 + threadIdx.x, y = blockIdx.x * 32 + threadIdx.y
    rows{
      gpuperf.shared_load{index = function(t)               -- tile[tx][ty + j]
        return t.x * pad + t.y + 8 * t.j end},
      gpuperf.store{dst, index = function(t)                -- out[(y + j) * n + x]
        return (t.bx * 32 + t.y + 8 * t.j) * n + t.by * 32 + t.x end},
    },
  }
end
gpuperf.launch{
  name = kind, grid = {n / 32, n / 32}, block = {32, 8},
  regs = kind == "naive" and 18 or 22, smem = kind == "naive" and 0 or 4 * 32 * (kind == "tiled_padded" and 33 or 32),
  work = work,
}
