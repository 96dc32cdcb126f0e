-- tiles3.lua: what the shared-memory tiled kernels of tiles2 leave open
-- (validation/h200/bench/bench_tiles3.cu, family `tiles3`).
--   kind=wt    a WMMA tile loop from shared memory: C_b = A_b B_b, fp16 in, fp32
--              accumulate, 128 threads (4 warps in 2x2), a 64x64 block tile, each warp
--              a 32x32 sub-tile (2x2 m16n16k16 fragments); per trip the A (64 x BK) and
--              B (BK x 64) tiles copied into shared memory (rows padded by 8 halves),
--              __syncthreads, BK/16 k steps, __syncthreads.
--                ld sc: one half per load, `for (i = tid; i < 64*BK; i += 128)` copy
--                       loops (nvcc does not know the count: unrolled 4 times; with
--                       comp none ptxas keeps one load in flight, below)
--                ld v8: one 16-byte load of 8 halves per thread, matrix and 16 k
--                comp full: per k step 2 A and 2 B load_matrix_sync from shared memory
--                       (ldmatrix: 16 bytes per lane) and 4 mma_sync; none: one shared
--                       half of each tile read per trip
--   kind=st    5-point stencil staged in shared memory with a one-point halo, every
--              load bounds-checked, one point per thread:
--                halo br: each side's load in its own `if` after the centre's store
--                halo ho: all five loaded (predicated) before any store
--                halo xb: the left/right halo in `if`s, the upper/lower hoisted
--                halo yb: the upper/lower halo in `if`s, the left/right hoisted
--                halo pv: the halo read from a private per-block array; written with
--                         `if`s, but nvcc predicates the four loads and issues them with
--                         the centre's (SASS), so they are written here as hoisted
--                halo nh: no halo loads (the halo cells set to 0)
--   kind=tnl   the register-blocked SGEMM compute of tiles2 (shape g64: 64x64 tile,
--              4x4 outputs per thread; g128: 128x128, 8x8; BK = 8, 256 threads) on
--              tiles that stay in shared memory: per trip the BK k steps, then
--              __syncthreads.
-- The bench flushes the L2 before every repetition of wt and st (data=dram).
local kind   = gpuperf.param("kind", "wt", "wt | st | tnl")
local regs   = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local ro, stamped = require("lib_stamp")()  -- the global loads' space: stamp=1 "global", else "texture"
local bk     = gpuperf.param("bk", 16, "wt: k per trip (16 or 32)")
local ldm    = gpuperf.param("ld", "sc", "wt: sc | v8")
local comp   = gpuperf.param("comp", "full", "wt: full | none")
local blocks = gpuperf.param("blocks", 132, "wt, tnl: blocks of the grid")
local kdim   = gpuperf.param("k", 512, "wt: K")
local n      = gpuperf.param("n", 2048, "st: points per side")
local bx     = gpuperf.param("bx", 32, "st: block width")
local by     = gpuperf.param("by", 8, "st: block height")
local halo   = gpuperf.param("halo", "br", "st: br | ho | xb | yb | pv | nh")
local shape  = gpuperf.param("shape", "g128", "tnl: g64 | g128")
local trips  = gpuperf.param("trips", 256, "tnl: trips")

local floor = math.floor

if kind == "wt" then
  assert(bk == 16 or bk == 32, "bk must be 16 or 32")
  local T, AP, BP = 128, bk + 8, 72
  local ld = blocks * 64                                 -- row length of B
  local A = gpuperf.buffer("A", 2 * ld * kdim)
  local B = gpuperf.buffer("B", 2 * ld * kdim)
  local C = gpuperf.buffer("C", comp == "full" and 4 * blocks * 64 * 64 or 4 * blocks * T)
  local trip = {}
  local function add(op) trip[#trip + 1] = op end
  if ldm == "sc" then
    local LA = 64 * bk / T                               -- halves per thread and matrix
    -- The copies in flight together. The SASS of k_wt<BK, sc, full> (validation/h100/
    -- measured/benches/tiles3_nostamp/sass_tiles3.txt.gz; run68's opcode counts are
    -- the same) issues each block of 4 copies' loads before their stores; that of
    -- k_wt<BK, sc, none> (32 registers) issues LDG, STS, LDG, STS: every copy waits
    -- for its own load. The stamped kernels (stamp=1, run9's SASS) keep 2 to 4
    -- together in both.
    local ur = (comp == "none" and not stamped) and 1 or 4
    add(gpuperf.loop{LA, var = "i", unroll = ur, body = {
      gpuperf.int(4),
      gpuperf.load{A, space = ro, bytes = 2, index = function(t)
        local i = t.x + T * t.i
        return (t.bx * 64 + floor(i / bk)) * kdim + bk * t.kt + i % bk end},
      gpuperf.shared_store{bytes = 2, index = function(t)
        local i = t.x + T * t.i
        return floor(i / bk) * AP + i % bk end},
    }})
    add(gpuperf.loop{LA, var = "j", unroll = ur, body = {
      gpuperf.int(3),
      gpuperf.load{B, space = ro, bytes = 2, index = function(t)
        local i = t.x + T * t.j
        return (bk * t.kt + floor(i / 64)) * ld + t.bx * 64 + i % 64 end},
      gpuperf.shared_store{bytes = 2, index = function(t)
        local i = t.x + T * t.j
        return 64 * AP + floor(i / 64) * BP + i % 64 end},
    }})
  elseif ldm == "v8" then
    local LV = bk / 16                                   -- 16-byte loads per thread and matrix
    add(gpuperf.int(2 * LV))
    for j = 0, LV - 1 do
      add(gpuperf.load{A, space = ro, bytes = 16, index = function(t)
        local i = t.x + T * j
        return ((t.bx * 64 + floor(i / (bk / 8))) * kdim + bk * t.kt + 8 * (i % (bk / 8))) / 8 end})
      add(gpuperf.shared_store{bytes = 16, index = function(t)
        local i = t.x + T * j
        return (floor(i / (bk / 8)) * AP + 8 * (i % (bk / 8))) / 8 end})
    end
    for j = 0, LV - 1 do
      add(gpuperf.load{B, space = ro, bytes = 16, index = function(t)
        local i = t.x + T * j
        return ((bk * t.kt + floor(i / 8)) * ld + t.bx * 64 + 8 * (i % 8)) / 8 end})
      add(gpuperf.shared_store{bytes = 16, index = function(t)
        local i = t.x + T * j
        return (64 * AP + floor(i / 8) * BP + 8 * (i % 8)) / 8 end})
    end
  else
    error("ld must be sc or v8, got '" .. tostring(ldm) .. "'")
  end
  add(gpuperf.barrier())
  if comp == "full" then
    -- a fragment: ldmatrix.x4, lane l gives the address of row l % 16, columns
    -- 8 (l // 16) .. +7 of the 16x16 tile (16 bytes)
    for kk = 0, bk - 16, 16 do
      add(gpuperf.int(4))
      for i = 0, 1 do
        add(gpuperf.shared_load{bytes = 16, index = function(t)
          local wy = floor(floor(t.x / 32) / 2)
          return ((wy * 32 + i * 16 + t.lane % 16) * AP + kk + 8 * floor(t.lane / 16)) / 8 end})
      end
      for j = 0, 1 do
        add(gpuperf.shared_load{bytes = 16, index = function(t)
          local wx = floor(t.x / 32) % 2
          return (64 * AP + (kk + t.lane % 16) * BP + wx * 32 + j * 16 +
                  8 * floor(t.lane / 16)) / 8 end})
      end
      -- 4 mma_sync, each two independent HMMA.16816
      add(gpuperf.tensor{flops = 4 * 2 * 16 * 16 * 16 / 32, type = "fp16", ilp = 8})
    end
  else
    add(gpuperf.int(1))
    add(gpuperf.shared_load{bytes = 2, index = function(t) return (t.x % 64) * AP end})
    add(gpuperf.shared_load{bytes = 2, index = function(t) return 64 * AP + t.x % 64 end})
    add(gpuperf.conv(2))
    add(gpuperf.fp32(2))
  end
  add(gpuperf.barrier())
  local work = { gpuperf.int(12), gpuperf.loop{kdim / bk, var = "kt", body = trip} }
  if comp == "full" then
    -- store_matrix_sync of the 4 fp32 fragments: 8 words per lane each
    work[#work + 1] = gpuperf.store{C, bytes = 16, count = 8, index = function(t)
      return (t.bx * 64 * 64 + floor(t.x / 32) * 1024 + 4 * t.lane) / 4 end}
  else
    work[#work + 1] = gpuperf.store{C, index = function(t) return t.bx * T + t.x end}
  end
  gpuperf.flush_l2()
  gpuperf.launch{
    name = "wt" .. bk .. "_" .. ldm .. "_" .. comp, grid = blocks, block = T, regs = regs,
    smem = 2 * (64 * AP + bk * BP), work = work,
  }
elseif kind == "st" then
  assert(n % bx == 0 and n % by == 0, "n must be a multiple of bx and by")
  local src = gpuperf.buffer("in", 4 * n * n)
  local dst = gpuperf.buffer("out", 4 * n * n)
  local hal = gpuperf.buffer("halo", 4 * (n / bx) * (n / by) * (2 * bx + 2 * by))
  local W = bx + 2
  local rows = math.max(1, floor(32 / bx))              -- rows of the tile per warp
  local yshare = 1 / (bx * by / 32)                     -- one warp of the block
  local per = 2 * bx + 2 * by
  local function gi(t, dx, dy) return (t.gy + dy) * n + t.gx + dx end
  local function blk(t) return t.by * (n / bx) + t.bx end
  local function inside(t) return t.gx >= 1 and t.gx < n - 1 and t.gy >= 1 and t.gy < n - 1 end
  local function s(dx, dy) return function(t)
    if inside(t) then return (t.y + 1 + dy) * W + t.x + 1 + dx end end end
  -- the halo loads: `if (tx == 0)` and `if (tx == bx - 1)` in every warp (one lane
  -- per row of the warp), `if (ty == 0)` and `if (ty == by - 1)` in the one warp
  -- holding that row (count: the share of warps that issue)
  local ld_x = {
    gpuperf.load{src, space = ro, index = function(t) if t.x == 0 and t.gx > 0 then return gi(t, -1, 0) end end},
    gpuperf.load{src, space = ro, index = function(t)
      if t.x == bx - 1 and t.gx < n - 1 then return gi(t, 1, 0) end end},
  }
  local ld_y = {
    gpuperf.load{src, space = ro, count = yshare, index = function(t)
      if t.y % rows == 0 and t.by > 0 then return (t.by * by - 1) * n + t.gx end end},
    gpuperf.load{src, space = ro, count = yshare, index = function(t)
      if t.y % rows == 0 and (t.by + 1) * by < n then return (t.by * by + by) * n + t.gx end end},
  }
  local ld_pv = {
    gpuperf.load{hal, space = ro, index = function(t) if t.x == 0 then return blk(t) * per + t.y end end},
    gpuperf.load{hal, space = ro, index = function(t) if t.x == bx - 1 then return blk(t) * per + by + t.y end end},
    gpuperf.load{hal, space = ro, count = yshare, index = function(t)
      if t.y % rows == 0 then return blk(t) * per + 2 * by + t.x end end},
    gpuperf.load{hal, space = ro, count = yshare, index = function(t)
      if t.y % rows == 0 then return blk(t) * per + 2 * by + bx + t.x end end},
  }
  local st_x = {
    gpuperf.shared_store{index = function(t) if t.x == 0 then return (t.y + 1) * W end end},
    gpuperf.shared_store{index = function(t) if t.x == bx - 1 then return (t.y + 1) * W + bx + 1 end end},
  }
  local st_y = {
    gpuperf.shared_store{count = yshare, index = function(t) if t.y % rows == 0 then return t.x + 1 end end},
    gpuperf.shared_store{count = yshare, index = function(t)
      if t.y % rows == 0 then return (by + 1) * W + t.x + 1 end end},
  }
  local centre_st = gpuperf.shared_store{index = function(t) return (t.y + 1) * W + t.x + 1 end}
  local work = { gpuperf.int(10), gpuperf.load{src, space = ro, index = function(t) return gi(t, 0, 0) end} }
  local function add(op) work[#work + 1] = op end
  -- a halo side in its own `if`: the compare and branch, the load, the store
  local function branch(ld, st) add(gpuperf.int(2)); add(gpuperf.branch(1)); add(ld); add(st) end
  if halo == "br" then
    add(centre_st)
    for q = 1, 2 do branch(ld_x[q], st_x[q]) end
    for q = 1, 2 do branch(ld_y[q], st_y[q]) end
  elseif halo == "ho" or halo == "pv" then
    local lds = halo == "ho" and { ld_x[1], ld_x[2], ld_y[1], ld_y[2] } or ld_pv
    for _, op in ipairs(lds) do add(op) end
    add(centre_st)
    for q = 1, 2 do add(st_x[q]) end
    for q = 1, 2 do add(st_y[q]) end
  elseif halo == "xb" then
    add(ld_y[1]); add(ld_y[2]); add(centre_st); add(st_y[1]); add(st_y[2])
    for q = 1, 2 do branch(ld_x[q], st_x[q]) end
  elseif halo == "yb" then
    add(ld_x[1]); add(ld_x[2]); add(centre_st); add(st_x[1]); add(st_x[2])
    for q = 1, 2 do branch(ld_y[q], st_y[q]) end
  elseif halo == "nh" then
    add(centre_st)
    for q = 1, 2 do add(gpuperf.int(2)); add(gpuperf.branch(1)); add(st_x[q]) end
    for q = 1, 2 do add(gpuperf.int(2)); add(gpuperf.branch(1)); add(st_y[q]) end
  else
    error("halo must be br, ho, xb, yb, pv or nh, got '" .. tostring(halo) .. "'")
  end
  local tail = {
    gpuperf.barrier(), gpuperf.int(3),
    gpuperf.shared_load{index = s(0, 0)}, gpuperf.shared_load{index = s(-1, 0)},
    gpuperf.shared_load{index = s(1, 0)}, gpuperf.shared_load{index = s(0, -1)},
    gpuperf.shared_load{index = s(0, 1)}, gpuperf.fp32(6),
    gpuperf.store{dst, index = function(t) if inside(t) then return gi(t, 0, 0) end end},
  }
  for _, op in ipairs(tail) do add(op) end
  gpuperf.flush_l2()
  gpuperf.launch{
    name = "st" .. bx .. "x" .. by .. "_" .. halo, grid = { n / bx, n / by },
    block = { bx, by }, regs = regs, smem = 4 * W * (by + 2), work = work,
  }
elseif kind == "tnl" then
  local S = ({ g64 = { 64, 4 }, g128 = { 128, 8 } })[shape]
  assert(S, "shape must be g64 or g128, got '" .. tostring(shape) .. "'")
  local BM, TM, BK, T = S[1], S[2], 8, 256
  local TX = BM / TM
  local C = gpuperf.buffer("C", 4 * blocks * BM * BM)
  local trip = {}
  for k = 0, BK - 1 do                        -- As[k][ty TM ..], Bs[k][tx TM ..] as LDS.128
    for i = 0, TM / 4 - 1 do
      trip[#trip + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return (k * BM + floor(t.x / TX) * TM + 4 * i) / 4 end}
    end
    for j = 0, TM / 4 - 1 do
      trip[#trip + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return (BK * BM + k * BM + (t.x % TX) * TM + 4 * j) / 4 end}
    end
    trip[#trip + 1] = gpuperf.fp32{TM * TM, ilp = TM * TM}
  end
  trip[#trip + 1] = gpuperf.barrier()
  local work = { gpuperf.int(12),
                 gpuperf.loop(BK * BM / T, { gpuperf.int(6), gpuperf.conv(2),
                                             gpuperf.shared_store{count = 2} }),
                 gpuperf.barrier(),
                 gpuperf.loop{trips, var = "t", body = trip} }
  for i = 0, TM - 1 do
    work[#work + 1] = gpuperf.store{C, bytes = 16, count = TM / 4, index = function(t)
      return (t.bx * BM * BM + (floor(t.x / TX) * TM + i) * BM + (t.x % TX) * TM) / 4 end}
  end
  gpuperf.launch{
    name = "tnl_" .. shape, grid = blocks, block = T, regs = regs,
    smem = 2 * BK * BM * 4, work = work,
  }
else
  error("kind must be wt, st or tnl, got '" .. tostring(kind) .. "'")
end
