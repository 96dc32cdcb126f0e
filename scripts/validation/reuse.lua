-- reuse.lua: re-use of loaded data in L1 and L2 (validation/h200/bench/bench_reuse.cu)
--
-- kind = "own" (k_own<D>): feature-major data x[f * pitch + g] (f < d, g the global
-- thread index, pitch = n + pad, n the threads of the grid), re-read by each thread
-- once per trip of an outer loop of `trips` trips whose counter is not in the index
-- (s += (x - c_r)^2: an FADD and an FFMA per word; ld.global.ca.f32 in volatile asm,
-- the inner loop unrolled by 8). 256-thread blocks, `blocks` per SM (dynamic shared
-- memory of carve-out / blocks - 1 KiB each), a carve-out of `carveout` KiB
-- (cudaFuncAttributePreferredSharedMemoryCarveout `pct` percent, rounded up to that
-- step), 4 waves. The L2 is flushed before each launch.
--
-- kind = "tile" (k_tile): C = A * B, n x n floats, one element a thread, blocks
-- bx x by; s += A[row * n + k] * B[k * n + col] for k < n (threadIdx.x -> col: the
-- lanes on one row read one word of A, consecutive words of B). L2 flushed.
--
-- kind = "sweep" (k_sweep): `passes` passes over a buffer of `size` bytes, 8 blocks
-- of 256 per SM, lanes 0..lanes-1 of a warp load; `full` = 0: in request i lane l
-- reads the first word of line i * lanes + l; `full` = 1: the 32 lanes read line i.
-- Warp w takes requests w, w + W, ... (grid-stride). bench_reuse times each launch
-- alone after 2 warm-ups without a flush: the rows divide `reps` launches.
--
-- SASS (validation/h200/measured/run8/reuse/sass_reuse.txt.gz): k_own's loads are
-- LDG.E.STRONG.SM; nvcc hoists those it unrolls whole out of the outer loop (all
-- of them for d <= 8, the d % 8 remainder otherwise: d = 10, 12, 14 re-read 8 words
-- a trip), an address IMAD.WIDE and two FFMAs per word; k_tile's
-- loop (unrolled by 4) two LDG.E, an FFMA and the addresses' integer ops per k;
-- k_sweep's (unrolled by 4) an LDG.E, an FADD and two integer ops per request.
local kind     = gpuperf.param("kind", "own", "own | tile | sweep")
local d        = gpuperf.param("d", 16, "own: words per thread")
local blocks   = gpuperf.param("blocks", 1, "own: blocks per SM (1, 2, 4 or 8)")
local carve    = gpuperf.param("carveout", 8, "own: shared memory carve-out per SM, KiB")
local pct      = gpuperf.param("pct", 3, "own: the carve-out preference asked for, percent")
local trips    = gpuperf.param("trips", 32, "own: outer-loop trips")
local pad      = gpuperf.param("pad", 32, "own: floats of the pitch beyond n")
local n        = gpuperf.param("n", 1024, "tile: matrix side")
local bx       = gpuperf.param("bx", 16, "tile: block width")
local by       = gpuperf.param("by", 16, "tile: block height")
local size     = gpuperf.param("size", 2^25, "sweep: bytes of the buffer")
local lanes    = gpuperf.param("lanes", 32, "sweep: lanes of each warp that load")
local full     = gpuperf.param("full", 0, "sweep: 1: the 32 lanes read one line")
local passes   = gpuperf.param("passes", 8, "sweep: passes a launch")
local regs     = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local reps     = gpuperf.param("reps", 1, "sweep: launches, each waited for")
local sms = gpuperf.device.sm_count

if kind == "own" then
  assert(blocks == 1 or blocks == 2 or blocks == 4 or blocks == 8, "blocks must be 1, 2, 4 or 8")
  assert(d >= 1, "d must be at least 1")
  local grid = 4 * blocks * sms
  local T = grid * 256
  local pitch = T + pad
  local dyn = blocks == 8 and carve == 8 and 0 or math.floor(carve / blocks) * 1024 - 1024
  local x = gpuperf.buffer("x", 4 * d * pitch)
  local out = gpuperf.buffer("out", 4 * T)
  gpuperf.flush_l2()
  -- nvcc hoists the loads it unrolls whole out of the outer loop (the asm has
  -- no memory clobber): all d of them for d <= 8, the d % 8 of the remainder
  -- otherwise; the 8-wide groups of the inner loop stay in it
  local hoisted = d <= 8 and d or d % 8
  local inner = d - hoisted
  local work = { gpuperf.int(2) }                -- g
  if hoisted > 0 then
    work[#work + 1] = gpuperf.loop{hoisted, var = "h", body = {
      gpuperf.int(1),                            -- the address
      gpuperf.load{x, index = function(t) return (inner + t.h) * pitch + t.gx end},
    }}
  end
  local body = { gpuperf.fp32(1) }               -- c = r / 4
  if inner > 0 then
    body[#body + 1] = gpuperf.loop{inner, var = "f", body = {
      gpuperf.int(1),                            -- q += pitch
      gpuperf.load{x, index = function(t) return t.f * pitch + t.gx end},
      gpuperf.fp32(2),                           -- (v - c)^2 + s
    }}
  end
  if hoisted > 0 then body[#body + 1] = gpuperf.fp32(2 * hoisted) end
  work[#work + 1] = gpuperf.loop{trips, var = "r", body = body}
  work[#work + 1] = gpuperf.store{out, index = function(t) return t.gx end}
  gpuperf.launch{
    name = "k_own_d" .. d, grid = grid, block = 256, regs = regs,
    dynamic_smem = dyn, carveout = pct, work = work,
  }
elseif kind == "tile" then
  assert(n % bx == 0 and n % by == 0, "n must be a multiple of bx and by")
  local A = gpuperf.buffer("A", 4 * n * n)
  local B = gpuperf.buffer("B", 4 * n * n)
  local C = gpuperf.buffer("C", 4 * n * n)
  gpuperf.flush_l2()
  gpuperf.launch{
    name = "k_tile", grid = {n / bx, n / by}, block = {bx, by}, regs = regs,
    work = {
      gpuperf.int(6),
      gpuperf.loop{n, var = "k", body = {
        gpuperf.int(2),
        gpuperf.load{A, index = function(t) return t.gy * n + t.k end},
        gpuperf.load{B, index = function(t) return t.k * n + t.gx end},
        gpuperf.fp32(1),
      }},
      gpuperf.store{C, index = function(t) return t.gy * n + t.gx end},
    },
  }
elseif kind == "sweep" then
  assert(lanes >= 1 and lanes <= 32 and 32 % lanes == 0, "lanes must divide 32")
  assert(full == 0 or (full == 1 and lanes == 32), "full = 1 needs lanes = 32")
  local lines = math.floor(size / 128)
  local grid = 8 * sms
  local W = grid * 8
  local nreq = full == 1 and lines or math.floor(lines / lanes)
  local x = gpuperf.buffer("x", size)
  local out = gpuperf.buffer("out", 4 * W * 32)
  local kernel = gpuperf.kernel{
    name = full == 1 and "k_sweep_full" or "k_sweep_lines", grid = grid, block = 256,
    regs = regs,
    work = {
      gpuperf.int(6),
      gpuperf.loop{passes, var = "p", body = {
        gpuperf.loop{nreq / W, var = "i", body = {
          gpuperf.int(2),
          gpuperf.load{x, index = function(t)
            if t.lane >= lanes then return nil end
            local w = math.floor(t.gx / 32)
            local i = t.i * W + w
            if i >= nreq then return nil end
            if full == 1 then return i * 32 + t.lane end
            return (i * lanes + t.lane) * 32 end},
          gpuperf.fp32(1),
        }},
      }},
      gpuperf.store{out, index = function(t)
        if t.lane >= lanes then return nil end
        return t.gx end},
    },
  }
  for _ = 1, reps do gpuperf.launch(kernel); gpuperf.synchronize() end
else
  error("kind must be own, tile or sweep, got '" .. tostring(kind) .. "'")
end
