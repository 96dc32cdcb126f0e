-- lib_scan.lua: the scan kernels of validation/h200/bench/eval_flow.cuh, shared by
-- scan.lua, radix.lua and graph.lua.
--   k_scan_block<BS>: inclusive scan of each tile of 4*BS u32 (thread t owns elements
--     base + 4t .. +3), a warp-shuffle scan of the thread totals, a second one of the warp
--     totals by warp 0, and the tile total to sums[blockIdx.x] when sums != 0.
--   k_scan_add: out[i] += sums[i / tile - 1] for i >= tile.
--   scan_full<BS>: tile scans writing tile totals to tmp, the totals scanned recursively
--     (in place, their own totals after them in tmp), then added back.
-- Registers and static shared memory from validation/h200/measured/logs/eval/
-- ptxas_bench_eval.txt (k_scan_block: 27 registers, BS/32*4 bytes; k_scan_add: 18).
local M = {}

local function cdiv(a, b) return math.floor((a + b - 1) / b) end
M.cdiv = cdiv

-- The warp-shuffle inclusive scan: log2(32) steps of __shfl_up_sync, then a compare of
-- the lane and a predicated add.
local function warp_scan()
  return gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.int(2) })
end

-- One launch of k_scan_block<bs> over n elements of `src` into `dst`; `sums` (or nil)
-- receives one total per block. opts: stream.
function M.block(name, src, dst, sums, n, bs, opts)
  local tile = 4 * bs
  local nb = cdiv(n, tile)
  local w = {
    gpuperf.int(6),   -- base = blockIdx.x*BS*4 + threadIdx.x*4 (64-bit), lane, warp
  }
  -- v[i] = base + i < n ? in[base + i] : 0 (four predicated 4-byte loads, 4 elements
  -- apart between neighbouring threads)
  -- (threads past n load nothing: their index is clamped to the last element here)
  for i = 0, 3 do
    w[#w + 1] = gpuperf.load{src, index = function(t)
      return math.min(t.bx * tile + 4 * t.x + i, n - 1) end}
  end
  w[#w + 1] = gpuperf.int(4)          -- the four bounds compares
  w[#w + 1] = gpuperf.int(3)          -- v[i] += v[i-1]
  w[#w + 1] = warp_scan()
  w[#w + 1] = gpuperf.shared_store{}  -- if (lane == 31) ws[w] = x
  w[#w + 1] = gpuperf.barrier()
  -- warp 0: s = ws[lane], its own warp scan, ws[lane] = s (the other warps wait at the
  -- barrier; the language has no "only warp 0", so every warp is described doing it)
  w[#w + 1] = gpuperf.int(2)
  w[#w + 1] = gpuperf.shared_load{}
  w[#w + 1] = warp_scan()
  w[#w + 1] = gpuperf.shared_store{}
  w[#w + 1] = gpuperf.barrier()
  w[#w + 1] = gpuperf.shared_load{pattern = "broadcast"}  -- ws[w - 1]
  w[#w + 1] = gpuperf.int(3)                              -- excl = x - t + ws[w-1]
  w[#w + 1] = gpuperf.int(8)                              -- v[i] + excl, four bounds compares
  for i = 0, 3 do
    w[#w + 1] = gpuperf.store{dst, index = function(t)
      return math.min(t.bx * tile + 4 * t.x + i, n - 1) end}
  end
  if sums then
    -- if (threadIdx.x == BS - 1) sums[blockIdx.x] = ws[BS/32 - 1]: one thread per block
    w[#w + 1] = gpuperf.int(2)
    w[#w + 1] = gpuperf.shared_load{pattern = "broadcast", count = 1 / bs}
    w[#w + 1] = gpuperf.store{sums, count = 1 / bs, index = function(t) return t.bx end}
  end
  gpuperf.launch{
    name = name, grid = nb, block = bs, regs = 27, smem = bs / 32 * 4,
    stream = opts and opts.stream, work = w,
  }
  return nb
end

-- One launch of k_scan_add: out[i] += sums[i / tile - 1] (i >= tile), grid n/256.
function M.add(name, dst, sums, n, tile, opts)
  gpuperf.launch{
    name = name, grid = cdiv(n, 256), block = 256, regs = 18, stream = opts and opts.stream,
    work = {
      gpuperf.int(4),                -- i = blockIdx.x*blockDim.x + threadIdx.x (64-bit), two compares
      gpuperf.idiv(1),               -- i / tile: 64-bit unsigned division by a runtime value
      gpuperf.int(2),                -- - 1, the address
      gpuperf.load{sums, index = function(t)
        return math.max(math.floor(t.gx / tile) - 1, 0) end},
      gpuperf.load{dst},
      gpuperf.int(1),
      gpuperf.store{dst},
    },
  }
end

-- scan_full<bs>(src, dst, n, tmp): the launches in the order the recursion issues them.
-- The recursion works in place in one scratch allocation; each level's totals are their
-- own buffer here (`prefix`_tmpL), sized as the level they hold. `bufs` (optional) keeps
-- those buffers between calls, so that a repeated scan reuses its scratch.
function M.full(prefix, src, dst, n, bs, opts, level, bufs)
  level = level or 0
  bufs = bufs or {}
  local tile = 4 * bs
  local nb = cdiv(n, tile)
  local tmp = nil
  if nb > 1 then
    bufs[level] = bufs[level] or gpuperf.buffer(prefix .. "_tmp" .. level, 4 * nb)
    tmp = bufs[level]
  end
  local blocks = M.block(prefix .. "_block" .. level, src, dst, tmp, n, bs, opts)
  if nb > 1 then
    blocks = blocks + M.full(prefix, tmp, tmp, nb, bs, opts, level + 1, bufs)
    M.add(prefix .. "_add" .. level, dst, tmp, n, tile, opts)
    blocks = blocks + cdiv(n, 256)
  end
  return blocks
end

return M
