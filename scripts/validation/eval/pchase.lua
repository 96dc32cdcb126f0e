-- pchase.lua: the pointer chase of the H200 evaluation set
-- (validation/h200/bench/eval_sparse.cuh, k_chase): nodes of 128 bytes (one line) over a
-- footprint; node k's first word holds the next node, (1664525 k + 1013904223) mod N, one
-- cycle through all N nodes. One block of `threads` threads; thread t starts at node
-- t * (N / threads) % N and follows `steps` links; each load's address is the value of
-- the one before.
local footprint = gpuperf.param("footprint", 2^22, "bytes of the node array")
local steps     = gpuperf.param("steps", 8192, "links followed per thread")
local threads   = gpuperf.param("threads", 1, "threads (one block)")
local nodes = footprint / 128
local p   = gpuperf.buffer("p", footprint)
local out = gpuperf.buffer("out", 4 * threads)
gpuperf.launch{
  name = "chase", grid = 1, block = threads, regs = 22,
  work = {
    -- j = (size_t)threadIdx.x * (nodes / blockDim.x) % nodes: run-time division and a
    -- 64-bit remainder
    gpuperf.idiv(1), gpuperf.int(1), gpuperf.imod(1),
    -- for (s = 0; s < steps; ++s) j = p[(size_t)j * 32]
    gpuperf.loop(steps, {
      gpuperf.int(1),                                   -- j * 32 + p: one 64-bit IMAD.WIDE
      gpuperf.load{p, depends = true, index = function(t)
        return gpuperf.random(0, nodes - 1) * 32 end},
    }),
    gpuperf.store{out, index = function(t) return t.x end},
  },
}
