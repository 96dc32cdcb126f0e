-- Pointer chasing in the manner of Mei & Chu ("Dissecting GPU Memory
-- Hierarchy through Microbenchmarking", TPDS 2017): one thread follows a
-- chain of `accesses` dependent loads through a `footprint`-byte array.
-- A footprint that fits L1 measures an L1 hit, one that fits L2 (with L1
-- bypassed, "cg") an L2 hit, a large one a DRAM access (their P1 and P4).
local footprint = gpuperf.param("footprint", 4096, "bytes the chain walks over")
local accesses  = gpuperf.param("accesses", 1048576, "dependent loads")
local cache     = gpuperf.param("cache", "default", "default, ca or cg")

-- The kernel's loop body is j = A[j] (unrolled 16 times): the next index
-- is the value just loaded, an index the data decide (gpuperf.random over
-- the array) that waits on the load before it (depends = true).
local arr = gpuperf.buffer("chain", footprint)
local n = footprint / 4
local per_trip = 16
gpuperf.launch{
  name = "chase", grid = 1, block = 1, regs = 8, global_cache = cache,
  work = {
    gpuperf.loop(accesses / per_trip, {
      gpuperf.load{arr, bytes = 4, count = per_trip, depends = true,
                   index = function(t) return gpuperf.random(0, n - 1) end},
    }),
  },
}
