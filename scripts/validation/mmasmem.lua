-- mmasmem.lua: shared-memory-staged WMMA GEMMs by phase
-- (validation/h200/bench/bench_mmasmem.cu, family `mmasmem`).
--   kind=cp   a WMMA tile loop, C_b = A_b B_b, fp16 in, fp32 accumulate, 128 threads
--             (4 warps in 2x2), a 64x64 block tile, each warp a 32x32 sub-tile (2x2
--             m16n16k16 fragments); per trip the A (64 x BK) and B (BK x 64) tiles of
--             block b's own panels copied into shared memory (rows padded by 8 halves),
--             __syncthreads, BK/16 k steps, __syncthreads. L2 flushed before the launch.
--               w: bytes a thread copies at a time (2: a half, 4: half2, 8, 16: uint4),
--                  64 BK 2 / (128 w) copies per thread and matrix
--               form lp: `for (i = tid; i < 64*BK/e; i += 128)` copy loops (a count
--                  nvcc does not know: unrolled 4 times); ur: the copies unrolled
--               comp mma: per 16 k 2 A and 2 B load_matrix_sync (ldmatrix.x4: 16 bytes
--                  per lane) and 4 mma_sync; none: one shared half of each tile read
--   kind=sq   a whole C = A B of n x n, the cp kernel (BK = 32, comp mma) on a grid of
--             (n/64, n/64): the blocks of a row share A's panel, of a column B's.
--   kind=mc   the WMMA compute alone on tiles already in shared memory (As[64][40],
--             Bs[32][72]): per trip the two 16-k steps of cp, with a __syncthreads per
--             trip (bar=1) or not (bar=0); `warps` warps a block, each a 32x32 sub-tile.
local kind   = gpuperf.param("kind", "cp", "cp | sq | mc")
local regs   = gpuperf.param("regs", 72, "registers per thread, as ptxas reports")
local ro     = require("lib_stamp")()  -- the global loads' space: stamp=1 "global", else "texture"
local w      = gpuperf.param("w", 2, "cp, sq: bytes per copy (2, 4, 8, 16)")
local bk     = gpuperf.param("bk", 32, "cp: k per trip (16 or 32)")
local form   = gpuperf.param("form", "lp", "cp, sq: lp | ur")
local comp   = gpuperf.param("comp", "mma", "cp: mma | none")
local blocks = gpuperf.param("blocks", 132, "cp, mc: blocks of the grid")
local kdim   = gpuperf.param("k", 512, "cp: K")
local n      = gpuperf.param("n", 1024, "sq: matrix size")
local warps  = gpuperf.param("warps", 4, "mc: warps per block")
local bar    = gpuperf.param("bar", 1, "mc: 1 = a barrier per trip")
local trips  = gpuperf.param("trips", 256, "mc: trips")

local floor = math.floor
local T = 128

-- Per 16 k: 2 A and 2 B ldmatrix.x4 (lane l gives row l % 16, columns 8 (l // 16)..+7
-- of a 16x16 tile) and 4 mma_sync (each two independent HMMA.16816).
local function mma_steps(add, ap, boff, nk, wy, wx)
  for kk = 0, nk - 16, 16 do
    add(gpuperf.int(4))
    for i = 0, 1 do
      add(gpuperf.shared_load{bytes = 16, index = function(t)
        return ((wy(t) * 32 + i * 16 + t.lane % 16) * ap + kk + 8 * floor(t.lane / 16)) / 8 end})
    end
    for j = 0, 1 do
      add(gpuperf.shared_load{bytes = 16, index = function(t)
        return (boff + (kk + t.lane % 16) * 72 + wx(t) * 32 + j * 16 +
                8 * floor(t.lane / 16)) / 8 end})
    end
    add(gpuperf.tensor{flops = 4 * 2 * 16 * 16 * 16 / 32, type = "fp16", ilp = 8})
  end
end

if kind == "cp" or kind == "sq" then
  assert(w == 2 or w == 4 or w == 8 or w == 16, "w must be 2, 4, 8 or 16")
  if kind == "sq" then bk, comp = 32, "mma" end
  assert(bk == 16 or bk == 32, "bk must be 16 or 32")
  local e = w / 2                                        -- halves per copy
  local NC = 64 * bk / e / T                             -- copies per thread and matrix
  local AP, BP = bk + 8, 72
  local grid, K, lda, ldb, rows
  if kind == "sq" then
    grid, K, lda, ldb, rows = { n / 64, n / 64 }, n, n, n, n
  else
    grid, K, lda, ldb, rows = blocks, kdim, kdim, blocks * 64, blocks * 64
  end
  local A = gpuperf.buffer("A", 2 * rows * K)
  local B = gpuperf.buffer("B", 2 * K * ldb)
  local C = gpuperf.buffer("C", comp == "mma" and 4 * rows * ldb or 4 * blocks * T)
  local function row0(t) return (kind == "sq" and t.by or t.bx) * 64 end
  -- copy j of a thread: element i = tid + 128 j of the tile, in w-byte units
  local function a_ld(j) return function(t)
    local i = t.x + T * j(t)
    return ((row0(t) + floor(i / (bk / e))) * lda + bk * t.kt + e * (i % (bk / e))) / e end end
  local function a_st(j) return function(t)
    local i = t.x + T * j(t)
    return (floor(i / (bk / e)) * AP + e * (i % (bk / e))) / e end end
  local function b_ld(j) return function(t)
    local i = t.x + T * j(t)
    return ((bk * t.kt + floor(i / (64 / e))) * ldb + t.bx * 64 + e * (i % (64 / e))) / e end end
  local function b_st(j) return function(t)
    local i = t.x + T * j(t)
    return (64 * AP + floor(i / (64 / e)) * BP + e * (i % (64 / e))) / e end end
  local trip = {}
  local function add(op) trip[#trip + 1] = op end
  if form == "lp" then
    local function ja(t) return t.i end
    local function jb(t) return t.j end
    -- The loads of the A and B copy loops' 4 copies ptxas keeps ahead of their shared
    -- stores (k_cp<w, bk, 0, comp, 0>, the SASS named for `ur` below).
    local lpw = {
      none = { [16] = { [16] = { 2, 2 }, [32] = { 2, 2 } }, [8] = { [16] = { 3, 3 }, [32] = { 3, 3 } },
               [4] = { [16] = { 4, 4 }, [32] = { 4, 4 } }, [2] = { [16] = { 4, 4 }, [32] = { 4, 4 } } },
      mma  = { [16] = { [16] = { 2, 2 }, [32] = { 3, 2 } }, [8] = { [16] = { 2, 3 }, [32] = { 3, 3 } },
               [4] = { [16] = { 4, 4 }, [32] = { 4, 4 } }, [2] = { [16] = { 2, 3 }, [32] = { 4, 4 } } },
    }
    local lw = ro == "texture" and lpw[comp][w][bk] or {}
    add(gpuperf.loop{NC, var = "i", unroll = 4, body = {
      gpuperf.int(4),
      gpuperf.load{A, space = ro, bytes = w, in_flight = lw[1], index = a_ld(ja)},
      gpuperf.shared_store{bytes = w, index = a_st(ja)},
    }})
    add(gpuperf.loop{NC, var = "j", unroll = 4, body = {
      gpuperf.int(3),
      gpuperf.load{B, space = ro, bytes = w, in_flight = lw[2], index = b_ld(jb)},
      gpuperf.shared_store{bytes = w, index = b_st(jb)},
    }})
  elseif form == "ur" then
    -- The loads ptxas keeps in flight ahead of their shared stores in the k_cp<w, bk,
    -- 1, comp, 0> loop (the kernels without stamps: validation/h100/measured/benches/
    -- mmasmem_nostamp/sass_mmasmem.txt.gz, whose opcodes run68's H200 binary shares,
    -- read by validation/h200/bench/check_window.sh): not what the registers hold, and
    -- not the same with and without the mma beside the copies.
    local windows = {
      none = { [16] = { [16] = 8, [32] = 5 }, [8] = { [16] = 6, [32] = 4 },
               [4] = { [16] = 5, [32] = 11 }, [2] = { [16] = 10, [32] = 11 } },
      mma  = { [16] = { [16] = 6, [32] = 4 }, [8] = { [16] = 3, [32] = 8 },
               [4] = { [16] = 8, [32] = 16 }, [2] = { [16] = 15, [32] = 32 } },
    }
    local window = nil
    if ro == "texture" then window = windows[comp][w][bk] end  -- sq runs k_cp too
    add(gpuperf.int(2 * NC))
    for j = 0, NC - 1 do
      local function jj() return j end
      add(gpuperf.load{A, space = ro, bytes = w, in_flight = window, index = a_ld(jj)})
      add(gpuperf.shared_store{bytes = w, index = a_st(jj)})
    end
    for j = 0, NC - 1 do
      local function jj() return j end
      add(gpuperf.load{B, space = ro, bytes = w, in_flight = window, index = b_ld(jj)})
      add(gpuperf.shared_store{bytes = w, index = b_st(jj)})
    end
  else
    error("form must be lp or ur, got '" .. tostring(form) .. "'")
  end
  add(gpuperf.barrier())
  if comp == "mma" then
    mma_steps(add, AP, 64 * AP, bk,
              function(t) return floor(t.warp / 2) end, function(t) return t.warp % 2 end)
  elseif comp == "none" then
    add(gpuperf.int(1))
    add(gpuperf.shared_load{bytes = 2, index = function(t) return (t.x % 64) * AP end})
    add(gpuperf.shared_load{bytes = 2, index = function(t) return 64 * AP + t.x % 64 end})
    add(gpuperf.conv(2))
    add(gpuperf.fp32(2))
  else
    error("comp must be mma or none, got '" .. tostring(comp) .. "'")
  end
  add(gpuperf.barrier())
  local work = { gpuperf.int(12), gpuperf.loop{K / bk, var = "kt", body = trip} }
  if comp == "mma" then
    -- store_matrix_sync of the 4 fp32 fragments: 4 STG.E.64 per lane each
    for i = 0, 1 do
      for j = 0, 1 do
        for p = 0, 3 do
          work[#work + 1] = gpuperf.store{C, bytes = 8, index = function(t)
            local r = row0(t) + floor(t.warp / 2) * 32 + i * 16 + floor(t.lane / 4) + 8 * (p % 2)
            local c = t.bx * 64 + (t.warp % 2) * 32 + j * 16 + 2 * (t.lane % 4) + 8 * floor(p / 2)
            return (r * ldb + c) / 2 end}
        end
      end
    end
  else
    work[#work + 1] = gpuperf.store{C, index = function(t) return t.bx * T + t.x end}
  end
  gpuperf.flush_l2()
  gpuperf.launch{
    name = kind == "sq" and ("sq_w" .. w .. "_" .. form .. "_mma")
      or ("cp" .. bk .. "_w" .. w .. "_" .. form .. "_" .. comp),
    grid = grid, block = T, regs = regs, smem = 2 * (64 * AP + bk * BP), work = work,
  }
elseif kind == "mc" then
  assert(warps == 1 or warps == 2 or warps == 4, "warps must be 1, 2 or 4")
  local C = gpuperf.buffer("C", 4 * blocks * warps * 1024)
  local trip = {}
  local function add(op) trip[#trip + 1] = op end
  mma_steps(add, 40, 64 * 40, 32,
            function(t) return floor(t.warp / 2) % 2 end, function(t) return t.warp % 2 end)
  if bar == 1 then add(gpuperf.barrier()) end
  local work = { gpuperf.int(12),
                 gpuperf.loop(64 * 32 / (32 * warps), { gpuperf.int(8), gpuperf.conv(2),
                                                       gpuperf.shared_store{bytes = 2, count = 2} }),
                 gpuperf.barrier(),
                 gpuperf.loop{trips, var = "t", body = trip} }
  for p = 0, 15 do
    work[#work + 1] = gpuperf.store{C, bytes = 8, index = function(t)
      return ((t.bx * warps + t.warp) * 1024 + p * 64 + 2 * t.lane) / 2 end}
  end
  gpuperf.launch{
    name = "mc_w" .. warps .. "_bar" .. bar, grid = blocks, block = 32 * warps, regs = regs,
    smem = 2 * (64 * 40 + 32 * 72), work = work,
  }
else
  error("kind must be cp, sq or mc, got '" .. tostring(kind) .. "'")
end
