-- blur_edge.lua: the design seed's second case study. A 3x3 Gaussian blur
-- and a Sobel edge detector over one n x n image of floats (8192 x 8192 =
-- 256 MiB: larger than any L2). Blocks of 16 x 16 threads with 64 registers
-- per thread (4 blocks per SM on seed-20sm: 64 x 256 x 4 = 65536 registers);
-- each thread computes a column of `k` pixels, keeping the rows of its 3-wide
-- window in registers as it walks down, so it loads 3 x (k + 2) pixels.
-- Neighbours are read from global memory and the caches serve the re-reads
-- (each row is read again by the threads beside, above and below).
--   mode=serial   blur then edge, one stream: edge reads blur's output back
--   mode=streams  the image split into top and bottom halves, each blurred
--                 and edge-detected in its own stream, the halves at once:
--                 their buffers compete for L2 and their traffic for DRAM
--   mode=fused    one kernel does both: each thread blurs the pixels its
--                 edges need in registers and shares them with its
--                 neighbours through shared memory; the image is read once
--                 and no intermediate image is written or read back
local mode = gpuperf.param("mode", "serial", "serial | streams | fused")
local n    = gpuperf.param("n", 8192, "image side, pixels")
local k    = gpuperf.param("k", 8, "pixels per thread, down a column")
local regs = gpuperf.param("regs", 64, "registers per thread")
local cache = gpuperf.param("cache", "default", "global loads: default | ca | cg (L2 only)")
assert(n % (16 * k) == 0, "n must be a multiple of 16 * k")

local bytes = 4 * n * n
local img = gpuperf.buffer("img", bytes)   -- the input image
local tmp = gpuperf.buffer("tmp", bytes)   -- the blurred image
local out = gpuperf.buffer("out", bytes)   -- the edges

-- thread (x, y) of block (bx, by) computes the pixels (row0 + gy * k + j, gx),
-- j = 0 .. k - 1: a warp is two 16-thread rows of the block, k image rows
-- apart. The pixel at row offset `dy` and column offset `dx` from its column's
-- first, `j` rows further down (nil outside the image: the bounds check)
local function pixel(row0, dy, dx)
  return function(t)
    local r, c = row0 + t.gy * k + (t.j or 0) + dy, t.gx + dx
    if r < 0 or r >= n or c < 0 or c >= n then return nil end
    return r * n + c
  end
end

-- the three loads of row `dy` of a thread's window of `buf`
local function row(buf, row0, dy)
  return { gpuperf.load{buf, index = pixel(row0, dy, -1)},
           gpuperf.load{buf, index = pixel(row0, dy, 0)},
           gpuperf.load{buf, index = pixel(row0, dy, 1)} }
end

local index = gpuperf.int(12)        -- 2-D index, bounds checks

-- a kernel over `rows` rows of the image from row `row0` (all of it, or one
-- half): rows -1 and 0 of the window are loaded first, then each step j of
-- the walk down loads row j + 1, computes pixel j and stores it
local function stencil(name, row0, rows, stream, src, dst, math)
  gpuperf.launch{
    name = name, grid = {n / 16, rows / (16 * k)}, block = {16, 16}, regs = regs,
    stream = stream, global_cache = cache,
    work = { index, row(src, row0, -1), row(src, row0, 0),
             gpuperf.loop{k, var = "j", body = {
               row(src, row0, 1), math, gpuperf.store{dst, index = pixel(row0, 0, 0)} }} },
  }
end

local blur_math = gpuperf.fp32{9, ilp = 3}                -- 9 weighted taps per pixel
local edge_math = { gpuperf.fp32{15, ilp = 2},           -- gx, gy and their squares
                    gpuperf.sfu(1) }                      -- the square root

if mode == "serial" then
  stencil("blur", 0, n, gpuperf.default_stream, img, tmp, blur_math)
  stencil("edge", 0, n, gpuperf.default_stream, tmp, out, edge_math)
elseif mode == "streams" then
  local top, bottom = gpuperf.stream("top"), gpuperf.stream("bottom")
  stencil("blur_top", 0, n / 2, top, img, tmp, blur_math)
  stencil("blur_bottom", n / 2, n / 2, bottom, img, tmp, blur_math)
  stencil("edge_top", 0, n / 2, top, tmp, out, edge_math)
  stencil("edge_bottom", n / 2, n / 2, bottom, tmp, out, edge_math)
elseif mode == "fused" then
  -- one kernel: each thread blurs the k + 2 pixels of its column that Sobel
  -- needs (rows -1 .. k of its column, from image rows -2 .. k + 1), leaves
  -- them in a shared tile of 16 * k + 2 rows by 18 columns for its
  -- neighbours, and computes its k edges from its own column (registers) and
  -- the two beside it (shared memory). The threads of columns 0 and 15 also
  -- blur the tile's side halo (columns -1 and 16): one more image column each
  local W = 18                                    -- tile row, words
  local function tile(dy, col)                    -- tile (y * k + j + dy, col(x))
    return function(t)
      local c = col(t.x)
      return c and (t.y * k + (t.j or 0) + dy) * W + c
    end
  end
  local own = function(x) return x + 1 end
  local left = function(x) return x end
  local right = function(x) return x + 2 end
  local side = function(x) return x == 0 and 0 or x == 15 and 17 or nil end
  local function halo(dy)                         -- the side halo's extra image column
    return function(t)
      local d = t.x == 0 and -2 or t.x == 15 and 2 or nil
      return d and pixel(0, dy, d)(t)
    end
  end
  local function img_row(dy)
    local ops = row(img, 0, dy)
    ops[4] = gpuperf.load{img, index = halo(dy)}
    return ops
  end
  gpuperf.launch{
    name = "blur_edge", grid = {n / 16, n / (16 * k)}, block = {16, 16}, regs = regs,
    global_cache = cache, smem = 4 * W * (16 * k + 2),
    work = {
      index, img_row(-2), img_row(-1),
      gpuperf.loop{k + 2, var = "j", body = {            -- blurred row j - 1
        img_row(0), blur_math,
        gpuperf.store{space = "shared", index = tile(0, own)},
        gpuperf.branch(2), blur_math,                    -- if (x == 0 || x == 15): the halo
        gpuperf.store{space = "shared", index = tile(0, side)} }},
      gpuperf.barrier(),
      gpuperf.load{space = "shared", index = tile(0, left)},
      gpuperf.load{space = "shared", index = tile(0, right)},
      gpuperf.load{space = "shared", index = tile(1, left)},
      gpuperf.load{space = "shared", index = tile(1, right)},
      gpuperf.loop{k, var = "j", body = {                -- edge pixel j
        gpuperf.load{space = "shared", index = tile(2, left)},
        gpuperf.load{space = "shared", index = tile(2, right)},
        edge_math,
        gpuperf.store{out, index = pixel(0, 0, 0)} }},
    },
  }
else
  error("mode must be serial, streams or fused, not " .. tostring(mode))
end
