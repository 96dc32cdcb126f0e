-- graph.lua: the graph family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, fam_graph): the same work enqueued in the bench's stream ("main", a
-- non-blocking stream) or captured once into a CUDA graph and replayed with one
-- cudaGraphLaunch. No row is flushed.
--   work=tiny: `launches` k_tiny<<<1, 32>>> in sequence (8 regs): thread 0 adds 1 to p[0].
--   work=four_branches: four chains of 250 k_tiny, each in its own stream (fork and join
--     events through main), or one graph of four branches.
--   work=scan: scan_full<256> of 2^20 u32 (lib_scan.lua).
--   work=conv: k_conv_rows then k_conv_cols on a 1024 x 1024 image (lib_conv.lua).
-- The bench times each repetition alone between two events on main, the host waiting
-- for each, so the scan and conv rows find their inputs where the repetition before
-- left them: run them with warm = 1 (the work once untimed, the host's wait, then the
-- work timed with gpuperf.elapsed).
local S = require("lib_scan")
local C = require("lib_conv")
local what     = gpuperf.param("work", "tiny", "tiny | four_branches | scan | conv")
local graph    = gpuperf.param("graph", 0, "0: enqueue in the stream; 1: capture once, launch the graph")
local launches = gpuperf.param("launches", 100, "tiny: launches")
local warm     = gpuperf.param("warm", 0, "1: the work once untimed first, the work after it timed")

local main = gpuperf.stream("main")
local cnt = gpuperf.buffer("cnt", 16)

local function tiny(slot, s)
  gpuperf.launch{
    name = "tiny", grid = 1, block = 32, regs = 8, stream = s,
    work = {
      gpuperf.int(3), gpuperf.branch(1),        -- threadIdx.x == 0 && blockIdx.x == 0
      gpuperf.load{cnt, count = 1 / 32, index = function(t) return slot end},
      gpuperf.int(1),
      gpuperf.store{cnt, count = 1 / 32, index = function(t) return slot end},
    },
  }
end

local body
if what == "tiny" then
  body = function() for i = 1, launches do tiny(0, main) end end
elseif what == "four_branches" then
  local fork = gpuperf.event("fork")
  local st, join = {}, {}
  for j = 1, 4 do st[j] = gpuperf.stream("s" .. j); join[j] = gpuperf.event("join" .. j) end
  body = function()
    gpuperf.record(fork, main)
    for j = 1, 4 do
      gpuperf.wait(st[j], fork)
      for i = 1, 250 do tiny(j - 1, st[j]) end
      gpuperf.record(join[j], st[j])
    end
    for j = 1, 4 do gpuperf.wait(main, join[j]) end
  end
elseif what == "scan" then
  local n = 2^20
  local src, dst = gpuperf.buffer("in", 4 * n), gpuperf.buffer("out", 4 * n)
  local tmp = {}
  -- one set of level buffers for every repetition (the same scratch is reused)
  body = function() S.full("scan", src, dst, n, 256, { stream = main }, 0, tmp) end
elseif what == "conv" then
  local n = 1024
  local img, tmp, out = gpuperf.buffer("img", 4 * n * n), gpuperf.buffer("tmp", 4 * n * n),
                        gpuperf.buffer("out", 4 * n * n)
  local filt = gpuperf.buffer("c_filt", 4 * 17 * 17)
  body = function() C.rows_then_cols("conv", img, tmp, out, filt, n, { stream = main }) end
else
  error("work must be tiny, four_branches, scan or conv, got " .. tostring(what))
end

local run = body
if graph == 1 then
  local g = gpuperf.graph(body, "captured")
  run = function() g:launch{ stream = main } end
end
if warm == 1 then
  require("lib_timed")(run, main)
else
  run()
end
