-- depgather.lua: gathers whose addresses come from an index stream, against the same
-- gathers and the same stream apart (validation/h200/bench/bench_depgather.cu, family
-- `depgather`).
--
-- Every thread runs `trips` trips of a grid-stride loop over idx (ints, const
-- __restrict__: LDG.E.CONSTANT), i = (g + k G) & (n - 1), G the grid's threads:
--   kind = dep    acc += p[idx[i]]                  (the gather waits for its index)
--   kind = indep  x = lcg(x); acc += idx[i] + p[(x >> 6) & (n - 1)]
--   kind = gonly  x = lcg(x); acc += p[(x >> 6) & (n - 1)]
--   kind = ionly  acc += idx[i]
--   kind = gplain gonly through a plain pointer (LDG.E, not LDG.E.CONSTANT)
-- idx holds random ints in [0, n); p is const __restrict__ too. The loop is pinned to
-- `u` copies (`#pragma unroll u`: with u = 4 the four index loads, then the four
-- gathers). Blocks of 256 threads, `bpsm` per SM on every SM, pinned with dynamic
-- shared memory (bpsm = 8: none).
--   ws = dram  n = 2^26 (256 MiB each), the 1 GiB memset flush before the launch
--   ws = l2    n = 2^21 (8 MiB each), no flush: the bench's warm-ups leave both in L2
--              (in_l2); `reps` launches and the table's divide_by
-- SASS (validation/h200/measured/run27/depgather/sass_depgather.txt.gz), a trip of dep:
-- IMAD.WIDE.U32 (the index's address), LDG, IMAD.WIDE (the gather's), LDG, IADD3 (the
-- next i), IMAD.IADD (acc), the counter and branch; the LCG kinds an IMAD, a SHF and a
-- LOP3 for the draw.
local kind  = gpuperf.param("kind", "dep", "dep | indep | gonly | ionly | gplain")
local ws    = gpuperf.param("ws", "dram", "dram | l2")
local u     = gpuperf.param("u", 1, "copies of the loop a trip: 1 or 4")
local bpsm  = gpuperf.param("bpsm", 1, "blocks of 256 threads per SM: 1, 2, 4 or 8")
local trips = gpuperf.param("trips", 64, "trips per thread")
local regs  = gpuperf.param("regs", 22, "registers per thread, as ptxas reports")
local reps  = gpuperf.param("reps", 1, "launches")
assert(kind == "dep" or kind == "indep" or kind == "gonly" or kind == "ionly" or kind == "gplain",
       "kind must be dep, indep, gonly, ionly or gplain, got '" .. tostring(kind) .. "'")
assert(ws == "dram" or ws == "l2", "ws must be dram or l2, got '" .. tostring(ws) .. "'")
local warm = {in_l2 = ws == "l2"}  -- the bench's warm-ups leave the data in L2
assert(u == 1 or u == 4, "u must be 1 or 4")

local d = gpuperf.device
local sms = d.sm_count
local n = ws == "dram" and 2^26 or 2^21
local grid = sms * bpsm
local G = grid * 256
local dyn = require("lib_pin")(bpsm)  -- bpsm blocks an SM (dyn_smem_for_bpsm)
local idx = gpuperf.buffer("idx", 4 * n, warm)
local p = gpuperf.buffer("p", 4 * n, warm)
local out = gpuperf.buffer("out", 4 * G, warm)

local function index_load()
  return gpuperf.load{idx, space = "texture", index = function(t) return (t.gx + t.k * G) % n end}
end
local function gather(dep, plain)
  return gpuperf.load{p, space = not plain and "texture" or nil, depends = dep or nil,
                      index = function(t) return gpuperf.random(0, n - 1) end}
end
local body
if kind == "dep" then
  body = { gpuperf.int(1), index_load(), gpuperf.int(1), gather(true), gpuperf.int(2) }
elseif kind == "indep" then
  body = { gpuperf.int(4), index_load(), gather(false), gpuperf.int(3) }
elseif kind == "gonly" or kind == "gplain" then
  body = { gpuperf.int(4), gather(false, kind == "gplain"), gpuperf.int(1) }
else
  body = { gpuperf.int(1), index_load(), gpuperf.int(2) }
end
local k = gpuperf.kernel{
  name = kind, grid = grid, block = 256, regs = regs, dynamic_smem = dyn,
  work = {
    gpuperf.int(6),                                  -- g, G, the seed's hash
    gpuperf.loop{trips, var = "k", unroll = u, body = body},
    gpuperf.barrier(),
    gpuperf.store{out},
  },
}
for _ = 1, reps do
  if ws == "dram" then gpuperf.flush_l2() end
  gpuperf.launch(k)
  gpuperf.synchronize()
end
