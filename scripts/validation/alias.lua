-- alias.lua: loops that store into the buffer they load from (validation/h200/bench/
-- bench_alias.cu). Blocks of 256 threads, `bpsm` blocks per SM (1 and 2 pinned with
-- dynamic shared memory, 8 without), G = blocks x 256 threads; thread g runs `trips`
-- trips, trip k on element i = g + k G:
--   kind=mark_same    u = idx[i & (n - 1)] (random, const __restrict__: ld.global.nc);
--                     if (p[u] == -1) p[u] = 1          (p a plain pointer)
--   kind=mark_other   u = idx[i & (n - 1)]; if (p[u] == -1) q[u] = 1
--                     (p const __restrict__, q __restrict__); p is never -1: no store
--   kind=scale_same   p[i] = p[i] * s + t               (p a plain pointer)
--   kind=scale_other  q[i] = p[i] * s + t               (p const __restrict__)
-- ws=dram: n = 2^26 elements (256 MiB), L2 flushed before each launch. The bench's ws=l2
-- rows (n = 2^21, 8 MiB, warm) time single launches to an idle GPU, which a script cannot
-- single out from the launches that warm the L2: they are in the raw table only
-- (`reps` launches with divide_by describe back-to-back launches instead).
local kind = gpuperf.param("kind", "scale_same", "mark_same | mark_other | scale_same | scale_other")
local ws   = gpuperf.param("ws", "dram", "dram | l2")
local bpsm = gpuperf.param("bpsm", 1, "blocks per SM")
local trips = gpuperf.param("trips", 64, "trips per thread")
local n    = gpuperf.param("n", 2^26, "elements (ints or floats)")
local regs = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local reps = gpuperf.param("reps", 1, "launches (divide_by)")
assert(kind == "mark_same" or kind == "mark_other" or kind == "scale_same" or kind == "scale_other",
       "kind must be mark_same, mark_other, scale_same or scale_other, got '" .. tostring(kind) .. "'")
local sms = gpuperf.device.sm_count
local grid = sms * bpsm
local G = grid * 256
local dyn = require("lib_pin")(bpsm)  -- bpsm blocks an SM (dyn_smem_for_bpsm)
local p = gpuperf.buffer("p", 4 * n)
local q = gpuperf.buffer("q", 4 * n)
local idx = gpuperf.buffer("idx", 4 * n)
local body
if kind == "mark_same" or kind == "mark_other" then
  body = {
    gpuperf.int(3),                                             -- i & (n - 1), its address
    gpuperf.load{idx, space = "texture", index = function(t) return (t.gx + t.k * G) % n end},
    gpuperf.int(1),                                             -- the address of p[u]
    gpuperf.load{p, depends = true, space = kind == "mark_other" and "texture" or nil,
                 index = function(t) return gpuperf.random(0, n - 1) end},
    gpuperf.int(1), gpuperf.branch(1),                          -- p[u] == -1 ?
  }
  -- the store (predicated; never taken: p holds no -1): no lane stores
  if kind == "mark_same" then
    body[#body + 1] = gpuperf.store{p, index = function(t) return nil end}
  end
else
  local dst = kind == "scale_same" and p or q
  body = {
    gpuperf.int(2),                                             -- i += G, its address
    gpuperf.load{p, space = kind == "scale_other" and "texture" or nil,
                 index = function(t) return t.gx + t.k * G end},
    gpuperf.fp32(1),                                            -- p[i] * s + t
    gpuperf.store{dst, index = function(t) return t.gx + t.k * G end},
  }
end
local k = gpuperf.kernel{
  name = kind, grid = grid, block = 256, regs = regs, dynamic_smem = dyn,
  work = { gpuperf.int(4), gpuperf.loop{trips, var = "k", body = body} },
}
for r = 1, reps do
  if ws == "dram" then gpuperf.flush_l2() end   -- the bench's memset before each launch
  gpuperf.launch(k)
end
