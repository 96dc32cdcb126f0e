-- tiles2.lua: the phases of a shared-memory tiled loop
-- (validation/h200/bench/bench_tiles2.cu, family `tiles2`).
--   kind=tile     C_b = A_b B_b for block b (its own panels: no block re-reads another's
--                 data), BK = 8, 256 threads, one block per grid slot (grids under one
--                 wave). Per trip: copy the A and B tiles into shared memory,
--                 __syncthreads, the BK k steps of the tile from shared memory,
--                 __syncthreads.
--                   shape g64:  64x64 tile, 4x4 outputs per thread
--                   shape g128: 128x128 tile, 8x8 outputs per thread
--                   ld rt: `for (i = tid; i < BM*BK; i += 256)` copy loops, A row-major
--                          into As[c][r] (r = i / BK, c = i % BK), B into Bs[r][c]
--                   ld un: the same copies with the count known (#pragma unroll)
--                   ld co: A given transposed: coalesced loads, conflict-free stores
--                   ld f4: A given transposed, one float4 of A and of B per thread
--                   comp full: the register-blocked outer product; none: one shared
--                   word of As and of Bs added per trip
--   kind=ldloop   per trip a block copies L x 256 consecutive floats to shared memory
--                 (u=0: `for (i = tid; i < L*256; i += 256)`, u=1: unrolled),
--                 __syncthreads, reads one word, __syncthreads.
--   kind=stencil  5-point stencil staged in shared memory with a one-point halo, every
--                 load bounds-checked; hoist=0: the halo loads in their own branches
--                 after the centre's store; hoist=1: all five loaded before any store.
-- The bench flushes the L2 before every repetition of the data=dram rows.
local kind   = gpuperf.param("kind", "tile", "tile | ldloop | stencil")
local regs   = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local ro     = require("lib_stamp")()  -- the global loads' space: stamp=1 "global", else "texture"
local shape  = gpuperf.param("shape", "g64", "tile: g64 | g128")
local ldm    = gpuperf.param("ld", "rt", "tile: rt | un | co | f4")
local comp   = gpuperf.param("comp", "full", "tile: full | none")
local blocks = gpuperf.param("blocks", 132, "tile, ldloop: blocks of the grid")
local kdim   = gpuperf.param("k", 512, "tile: K")
local L      = gpuperf.param("l", 4, "ldloop: loads per thread and trip")
local u      = gpuperf.param("u", 0, "ldloop: 1 when the copy loop is unrolled")
local trips  = gpuperf.param("trips", 64, "ldloop: trips")
local n      = gpuperf.param("n", 2048, "stencil: points per side")
local bx     = gpuperf.param("bx", 32, "stencil: block width")
local by     = gpuperf.param("by", 8, "stencil: block height")
local hoist  = gpuperf.param("hoist", 0, "stencil: 1 when all loads precede the stores")

local floor = math.floor

if kind == "tile" then
  local S = ({ g64 = { 64, 4 }, g128 = { 128, 8 } })[shape]
  assert(S, "shape must be g64 or g128, got '" .. tostring(shape) .. "'")
  local BM, TM, BK, T = S[1], S[2], 8, 256
  local TX = BM / TM
  local LA = BM * BK / T                                -- loads per thread and matrix
  local ld = blocks * BM                                -- row length of At and B
  local A = gpuperf.buffer("A", 4 * ld * kdim)
  local B = gpuperf.buffer("B", 4 * ld * kdim)
  local C = gpuperf.buffer("C", comp == "full" and 4 * blocks * BM * BM or 4 * blocks * T)
  local trip = {}
  local function add(op) trip[#trip + 1] = op end
  -- A(m, k) row-major: A[m K + k]; At: At[k ld + m]; B(k, n): B[k ld + n]
  local function a_row(t, i) return (t.bx * BM + floor(i / BK)) * kdim + BK * t.kt + i % BK end
  local function as_tr(i) return (i % BK) * BM + floor(i / BK) end
  local function a_co(t, i) return (BK * t.kt + floor(i / BM)) * ld + t.bx * BM + i % BM end
  local function b_row(t, i) return (BK * t.kt + floor(i / BM)) * ld + t.bx * BM + i % BM end
  if ldm == "rt" then
    -- two copy loops of LA trips each; an index and its address per trip. nvcc
    -- does not know their trip count (it depends on tid): it unrolls them 4 times
    -- and runs the trips that do not fill the 4 copies first, one at a time
    add(gpuperf.loop{LA, var = "i", unroll = 4, body = {
      gpuperf.int(4),
      gpuperf.load{A, space = ro, index = function(t) return a_row(t, t.x + T * t.i) end},
      gpuperf.shared_store{index = function(t) return as_tr(t.x + T * t.i) end},
    }})
    add(gpuperf.loop{LA, var = "j", unroll = 4, body = {
      gpuperf.int(3),
      gpuperf.load{B, space = ro, index = function(t) return b_row(t, t.x + T * t.j) end},
      gpuperf.shared_store{index = function(t) return BK * BM + t.x + T * t.j end},
    }})
  elseif ldm == "un" or ldm == "co" then
    add(gpuperf.int(2 * LA))
    for j = 0, LA - 1 do
      if ldm == "un" then
        add(gpuperf.load{A, space = ro, index = function(t) return a_row(t, t.x + T * j) end})
        add(gpuperf.shared_store{index = function(t) return as_tr(t.x + T * j) end})
      else
        add(gpuperf.load{A, space = ro, index = function(t) return a_co(t, t.x + T * j) end})
        add(gpuperf.shared_store{index = function(t) return t.x + T * j end})
      end
    end
    for j = 0, LA - 1 do
      add(gpuperf.load{B, space = ro, index = function(t) return b_row(t, t.x + T * j) end})
      add(gpuperf.shared_store{index = function(t) return BK * BM + t.x + T * j end})
    end
  elseif ldm == "f4" then
    local Q = BM * BK / 4
    local function live(t) return t.x < Q end
    add(gpuperf.int(2))
    add(gpuperf.load{A, space = ro, bytes = 16, index = function(t)
      if live(t) then return a_co(t, 4 * t.x) / 4 end end})
    add(gpuperf.load{B, space = ro, bytes = 16, index = function(t)
      if live(t) then return b_row(t, 4 * t.x) / 4 end end})
    add(gpuperf.shared_store{bytes = 16, index = function(t) if live(t) then return t.x end end})
    add(gpuperf.shared_store{bytes = 16, index = function(t)
      if live(t) then return BK * BM / 4 + t.x end end})
  else
    error("ld must be rt, un, co or f4, got '" .. tostring(ldm) .. "'")
  end
  add(gpuperf.barrier())
  if comp == "full" then
    for k = 0, BK - 1 do                      -- As[k][ty TM ..], Bs[k][tx TM ..] as LDS.128
      for i = 0, TM / 4 - 1 do
        add(gpuperf.shared_load{bytes = 16, index = function(t)
          return (k * BM + floor(t.x / TX) * TM + 4 * i) / 4 end})
      end
      for j = 0, TM / 4 - 1 do
        add(gpuperf.shared_load{bytes = 16, index = function(t)
          return (BK * BM + k * BM + (t.x % TX) * TM + 4 * j) / 4 end})
      end
      add(gpuperf.fp32{TM * TM, ilp = TM * TM})
    end
  else
    add(gpuperf.int(1))
    add(gpuperf.shared_load{index = function(t) return t.x % BM end})
    add(gpuperf.shared_load{index = function(t) return BK * BM + t.x % BM end})
    add(gpuperf.fp32(2))
  end
  add(gpuperf.barrier())
  local work = { gpuperf.int(12), gpuperf.loop{kdim / BK, var = "kt", body = trip} }
  if comp == "full" then
    for i = 0, TM - 1 do
      work[#work + 1] = gpuperf.store{C, bytes = 16, count = TM / 4, index = function(t)
        return (t.bx * BM * BM + (floor(t.x / TX) * TM + i) * BM + (t.x % TX) * TM) / 4 end}
    end
  else
    work[#work + 1] = gpuperf.store{C, index = function(t) return t.bx * T + t.x end}
  end
  gpuperf.flush_l2()
  gpuperf.launch{
    name = shape .. "_" .. ldm .. "_" .. comp, grid = blocks, block = T, regs = regs,
    smem = 2 * BK * BM * 4, work = work,
  }
elseif kind == "ldloop" then
  local X = gpuperf.buffer("X", 4 * blocks * trips * L * 256)
  local out = gpuperf.buffer("out", 4 * blocks * 256)
  local function xi(t, i) return (t.bx * trips + t.t) * L * 256 + t.x + 256 * i end
  local copy
  if u == 1 then
    copy = { gpuperf.int(1) }
    for i = 0, L - 1 do
      copy[#copy + 1] = gpuperf.load{X, space = ro, index = function(t) return xi(t, i) end}
      copy[#copy + 1] = gpuperf.shared_store{index = function(t) return t.x + 256 * i end}
    end
  else
    -- A count nvcc does not know (tid is not known to be below 256). The SASS of
    -- k_ldloop<L, 0, 0> (validation/h100/measured/benches/tiles2_nostamp/
    -- sass_tiles2.txt.gz; run68's opcode counts are the same, and run9's stamped
    -- binary has the same blocks): the L mod 4 first trips one load and store at a
    -- time (a third beside the second), then the rest in blocks of 16, 8 and 4
    -- copies, each block's loads issued before its stores (the 16-copy block: 11,
    -- then 5 more after 5 stores); not the 4 copies of a tile copy loop.
    copy = {}
    local function part(first, n, unroll)
      copy[#copy + 1] = gpuperf.loop{n, var = "i", unroll = unroll, body = {
        gpuperf.int(2),
        gpuperf.load{X, space = ro, index = function(t) return xi(t, first + t.i) end},
        gpuperf.shared_store{index = function(t) return t.x + 256 * (first + t.i) end},
      }}
    end
    local rem, done = L % 4, 0
    if rem >= 1 then part(0, 1, 1); done = 1 end
    if rem >= 2 then part(1, rem - 1, rem - 1); done = rem end
    while done < L do
      local rest = L - done
      local blk = rest > 12 and 16 or rest > 4 and 8 or 4
      part(done, blk, blk)
      done = done + blk
    end
  end
  local body = { copy, gpuperf.barrier(), gpuperf.int(2),
                 gpuperf.shared_load{index = function(t) return (t.x * 33) % (L * 256) end},
                 gpuperf.fp32(1), gpuperf.barrier() }
  gpuperf.flush_l2()
  gpuperf.launch{
    name = "ldloop_l" .. L .. (u == 1 and "_un" or "_rt"), grid = blocks, block = 256,
    regs = regs, smem = 4 * L * 256,
    work = { gpuperf.int(8), gpuperf.loop{trips, var = "t", body = body},
             gpuperf.store{out, index = function(t) return t.bx * 256 + t.x end} },
  }
elseif kind == "stencil" then
  assert(n % bx == 0 and n % by == 0, "n must be a multiple of bx and by")
  local src = gpuperf.buffer("in", 4 * n * n)
  local dst = gpuperf.buffer("out", 4 * n * n)
  local W = bx + 2
  local rows = math.max(1, floor(32 / bx))              -- rows of the tile per warp
  local yshare = 1 / (bx * by / 32)                     -- one warp of the block
  local function gi(t, dx, dy) return (t.gy + dy) * n + t.gx + dx end
  local function inside(t) return t.gx >= 1 and t.gx < n - 1 and t.gy >= 1 and t.gy < n - 1 end
  local function s(dx, dy) return function(t)
    if inside(t) then return (t.y + 1 + dy) * W + t.x + 1 + dx end end end
  -- the halo: `if (tx == 0)` and `if (tx == bx - 1)` in every warp (one lane per
  -- row of the warp), `if (ty == 0)` and `if (ty == by - 1)` in the one warp
  -- holding that row (count: the share of warps that issue)
  local halo_ld = {
    gpuperf.load{src, space = ro, index = function(t) if t.x == 0 and t.gx > 0 then return gi(t, -1, 0) end end},
    gpuperf.load{src, space = ro, index = function(t)
      if t.x == bx - 1 and t.gx < n - 1 then return gi(t, 1, 0) end end},
    gpuperf.load{src, space = ro, count = yshare, index = function(t)
      if t.y % rows == 0 and t.by > 0 then return (t.by * by - 1) * n + t.gx end end},
    gpuperf.load{src, space = ro, count = yshare, index = function(t)
      if t.y % rows == 0 and (t.by + 1) * by < n then return (t.by * by + by) * n + t.gx end end},
  }
  local halo_st = {
    gpuperf.shared_store{index = function(t) if t.x == 0 then return (t.y + 1) * W end end},
    gpuperf.shared_store{index = function(t) if t.x == bx - 1 then return (t.y + 1) * W + bx + 1 end end},
    gpuperf.shared_store{count = yshare, index = function(t) if t.y % rows == 0 then return t.x + 1 end end},
    gpuperf.shared_store{count = yshare, index = function(t)
      if t.y % rows == 0 then return (by + 1) * W + t.x + 1 end end},
  }
  local work = { gpuperf.int(10),
                 gpuperf.load{src, space = ro, index = function(t) return gi(t, 0, 0) end} }
  if hoist == 1 then
    for _, op in ipairs(halo_ld) do work[#work + 1] = op end
    work[#work + 1] = gpuperf.shared_store{index = function(t) return (t.y + 1) * W + t.x + 1 end}
    for _, op in ipairs(halo_st) do work[#work + 1] = op end
  else
    work[#work + 1] = gpuperf.shared_store{index = function(t) return (t.y + 1) * W + t.x + 1 end}
    for q = 1, 4 do
      work[#work + 1] = halo_ld[q]
      work[#work + 1] = halo_st[q]
    end
  end
  local tail = {
    gpuperf.barrier(), gpuperf.int(3),
    gpuperf.shared_load{index = s(0, 0)}, gpuperf.shared_load{index = s(-1, 0)},
    gpuperf.shared_load{index = s(1, 0)}, gpuperf.shared_load{index = s(0, -1)},
    gpuperf.shared_load{index = s(0, 1)}, gpuperf.fp32(6),
    gpuperf.store{dst, index = function(t) if inside(t) then return gi(t, 0, 0) end end},
  }
  for _, op in ipairs(tail) do work[#work + 1] = op end
  gpuperf.flush_l2()
  gpuperf.launch{
    name = "stencil_" .. bx .. "x" .. by .. "_h" .. hoist, grid = { n / bx, n / by },
    block = { bx, by }, regs = regs, smem = 4 * W * (by + 2), work = work,
  }
else
  error("kind must be tile, ldloop or stencil, got '" .. tostring(kind) .. "'")
end
