-- tiles.lua: shared-memory tiled loops and warp-uniform global loads
-- (validation/h200/bench/bench_tiles.cu, family `tiles`).
--   kind=gemm     C = A B, M x M output, K deep, through shared tiles. Per trip every
--                 thread copies 1 word (tm=1) or one float4 (tm=4, 8) of A and of B
--                 into shared memory, __syncthreads, runs the BK k steps of the tile
--                 from shared memory, __syncthreads.
--                   shape t16: 16x16 tile, BK 16, 16x16 threads, 1 output each
--                   shape t32: 32x32 tile, BK 32, 32x32 threads
--                   shape r4:  64x64 tile, BK 16, 256 threads, 4x4 outputs each
--                   shape r8:  128x128 tile, BK 8, 256 threads, 8x8 outputs each
--                 The A tile lands as As[k][m]: a=at (A given transposed: one float4
--                 copy), a=row (A row-major: four scalar stores into the transposed
--                 layout, row stride BM), a=pad (the same, stride BM + 4).
--   kind=bcast    every thread reads pos[j] (j = 0..n-1, `passes` times; float4 or
--                 float, all lanes one address) and runs a dependent chain on it:
--                 float4: 3 FADD, FMUL, 2 FFMA, then `c` FFMA; float: FADD, `c`
--                 FFMA; then one FADD into the accumulator. One block of 32 x warps
--                 threads per SM (pinned with dynamic shared memory); the j loop
--                 unrolled `unroll` times (#pragma unroll).
--   kind=stencil  5-point stencil over n x n floats: the block stages its tile and a
--                 one-point halo in shared memory, __syncthreads, then reads the five
--                 neighbours from shared memory; blocks bx x by.
local kind   = gpuperf.param("kind", "gemm", "gemm | bcast | stencil")
local regs   = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local shape  = gpuperf.param("shape", "r4", "gemm: t16 | t32 | r4 | r8")
local amode  = gpuperf.param("a", "at", "gemm: at | row | pad (how A reaches As[k][m])")
local m      = gpuperf.param("m", 1024, "gemm: rows and columns of C")
local kdim   = gpuperf.param("k", 1024, "gemm: the inner dimension")
local vec    = gpuperf.param("vec", 4, "bcast: 4 (float4 pos) or 1 (float)")
local chain  = gpuperf.param("c", 8, "bcast: dependent FFMA after the distance")
local unroll = gpuperf.param("unroll", 1, "bcast: copies of the j loop nvcc makes")
local warps  = gpuperf.param("warps", 8, "bcast: warps per SM")
local npos   = gpuperf.param("n", 512, "bcast: elements of pos; stencil: points per side")
local passes = gpuperf.param("passes", 32, "bcast: passes over pos")
local bx     = gpuperf.param("bx", 32, "stencil: block width")
local by     = gpuperf.param("by", 8, "stencil: block height")

local sms = gpuperf.device.sm_count
local floor = math.floor

-- bench_tiles writes the 1 GiB scratch before every repetition of the gemm and stencil
-- rows (the bcast rows run warm)
if kind ~= "bcast" then gpuperf.flush_l2() end

if kind == "gemm" then
  local S = ({ t16 = { 16, 16, 1 }, t32 = { 32, 32, 1 }, r4 = { 64, 16, 4 },
               r8 = { 128, 8, 8 } })[shape]
  assert(S, "shape must be t16, t32, r4 or r8, got '" .. tostring(shape) .. "'")
  local BM, BK, TM = S[1], S[2], S[3]
  assert(m % BM == 0 and kdim % BK == 0, "m must be a multiple of " .. BM .. " and k of " .. BK)
  local A = gpuperf.buffer("A", 4 * m * kdim)
  local B = gpuperf.buffer("B", 4 * kdim * m)
  local C = gpuperf.buffer("C", 4 * m * m)
  local trip = {}
  local function add(op) trip[#trip + 1] = op end
  local threads, smem
  if TM == 1 then
    -- As[ty][tx] = A[(m0 + ty) K + k0 + tx]; Bs[ty][tx] = B[(k0 + ty) M + n0 + tx]
    threads = BM * BM
    smem = 2 * BM * BM * 4
    add(gpuperf.int(4))
    add(gpuperf.load{A, index = function(t) return (t.by * BM + t.y) * kdim + BK * t.kt + t.x end})
    add(gpuperf.load{B, index = function(t) return (BK * t.kt + t.y) * m + t.bx * BM + t.x end})
    add(gpuperf.shared_store{index = function(t) return t.y * BM + t.x end})
    add(gpuperf.shared_store{index = function(t) return BM * BM + t.y * BM + t.x end})
    add(gpuperf.barrier())
    -- the k steps, unrolled: As[ty][k..k+3] as one LDS.128 (a row of threads
    -- reads the same words), Bs[k][tx] one LDS.32 each
    for q = 0, BK / 4 - 1 do
      add(gpuperf.shared_load{bytes = 16, index = function(t) return t.y * BM / 4 + q end})
    end
    for k = 0, BK - 1 do
      add(gpuperf.shared_load{index = function(t) return BM * BM + k * BM + t.x end})
    end
    add(gpuperf.fp32(BK))                     -- acc = fmaf(As, Bs, acc): one chain
    add(gpuperf.barrier())
  else
    local AS = amode == "pad" and BM + 4 or BM            -- row stride of As[k][m]
    assert(amode == "at" or amode == "row" or amode == "pad",
           "a must be at, row or pad, got '" .. tostring(amode) .. "'")
    threads = (BM / TM) ^ 2
    smem = (BK * AS + BK * BM) * 4
    local Q, P, TX = BM / 4, BK / 4, BM / TM
    local function kb(t) return floor(t.x / Q) end
    local function nb(t) return 4 * (t.x % Q) end
    local function ra(t) return floor(t.x / P) end
    local function ca(t) return 4 * (t.x % P) end
    add(gpuperf.int(6))                       -- the trip's global and shared addresses
    if amode == "at" then                     -- At[k0 + kb][m0 + nb .. +3]
      add(gpuperf.load{A, bytes = 16, index = function(t)
        return ((BK * t.kt + kb(t)) * m + t.by * BM + nb(t)) / 4 end})
    else                                      -- A[m0 + ra][k0 + ca .. +3]
      add(gpuperf.load{A, bytes = 16, index = function(t)
        return ((t.by * BM + ra(t)) * kdim + BK * t.kt + ca(t)) / 4 end})
    end
    add(gpuperf.load{B, bytes = 16, index = function(t)   -- B[k0 + kb][n0 + nb .. +3]
      return ((BK * t.kt + kb(t)) * m + t.bx * BM + nb(t)) / 4 end})
    if amode == "at" then
      add(gpuperf.shared_store{bytes = 16, index = function(t) return (kb(t) * AS + nb(t)) / 4 end})
    else
      for i = 0, 3 do                         -- As[ca + i][ra] = v.i
        add(gpuperf.shared_store{index = function(t) return (ca(t) + i) * AS + ra(t) end})
      end
    end
    add(gpuperf.shared_store{bytes = 16, index = function(t)
      return (BK * AS + kb(t) * BM + nb(t)) / 4 end})
    add(gpuperf.barrier())
    for k = 0, BK - 1 do                      -- the k steps, unrolled
      for i = 0, TM / 4 - 1 do                -- As[k][ty TM + 4i .. +3]
        add(gpuperf.shared_load{bytes = 16, index = function(t)
          return (k * AS + floor(t.x / TX) * TM + 4 * i) / 4 end})
      end
      for j = 0, TM / 4 - 1 do                -- Bs[k][tx TM + 4j .. +3]
        add(gpuperf.shared_load{bytes = 16, index = function(t)
          return (BK * AS + k * BM + (t.x % TX) * TM + 4 * j) / 4 end})
      end
      add(gpuperf.fp32{TM * TM, ilp = TM * TM})
    end
    add(gpuperf.barrier())
  end
  local tail = {}
  if TM == 1 then
    tail[1] = gpuperf.store{C, index = function(t) return (t.by * BM + t.y) * m + t.bx * BM + t.x end}
  else
    local TX = BM / TM
    for i = 0, TM - 1 do                      -- C[m0 + ty TM + i][n0 + tx TM .. + TM - 1]
      tail[#tail + 1] = gpuperf.store{C, bytes = 16, count = TM / 4, index = function(t)
        return ((t.by * BM + floor(t.x / TX) * TM + i) * m + t.bx * BM + (t.x % TX) * TM) / 4 end}
    end
  end
  local work = { gpuperf.int(12), gpuperf.loop{kdim / BK, var = "kt", body = trip} }
  for _, op in ipairs(tail) do work[#work + 1] = op end
  gpuperf.launch{
    name = "gemm_" .. shape .. (TM > 1 and "_" .. amode or ""), grid = { m / BM, m / BM },
    block = TM == 1 and { BM, BM } or threads, regs = regs, smem = smem, work = work,
  }
elseif kind == "bcast" then
  assert(vec == 4 or vec == 1, "vec must be 4 or 1")
  local smem_sm = gpuperf.device.shared_memory_per_sm_bytes
  local reserved = gpuperf.device.reserved_shared_memory_per_block_bytes or 0
  local pin = math.min(floor((smem_sm - reserved) / 1024) * 1024,
                       gpuperf.device.shared_memory_per_block_optin_bytes)
  local pos = gpuperf.buffer("pos", 4 * vec * npos)
  local out = gpuperf.buffer("out", 4 * sms * 32 * warps)
  assert(unroll >= 1 and npos % unroll == 0, "unroll must divide n")
  -- the compiled loop: `unroll` copies of a trip; their loads issue together,
  -- their chains interleave (each copy's chain starts from its own load), and
  -- only the accumulator carries from copy to copy. Not unrolled, the loop
  -- first moves the pointer from uniform registers (IMAD.U32, MOV) to the
  -- load's address registers (SASS of k_bcast<V, C, 1>)
  local u = unroll
  local body = {}
  if u == 1 then body[#body + 1] = gpuperf.int{2, ilp = 2} end
  for q = 0, u - 1 do
    body[#body + 1] = gpuperf.load{pos, bytes = 4 * vec, index = function(t) return u * t.j + q end}
  end
  if vec == 4 then
    body[#body + 1] = gpuperf.fp32{3 * u, ilp = 3 * u}    -- dx, dy, dz
    body[#body + 1] = gpuperf.fp32{3 * u, ilp = u}        -- dz*dz, then two FFMA
  else
    body[#body + 1] = gpuperf.fp32{u, ilp = u}            -- p - x
  end
  body[#body + 1] = gpuperf.fp32{chain * u, ilp = u}      -- u = fmaf(u, 0.5, w), c times
  body[#body + 1] = gpuperf.fp32(u)                       -- acc += u, copy after copy
  body[#body + 1] = gpuperf.int(2)                        -- pos += u: the 64-bit pointer add
  gpuperf.launch{
    name = string.format("bcast_f%d_c%d_u%d", vec, chain, unroll), grid = sms,
    block = 32 * warps, regs = regs, dynamic_smem = pin,
    work = {
      gpuperf.int(12), gpuperf.conv(3), gpuperf.fp32(3),  -- x, y, z of the thread
      gpuperf.loop(passes, { gpuperf.loop{npos / u, var = "j", unroll = 1, body = body} }),
      gpuperf.store{out, index = function(t) return t.gx end},
    },
  }
elseif kind == "stencil" then
  local n = npos
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
  gpuperf.launch{
    name = "stencil_smem_" .. bx .. "x" .. by, grid = { n / bx, n / by }, block = { bx, by },
    regs = regs, smem = 4 * W * (by + 2),
    work = {
      gpuperf.int(10),
      gpuperf.load{src, index = function(t) return gi(t, 0, 0) end},           -- in[i]
      gpuperf.shared_store{index = function(t) return (t.y + 1) * W + t.x + 1 end},
      -- the halo: `if (tx == 0)` and `if (tx == bx - 1)` in every warp (one lane
      -- per row of the warp), `if (ty == 0)` and `if (ty == by - 1)` in the one
      -- warp holding that row (count: the share of warps that issue; the index
      -- gives an issuing warp's lanes, those of the other rows of it nil)
      gpuperf.load{src, index = function(t) if t.x == 0 and t.gx > 0 then return gi(t, -1, 0) end end},
      gpuperf.shared_store{index = function(t) if t.x == 0 then return (t.y + 1) * W end end},
      gpuperf.load{src, index = function(t) if t.x == bx - 1 and t.gx < n - 1 then return gi(t, 1, 0) end end},
      gpuperf.shared_store{index = function(t)
        if t.x == bx - 1 then return (t.y + 1) * W + bx + 1 end end},
      gpuperf.load{src, count = yshare, index = function(t)
        if t.y % rows == 0 and t.by > 0 then return (t.by * by - 1) * n + t.gx end end},
      gpuperf.shared_store{count = yshare, index = function(t)
        if t.y % rows == 0 then return t.x + 1 end end},
      gpuperf.load{src, count = yshare, index = function(t)
        if t.y % rows == 0 and (t.by + 1) * by < n then return (t.by * by + by) * n + t.gx end end},
      gpuperf.shared_store{count = yshare, index = function(t)
        if t.y % rows == 0 then return (by + 1) * W + t.x + 1 end end},
      gpuperf.barrier(),
      gpuperf.int(3),
      gpuperf.shared_load{index = s(0, 0)},
      gpuperf.shared_load{index = s(-1, 0)},
      gpuperf.shared_load{index = s(1, 0)},
      gpuperf.shared_load{index = s(0, -1)},
      gpuperf.shared_load{index = s(0, 1)},
      gpuperf.fp32(6),
      gpuperf.store{dst, index = function(t) if inside(t) then return gi(t, 0, 0) end end},
    },
  }
else
  error("kind must be gemm, bcast or stencil, got '" .. tostring(kind) .. "'")
end
