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

-- loads of a thread's window of `buf`: rows r0 .. r1, columns -1 .. 1
-- (`count` times each: more than 1 where some threads load extra columns)
local function window(buf, part, r0, r1, count)
  local ops = {}
  for dy = r0, r1 do
    for dx = -1, 1 do
      ops[#ops + 1] = gpuperf.load{buf, offset = dy * n + dx, footprint = part, count = count}
    end
  end
  return ops
end

local index = gpuperf.int(12)        -- 2-D index, bounds checks

-- a kernel over `rows` rows of the image (all of it, or one half)
local function stencil(name, rows, stream, src, dst, math)
  local part = 4 * n * rows
  gpuperf.launch{
    name = name, grid = {n / 16, rows / (16 * k)}, block = {16, 16}, regs = regs,
    stream = stream, global_cache = cache,
    work = { index, window(src, part, -1, k, 1), math, gpuperf.store{dst, count = k, footprint = part} },
  }
end

local blur_math = gpuperf.fp32{9 * k, ilp = 3}            -- 9 weighted taps per pixel
local edge_math = { gpuperf.fp32{15 * k, ilp = 2},       -- gx, gy and their squares
                    gpuperf.sfu(k) }                      -- the square root

if mode == "serial" then
  stencil("blur", n, gpuperf.default_stream, img, tmp, blur_math)
  stencil("edge", n, gpuperf.default_stream, tmp, out, edge_math)
elseif mode == "streams" then
  local top, bottom = gpuperf.stream("top"), gpuperf.stream("bottom")
  stencil("blur_top", n / 2, top, img, tmp, blur_math)
  stencil("blur_bottom", n / 2, bottom, img, tmp, blur_math)
  stencil("edge_top", n / 2, top, tmp, out, edge_math)
  stencil("edge_bottom", n / 2, bottom, tmp, out, edge_math)
elseif mode == "fused" then
  -- one kernel: each thread blurs the k + 2 pixels of its column that Sobel
  -- needs (two of the 16 columns also blur the tile's side halo: 18 columns
  -- for 16 threads) from a 5-row-taller window of the image, leaves them in
  -- shared memory for its neighbours, and computes its k edges from its own
  -- column (registers) and the two beside it (shared memory)
  local halo = 18 / 16
  gpuperf.launch{
    name = "blur_edge", grid = {n / 16, n / (16 * k)}, block = {16, 16}, regs = regs,
    global_cache = cache, smem = 4 * 18 * (16 * k + 2),
    work = {
      index,
      window(img, bytes, -2, k + 1, halo),
      gpuperf.fp32{9 * (k + 2) * halo, ilp = 3},                -- the blur
      gpuperf.store{space = "shared", count = (k + 2) * halo},
      gpuperf.barrier(),
      gpuperf.load{space = "shared", count = 2 * (k + 2), ilp = 8}, -- neighbour columns
      edge_math,
      gpuperf.store{out, count = k},
    },
  }
else
  error("mode must be serial, streams or fused, not " .. tostring(mode))
end
