-- multigpu.lua: the two-GPU family of the H200 validation set
-- (validation/h200/bench/bench_multigpu.cu: two H200 SXM linked by NVLink,
-- NV18). The workload runs on two identical GPUs, 0 and 1.
--   peer     cudaMemcpyPeerAsync of `bytes` from GPU `from` to the other
--   bidir    `bytes` each way at once: 0 -> 1 in GPU 0's stream, 1 -> 0 in
--            a stream of GPU 1 (each direction of the link has its own
--            bandwidth: nvlink_bandwidth_gbps is one direction)
--   triad1   the stream triad a = b + s * c over n floats on GPU 0
--   split    the triad split in halves: GPU 0 computes [0, n/2) and GPU 1
--            [n/2, n) from its own copies of b and c, both at once
--   gather   split, then GPU 1 copies its half of a (2n bytes) into GPU 0's
-- Times run from the first command to the last completion (CUDA events on
-- GPU 0's stream, GPU 1's work joined back with an event).
local case  = gpuperf.param("case", "peer", "peer | bidir | triad1 | split | gather")
local bytes = gpuperf.param("bytes", 2^30, "peer, bidir: bytes per copy")
local from  = gpuperf.param("from", 0, "peer: the GPU the bytes leave (0 or 1)")
local n     = gpuperf.param("n", 2^28, "triad1, split, gather: elements (floats)")
local block = 256

if gpuperf.device_count < 2 then
  gpuperf.use_devices(2)
end

-- the triad of stream.lua (k_triad, one element per thread) over m floats
local function triad(m, device, stream)
  local a = gpuperf.buffer("a" .. device, 4 * m)
  local b = gpuperf.buffer("b" .. device, 4 * m)
  local c = gpuperf.buffer("c" .. device, 4 * m)
  gpuperf.launch{
    name = "triad", grid = gpuperf.grid(math.ceil(m / block)), block = block, regs = 12,
    device = device, stream = stream,
    work = {
      gpuperf.int(15),
      gpuperf.load{b}, gpuperf.load{c},
      gpuperf.fp32(1),
      gpuperf.store{a},
      gpuperf.branch(1),
    },
  }
end

if case == "peer" then
  assert(from == 0 or from == 1, "from must be 0 or 1")
  gpuperf.copy{ kind = "p2p", bytes = bytes, device = from, peer = 1 - from }
elseif case == "bidir" then
  gpuperf.copy{ kind = "p2p", bytes = bytes, device = 0, peer = 1 }
  gpuperf.copy{ kind = "p2p", bytes = bytes, device = 1, peer = 0, stream = gpuperf.stream("gpu1") }
elseif case == "triad1" then
  triad(n, 0)
elseif case == "split" or case == "gather" then
  local gpu1 = gpuperf.stream("gpu1")
  triad(n / 2, 0)
  triad(n / 2, 1, gpu1)
  if case == "gather" then
    gpuperf.copy{ kind = "p2p", bytes = 4 * (n / 2), device = 1, peer = 0, stream = gpu1 }
  end
else
  error("case must be peer, bidir, triad1, split or gather, not " .. tostring(case))
end
