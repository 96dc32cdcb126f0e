-- smem.lua: shared-memory-fed arithmetic (validation/h200/bench/bench_smem.cu, family
-- `smem`). One wave: grid = SMs x blocks per SM, each block pinned to its SM with
-- dynamic shared memory (bench: dyn_smem_for_bpsm). Every kernel first fills its
-- shared memory, then runs the timed loop (nothing from global memory inside it),
-- then stores one result per thread (per warp tile for wmma).
--   kind=lds     8 independent volatile LDS per trip of `width` bits per lane;
--                mode free (lane l, element l), bcast (all lanes one element),
--                conf2 / conf4 (element 2l / 4l: 2- and 4-way bank conflicts);
--                the loaded words summed (IADD3: one per two words)
--   kind=ldsfma  per trip `ilp` conflict-free 32-bit LDS, each word feeding `f`
--                FMAs into its own accumulator (ilp chains)
--   kind=outer   16x16-thread block, per k step TM/4 LDS.128 of A (two addresses
--                per warp) and TN/4 of B, TM*TN FFMA; 8 k steps per tile; `sync`
--                __syncthreads per tile
--   kind=wmma    m16n16k16 fp16 -> fp32 (two HMMA.16816 per mma_sync);
--                load=0: fragments in registers; load=1: load_matrix_sync of every
--                A and B fragment from shared memory (16 bytes per lane each)
--                before the mma_syncs; acc=1 (1 A, 1 B) or 4 (2 A, 2 B: 4 mma_sync)
local kind  = gpuperf.param("kind", "lds", "lds | ldsfma | outer | wmma")
local warps = gpuperf.param("warps", 32, "warps per SM")
local iters = gpuperf.param("iters", 1024, "trips of the timed loop (tiles for outer, steps for wmma)")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local width = gpuperf.param("width", 32, "lds: bits per lane: 32, 64 or 128")
local mode  = gpuperf.param("mode", "free", "lds: free | bcast | conf2 | conf4")
local f     = gpuperf.param("f", 1, "ldsfma: FMAs per loaded word")
local ilp   = gpuperf.param("ilp", 1, "ldsfma: loads (and accumulators) per trip")
local tm    = gpuperf.param("tm", 4, "outer: TM = TN, values of A and of B per thread and k step")
local sync  = gpuperf.param("sync", 0, "outer: __syncthreads per tile (0, 1 or 2)")
local load  = gpuperf.param("load", 1, "wmma: 1 = fragments loaded from shared memory every step")
local acc   = gpuperf.param("acc", 1, "wmma: accumulators per warp (1 or 4)")
local ldm   = gpuperf.param("ldm", 24, "wmma: leading dimension of the shared tiles, halfs")

local sms = gpuperf.device.sm_count
local smem_sm = gpuperf.device.shared_memory_per_sm_bytes
local reserved = gpuperf.device.reserved_shared_memory_per_block_bytes or 0
local function pin(bpsm)                    -- common.cuh dyn_smem_for_bpsm
  return math.min(math.floor((smem_sm / bpsm - reserved) / 1024) * 1024,
                  gpuperf.device.shared_memory_per_block_optin_bytes)
end

-- A kernel's work: the fill, the timed loop between its clock64 brackets (a
-- barrier and a clock read before, a barrier and the read and store of the
-- difference after), then the tail.
local function work(fill, loop, tail)
  local w = {}
  for _, op in ipairs(fill) do w[#w + 1] = op end
  w[#w + 1] = gpuperf.barrier()
  w[#w + 1] = gpuperf.int(2)
  w[#w + 1] = loop
  w[#w + 1] = gpuperf.barrier()
  w[#w + 1] = gpuperf.int(4)
  for _, op in ipairs(tail) do w[#w + 1] = op end
  return w
end

if kind == "lds" then
  local V = ({ [32] = 1, [64] = 2, [128] = 4 })[width]
  assert(V, "width must be 32, 64 or 128, got " .. tostring(width))
  local D = ({ free = 1, bcast = 1, conf2 = 2, conf4 = 4 })[mode]
  assert(D, "mode must be free, bcast, conf2 or conf4, got '" .. tostring(mode) .. "'")
  local bpsm = warps > 32 and 2 or 1
  local block = 32 * warps / bpsm
  local out = gpuperf.buffer("out", 4 * sms * bpsm * block)
  local body = {}
  for j = 0, 7 do
    body[#body + 1] = gpuperf.shared_load{bytes = 4 * V, index = function(t)
      if mode == "bcast" then return j end
      return t.lane * D + j * 32 * D end}
  end
  body[#body + 1] = gpuperf.int(4 * V)        -- acc += the 8 V words: 3-input IADD3
  gpuperf.launch{
    name = "lds" .. width .. "_" .. mode, grid = sms * bpsm, block = block, regs = regs,
    dynamic_smem = pin(bpsm),
    work = work({ gpuperf.loop(math.ceil(4096 / block), { gpuperf.int(3), gpuperf.shared_store{} }) },
                gpuperf.loop(iters, body),
                { gpuperf.store{out, index = function(t) return t.gx end} }),
  }
elseif kind == "ldsfma" then
  assert(ilp == 1 or ilp == 4, "ilp must be 1 or 4")
  local out = gpuperf.buffer("out", 4 * sms * 32 * warps)
  local body = {}
  for j = 0, ilp - 1 do
    body[#body + 1] = gpuperf.shared_load{index = function(t)
      return ((t.k * ilp + j) % 128) * 32 + t.lane end}
  end
  body[#body + 1] = gpuperf.fp32{f * ilp, ilp = ilp}
  body[#body + 1] = gpuperf.int(2)            -- p = (p + ilp * 128) & 16383
  gpuperf.launch{
    name = "ldsfma_f" .. f .. "_ilp" .. ilp, grid = sms, block = 32 * warps, regs = regs,
    dynamic_smem = pin(1),
    work = work({ gpuperf.loop(math.ceil(4096 / (32 * warps)), { gpuperf.int(3), gpuperf.conv(1),
                                                                 gpuperf.shared_store{} }) },
                gpuperf.loop{iters, var = "k", body = body},
                { gpuperf.fp32(ilp), gpuperf.store{out, index = function(t) return t.gx end} }),
  }
elseif kind == "outer" then
  assert(tm == 4 or tm == 8, "tm must be 4 or 8")
  assert(sync == 0 or sync == 1 or sync == 2, "sync must be 0, 1 or 2")
  local bpsm = warps / 8
  assert(bpsm == 1 or bpsm == 2, "outer: warps must be 8 or 16 (256-thread blocks)")
  local KT, L = 8, 16 * tm
  local out = gpuperf.buffer("out", 4 * sms * bpsm * 256 * tm * tm)
  local tile = {}
  if sync >= 1 then tile[#tile + 1] = gpuperf.barrier() end
  tile[#tile + 1] = gpuperf.int(4)            -- the tile's A and B addresses
  for k = 0, KT - 1 do
    for i = 0, tm / 4 - 1 do                  -- As[k][ty * TM + 4i .. +3]
      tile[#tile + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return ((t.k % 4) * KT * L + k * L + math.floor(t.x / 16) * tm + 4 * i) / 4 end}
    end
    for j = 0, tm / 4 - 1 do                  -- Bs[k][tx * TN + 4j .. +3]
      tile[#tile + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return ((t.k % 4) * KT * L + k * L + (t.x % 16) * tm + 4 * j) / 4 end}
    end
    tile[#tile + 1] = gpuperf.fp32{tm * tm, ilp = tm * tm}
  end
  if sync >= 2 then tile[#tile + 1] = gpuperf.barrier() end
  gpuperf.launch{
    name = "outer" .. tm .. "x" .. tm .. "_sync" .. sync, grid = sms * bpsm, block = 256,
    regs = regs, dynamic_smem = pin(bpsm),
    work = work({ gpuperf.loop(4 * KT * L / 256 * 2, { gpuperf.int(3), gpuperf.conv(1),
                                                        gpuperf.shared_store{} }) },
                gpuperf.loop{iters, var = "k", body = tile},
                { gpuperf.store{out, count = tm * tm, index = function(t)
                    return t.gx * tm * tm end} }),
  }
elseif kind == "wmma" then
  assert(acc == 1 or acc == 4, "acc must be 1 or 4")
  assert(load == 0 or load == 1, "load must be 0 or 1")
  assert(ldm == 16 or ldm == 24, "ldm must be 16 or 24")
  local n = acc == 4 and 2 or 1
  local out = gpuperf.buffer("out", 4 * sms * warps * acc * 256)
  -- one fragment of a 16x16 fp16 tile: ldmatrix.x4, lane l gives the address of
  -- row l % 16, columns 8 * (l // 16) .. +7 (16 bytes): element (16-byte unit)
  local function frag(u)
    return gpuperf.shared_load{bytes = 16, index = function(t)
      local tl = (2 * (t.k or 0) + u) % 8
      return (tl * 16 * ldm + (t.lane % 16) * ldm + 8 * math.floor(t.lane / 16)) / 8 end}
  end
  local step = {}
  if load == 1 then
    step[#step + 1] = gpuperf.int(2 * n)      -- tile addresses
    for u = 0, n - 1 do
      step[#step + 1] = frag(u)               -- A fragment u
      step[#step + 1] = frag(u)               -- B fragment u (same offsets in sB)
    end
  end
  -- each mma_sync is two independent HMMA.16816 (the two 8-column halves)
  step[#step + 1] = gpuperf.tensor{flops = 2 * 16 * 16 * 16 * acc / 32, type = "fp16",
                                   ilp = 2 * acc}
  local fill = math.ceil(8 * 16 * ldm / (32 * warps))
  local pre = { gpuperf.loop(fill, { gpuperf.int(6), gpuperf.conv(2),
                                     gpuperf.shared_store{count = 2, bytes = 2} }),
                gpuperf.barrier() }
  if load == 0 then
    for u = 0, n - 1 do pre[#pre + 1] = frag(u); pre[#pre + 1] = frag(u) end
  end
  gpuperf.launch{
    name = "wmma_" .. (load == 1 and "lds" or "mma") .. "_acc" .. acc .. "_ldm" .. ldm,
    grid = sms, block = 32 * warps, regs = regs, dynamic_smem = pin(1),
    work = work(pre, gpuperf.loop{iters, var = "k", body = step},
                { gpuperf.store{out, count = 8 * acc, index = function(t)
                    return t.gx * 8 * acc end} }),
  }
else
  error("kind must be lds, ldsfma, outer or wmma, got '" .. tostring(kind) .. "'")
end
