-- gemm_wmma.lua: the gemm_wmma family of the H200 evaluation set (validation/h200/bench/
-- eval_dense.cuh): C = A B, n x n, fp16 inputs, fp32 accumulation (wmma 16x16x16, two
-- HMMA.16816.F32 each in the SASS), block 128 (4 warps), L2 flushed.
--   variant=simple: k_wmma_simple, warp w of block (bx, by) owns output tile
--     (by*16, (bx*4 + w)*16); per k step of 16 it loads the A and B fragments straight
--     from global (4 LDG.E of 2 halves per lane each: rows l/4 and l/4 + 8, columns
--     2 (l%4) and + 8, the mma.m16n8k16 fragment layout) and does one mma_sync.
--   variant=smem: k_wmma_smem, 64x64 block tile, K step 32 staged in As[64][40] and
--     Bs[32][72] halves (one half per thread per copy, 16 copies each), barrier, two kk
--     steps of 2 ldmatrix x4 for A, 2 (transposed) for B and 4 mma_sync, barrier.
local n       = gpuperf.param("n", 2048, "matrix size")
local variant = gpuperf.param("variant", "simple", "simple | smem")
local A = gpuperf.buffer("A", 2 * n * n)
local B = gpuperf.buffer("B", 2 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)

-- The fragment element (a pair of halves, or of floats for C) of lane l, part p (0..3),
-- in a 16x16 tile at row r0, column c0 (in halves/floats) of a row-major n x n matrix;
-- `pair` elements are 2 values wide.
local function frag(r0, c0, lane, p)
  local r = r0 + math.floor(lane / 4) + 8 * (p % 2)
  local c = c0 + 2 * (lane % 4) + 8 * math.floor(p / 2)
  return (r * n + c) / 2
end

-- Storing a 16x16 float accumulator tile: 4 STG.E.64 per lane.
local function store_tile(row0, col0)
  local w = {}
  for p = 0, 3 do
    w[#w + 1] = gpuperf.store{C, bytes = 8, index = function(t)
      return frag(row0(t), col0(t), t.lane, p) end}
  end
  return w
end

if variant == "simple" then
  local function tr(t) return t.by * 16 end
  local function tc(t) return (t.bx * 4 + t.warp) * 16 end
  local body = {}
  for p = 0, 3 do
    body[#body + 1] = gpuperf.load{A, index = function(t)
      return frag(tr(t), 16 * t.k, t.lane, p) end}
  end
  for p = 0, 3 do
    body[#body + 1] = gpuperf.load{B, index = function(t)
      return frag(16 * t.k, tc(t), t.lane, p) end}
  end
  body[#body + 1] = gpuperf.int(2)                   -- advance the A and B pointers
  body[#body + 1] = gpuperf.tensor{flops = 2 * 16 * 16 * 16 / 32, type = "fp16"}
  gpuperf.launch{
    name = "wmma_simple_warp_tile", grid = {n / 64, n / 16}, block = 128, regs = 32,
    work = {
      gpuperf.int(6),                                -- warp, tr, tc, the test, base addresses
      gpuperf.loop{n / 16, var = "k", body = body},
      store_tile(tr, tc),
    },
  }
elseif variant == "smem" then
  local function wy(t) return math.floor(t.warp / 2) end
  local function wx(t) return t.warp % 2 end
  local AS = 64 * 40                                 -- halves of As; Bs follows
  local inner = {}
  for kk = 0, 16, 16 do
    for i = 0, 1 do                                  -- ldmatrix x4: lane l gives row l % 16
      inner[#inner + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return ((wy(t) * 32 + i * 16 + t.lane % 16) * 40 + kk
                + 8 * math.floor(t.lane / 16)) / 8 end}
    end
    for j = 0, 1 do
      inner[#inner + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return (AS + (kk + t.lane % 16) * 72 + wx(t) * 32 + j * 16
                + 8 * math.floor(t.lane / 16)) / 8 end}
    end
    inner[#inner + 1] = gpuperf.tensor{flops = 4 * 2 * 16 * 16 * 16 / 32, type = "fp16", ilp = 4}
  end
  local stores = {}
  for i = 0, 1 do
    for j = 0, 1 do
      stores[#stores + 1] = store_tile(
        function(t) return t.by * 64 + wy(t) * 32 + i * 16 end,
        function(t) return t.bx * 64 + wx(t) * 32 + j * 16 end)
    end
  end
  gpuperf.launch{
    name = "wmma_smem_64x64", grid = {n / 64, n / 64}, block = 128, regs = 80, smem = 9728,
    work = {
      gpuperf.int(6),
      gpuperf.loop{n / 32, var = "s", body = {
        gpuperf.loop{16, var = "a", body = {           -- i = tid + 128 a: r = i / 32, cc = i % 32
          gpuperf.load{A, bytes = 2, space = "texture", index = function(t)
            local i = t.x + 128 * t.a
            return (t.by * 64 + math.floor(i / 32)) * n + t.s * 32 + i % 32 end},
          gpuperf.int(3),
          gpuperf.shared_store{bytes = 2, index = function(t)
            local i = t.x + 128 * t.a
            return math.floor(i / 32) * 40 + i % 32 end},
        }},
        gpuperf.loop{16, var = "b", body = {           -- r = i / 64, cc = i % 64
          gpuperf.load{B, bytes = 2, space = "texture", index = function(t)
            local i = t.x + 128 * t.b
            return (t.s * 32 + math.floor(i / 64)) * n + t.bx * 64 + i % 64 end},
          gpuperf.int(3),
          gpuperf.shared_store{bytes = 2, index = function(t)
            local i = t.x + 128 * t.b
            return AS + math.floor(i / 64) * 72 + i % 64 end},
        }},
        gpuperf.barrier(),
        inner,
        gpuperf.barrier(),
      }},
      stores,
    },
  }
else
  error("variant must be simple or smem, got " .. tostring(variant))
end
