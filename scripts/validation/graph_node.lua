-- graph_node.lua: the graph_node calibration family (validation/h200/bench/bench_graph.cu).
-- `branches` independent chains of `nodes` launches of k_chain<<<grid, 32>>>: every thread
-- runs `iters` dependent FMAs and stores its result. shape=graph captures the chains once
-- (forked from and joined to the stream "main") and replays the graph with one launch;
-- shape=stream issues the same launches on `branches` streams, node k of every branch
-- before node k+1 of any.
local shape    = gpuperf.param("shape", "graph", "graph | stream")
local branches = gpuperf.param("branches", 1, "independent chains")
local nodes    = gpuperf.param("nodes", 200, "launches per chain")
local iters    = gpuperf.param("iters", 1000, "dependent FMAs per thread")
local grid     = gpuperf.param("grid", 1, "blocks of 32 threads per launch")

local main = gpuperf.stream("main")
local out = {}
for b = 1, branches do out[b] = gpuperf.buffer("out" .. b, 4 * 32 * grid) end

local function chain(b, s)
  gpuperf.launch{
    name = "chain", grid = grid, block = 32, regs = 8, stream = s,
    work = {
      gpuperf.int(2),                                   -- threadIdx.x to float, iters >= 1
      -- one dependent chain of `iters` FMAs, x = fmaf(x, a, b) (the loop's own control
      -- is the loop's: nvcc unrolls it by 16)
      gpuperf.loop{iters, body = { gpuperf.fp32(1) }},
      gpuperf.int(2),                                   -- blockIdx.x * blockDim.x + tid
      gpuperf.store{out[b]},
    },
  }
end

local fork = gpuperf.event("fork")
local st, join = {}, {}
for b = 1, branches do st[b] = gpuperf.stream("s" .. b); join[b] = gpuperf.event("join" .. b) end

local function body()
  gpuperf.record(fork, main)
  for b = 1, branches do gpuperf.wait(st[b], fork) end
  for k = 1, nodes do
    for b = 1, branches do chain(b, st[b]) end
  end
  for b = 1, branches do
    gpuperf.record(join[b], st[b])
    gpuperf.wait(main, join[b])
  end
end

if shape == "graph" then
  gpuperf.graph(body, "chains"):launch{ stream = main }
elseif shape == "stream" then
  body()
else
  error("shape must be graph or stream, got " .. tostring(shape))
end
