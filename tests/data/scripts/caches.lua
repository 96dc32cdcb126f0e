-- The cache model's behaviours (docs/model.md, "Caches"): one kernel per case.
--   rowwalk   a thread per row walks its row 4 bytes per iteration
--   rows2     a warp of two 16-thread rows reads 4-byte words of a row
--   chase     a dependent chase through `bytes` of memory (threads per block)
--   coldwalk  the first `lanes` lanes of one warp chasing 128-byte nodes through
--             `bytes` behind an L2 flush; walk = "cycle" (a linked cycle) or "draws"
--   reread    a kernel reading `bytes` twice: the shorthand in a loop of two
--             passes, the grid covering the buffer, so the re-reads come back
--             at the distance of the buffer (an SM's share of it in L1);
--             cache = "cg" sends the loads past L1
--   twice     two launches reading one buffer of `bytes`; flush=1 empties the L2 between
--             by the benchmark's write of a scratch buffer, flush=2 by a read of one
--   pair      two kernels in two streams, each reading its own `bytes` buffer 4 times
local case = gpuperf.param("case", "rowwalk",
                           "rowwalk | rows2 | chase | coldwalk | reread | twice | pair")
local bytes = gpuperf.param("bytes", 2^24, "working set, bytes")
local threads = gpuperf.param("threads", 32, "chase: threads per block")
local hops = gpuperf.param("hops", 4096, "chase: dependent loads per thread")
local flush = gpuperf.param("flush", 0, "twice: 1 flushes the L2 between the launches, 2 with a clean flush")
local cache = gpuperf.param("cache", "default", "reread: global loads default | ca | cg")
local lanes = gpuperf.param("lanes", 1, "coldwalk: lanes of the warp that chase")
local walk = gpuperf.param("walk", "cycle", "coldwalk: cycle | draws")

if case == "rowwalk" then
  local rows, cols = 8192, 1024
  local a = gpuperf.buffer("a", 4 * rows * cols)
  local y = gpuperf.buffer("y", 4 * rows)
  gpuperf.launch{
    name = "rowwalk", grid = rows / 128, block = 128, regs = 16,
    work = {
      gpuperf.loop{cols, var = "k", body = {
        gpuperf.load{a, index = function(t) return t.gx * cols + t.k end},
        gpuperf.fp32(1),
      }},
      gpuperf.store{y, index = function(t) return t.gx end},
    },
  }
elseif case == "rows2" then
  local n = 4096
  local a = gpuperf.buffer("a", 4 * n * n)
  gpuperf.launch{
    name = "rows2", grid = {n / 16, n / 16}, block = {16, 16}, regs = 16,
    work = { gpuperf.load{a, index = function(t) return (t.by * 16 + t.y) * n + t.bx * 16 + t.x end} },
  }
elseif case == "chase" then
  local buf = gpuperf.buffer("buf", bytes)
  gpuperf.launch{
    name = "chase", grid = 1, block = threads, regs = 16,
    work = { gpuperf.loop{hops, var = "h", body = {
      gpuperf.load{buf, bytes = 8, depends = true,
                   index = function(t) return gpuperf.random(0, bytes / 8 - 1) end},
    }} },
  }
elseif case == "coldwalk" then
  local buf = gpuperf.buffer("buf", bytes)
  gpuperf.flush_l2()
  gpuperf.launch{
    name = "coldwalk", grid = 1, block = 32, regs = 16,
    work = { gpuperf.loop{hops, var = "h", body = {
      gpuperf.load{buf, bytes = 8, depends = true, walk = walk, index = function(t)
        if t.lane >= lanes then return nil end
        return gpuperf.random(0, bytes / 128 - 1) * 16 end},
    }} },
  }
elseif case == "reread" then
  local buf = gpuperf.buffer("buf", bytes)
  local n = bytes / 16
  gpuperf.launch{
    name = "reread", grid = n / 256, block = 256, regs = 16, global_cache = cache,
    work = { gpuperf.loop(2, { gpuperf.load{buf, bytes = 16} }) },
  }
elseif case == "twice" then
  local buf = gpuperf.buffer("buf", bytes)
  local n = bytes / 16
  for i = 1, 2 do
    if i == 2 and flush > 0 then gpuperf.flush_l2{clean = flush == 2} end
    gpuperf.launch{
      name = "read" .. i, grid = n / 256, block = 256, regs = 16,
      work = { gpuperf.load{buf, bytes = 16} },
    }
  end
elseif case == "pair" then
  local n = bytes / 16
  for i = 1, 2 do
    local buf = gpuperf.buffer("buf" .. i, bytes)
    gpuperf.launch{
      name = "pass" .. i, stream = gpuperf.stream(), grid = 66, block = 1024, regs = 16,
      work = { gpuperf.loop{4 * n / (66 * 1024), body = { gpuperf.load{buf, bytes = 16} }} },
    }
  end
end
