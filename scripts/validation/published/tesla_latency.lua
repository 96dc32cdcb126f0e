-- Latency microbenchmarks of Wong et al., "Demystifying GPU Microarchitecture
-- through Microbenchmarking" (ISPASS 2010), as run on the GTX 280: a single
-- thread walks a chain of dependent operations, the loop body unrolled 256
-- times (the cudabmk repeat256 macro), timed with clock(); the latency is the
-- time per operation. Memory chains are pointer chases j = A[j] through a
-- buffer of `footprint` bytes; arithmetic chains are a = a op b.
--   op = "load": a load from `space` (global, shared, texture or constant)
--   op = "fp32", "fp64", "sfu", "int": a dependent arithmetic chain
-- The validation row divides the predicted total by `ops` (divide_by).
local op        = gpuperf.param("op", "load", "load, fp32, fp64, sfu or int")
local space     = gpuperf.param("space", "global", "global, shared, texture or constant")
local footprint = gpuperf.param("footprint", 1048576, "bytes the pointer chase walks")
local ops       = gpuperf.param("ops", 1048576, "dependent operations in the chain")
local unroll    = 256

-- A chase's body is j = A[j]: the next index is the value just loaded (an
-- index the data decide: gpuperf.random over the array) and waits on the
-- load before it (depends = true).
local chain = space ~= "shared" and gpuperf.buffer("chain", footprint) or nil
local n = footprint / 4
local body
if op == "load" and space == "shared" then
  body = gpuperf.shared_load{bytes = 4, pattern = "broadcast", count = unroll}
elseif op == "load" then
  body = gpuperf.load{chain, bytes = 4, space = space, count = unroll, depends = true,
                      index = function(t) return gpuperf.random(0, n - 1) end}
elseif op == "fp32" or op == "fp64" or op == "sfu" or op == "int" then
  body = gpuperf[op](unroll)
else
  error("op must be load, fp32, fp64, sfu or int")
end

gpuperf.launch{
  name = "chase_" .. (op == "load" and space or op), grid = 1, block = 1, regs = 8,
  work = { gpuperf.loop(ops / unroll, { body }) },
}
