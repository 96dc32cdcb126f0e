-- cold.lua: dependent loads of one block through a cold L2 (validation/h200/bench/bench_cold.cu)
--
-- One launch of `blocks` blocks (1, or one per SM) of `threads` threads after the L2 was
-- flushed. The buffer holds footprint / node nodes of `node` bytes (128: one per line;
-- 32: one per sector), a 32-bit word at the start of each. Thread t of the grid's T
-- starts at node t * (nodes / T) % nodes and follows `steps` links, each load's address
-- coming from the value of the load before it:
--   mode = "cycle": node j holds the next node of one random cycle through all nodes;
--   mode = "draw": node j holds a random word r; the next node is a hash of r, the step
--     and the thread, ((r ^ s * 0x9e3779b9 ^ t * 0x6a09e667) * 0x85ebca6b) >> (32 - log2
--     nodes): a fresh draw.
-- Either way the kernel reads an index from data: a user writes the node as a draw of
-- gpuperf.random scaled to the node's first word.
--
-- SASS (validation/h200/measured/run10/cold/sass_cold.txt.gz): a link is IMAD.WIDE.U32
-- (j * words, words a kernel argument), LEA and LEA.HI.X (the address), then LDG.E;
-- the draw adds LOP3, IMAD and SHF (the hash) and a VIADD before them. The loop is
-- unrolled by 4; at each eighth of the steps the thread stores the chased value and
-- the clock (two STG).
local mode      = gpuperf.param("mode", "cycle", "cycle | draw")
local node      = gpuperf.param("node", 128, "bytes per node (128 or 32)")
local footprint = gpuperf.param("footprint", 2^22, "bytes of the node array")
local steps     = gpuperf.param("steps", 8192, "links followed per thread")
local threads   = gpuperf.param("threads", 1, "threads per block")
local blocks    = gpuperf.param("blocks", 1, "blocks (1, or one per SM)")
local regs      = gpuperf.param("regs", 28, "registers per thread, as ptxas reports")
assert(mode == "cycle" or mode == "draw", "mode must be cycle or draw, got " .. tostring(mode))
local words = node / 4
local nodes = footprint / node
local p    = gpuperf.buffer("p", footprint)
local out  = gpuperf.buffer("out", 4 * threads * blocks)
local sink = gpuperf.buffer("sink", 4 * threads * blocks)
local seg  = gpuperf.buffer("seg", 8 * 9 * threads * blocks)
-- bench_cold writes the 1 GiB scratch before every repetition and launches behind it
gpuperf.flush_l2()
gpuperf.launch{
  name = "k_cold", grid = blocks, block = threads, regs = regs,
  work = {
    -- j = (size_t)t * (nodes / T) % nodes
    gpuperf.idiv(1), gpuperf.int(1), gpuperf.imod(1),
    gpuperf.store{seg, bytes = 8, index = function(t) return 9 * t.gx end},
    gpuperf.loop(8, {
      gpuperf.loop(steps / 8, {
        gpuperf.int(mode == "draw" and 7 or 3),
        gpuperf.load{p, depends = true, walk = mode == "draw" and "draws" or "cycle",
                     index = function(t) return gpuperf.random(0, nodes - 1) * words end},
      }),
      gpuperf.store{sink, index = function(t) return t.gx end},
      gpuperf.store{seg, bytes = 8, index = function(t) return 9 * t.gx end},
    }),
    gpuperf.store{out, index = function(t) return t.gx end},
  },
}
