-- access.lua: global-memory access patterns of the H200 validation set
-- (validation/h200/bench/kernels.cuh k_strided, bench_own.cu access family):
--   strided     out[i] = in[i * stride]
--   gather      out[i] = in[idx[i]], idx uniform random over `range` bytes
--   l2_reread   a 16 MiB buffer read `passes` times through L2 (__ldcg), float4
--   read_sum    float4 loads summed per warp with shuffles, one store per warp
local kernel = gpuperf.param("kernel", "strided", "strided | gather | l2_reread | read_sum")
local n      = gpuperf.param("n", 2^24, "outputs (strided, gather) or floats (read_sum)")
local stride = gpuperf.param("stride", 1, "strided: elements between consecutive threads")
local range  = gpuperf.param("range", 16 * 2^20, "gather: bytes of the gathered buffer")
local passes = gpuperf.param("passes", 64, "l2_reread: reads of the buffer")
local block  = 256

if kernel == "strided" then
  local src = gpuperf.buffer("in", 4 * n * stride)
  local dst = gpuperf.buffer("out", 4 * n)
  gpuperf.launch{
    name = "strided", grid = gpuperf.grid(math.ceil(n / block)), block = block, regs = 10,
    work = {
      gpuperf.int(16),                               -- index, i * stride, bounds check
      gpuperf.load{src, pattern = "stride", stride = stride},
      gpuperf.store{dst},
      gpuperf.branch(1),
    },
  }
elseif kernel == "gather" then
  local idx = gpuperf.buffer("idx", 4 * n)
  local src = gpuperf.buffer("in", range)
  local dst = gpuperf.buffer("out", 4 * n)
  gpuperf.launch{
    name = "gather", grid = gpuperf.grid(math.ceil(n / block)), block = block, regs = 10,
    work = {
      gpuperf.int(13),
      gpuperf.load{idx},                             -- idx[i], coalesced
      gpuperf.int(2),                                -- address of in[idx[i]]: depends on it
      gpuperf.load{src, pattern = "random"},         -- one random 4-byte read
      gpuperf.store{dst},
      gpuperf.branch(1),
    },
  }
elseif kernel == "l2_reread" then
  local bytes = 16 * 2^20
  local buf = gpuperf.buffer("buf", bytes)
  local out = gpuperf.buffer("out", 4 * 1024 * block)
  gpuperf.launch{
    name = "l2_reread", grid = 1024, block = block, regs = 20,
    global_cache = "cg",                             -- __ldcg: through L2 only
    work = {
      gpuperf.int(6),
      gpuperf.loop(passes, {
        gpuperf.load{buf, bytes = 16, count = 4, ilp = 4},  -- elements t, t+T, t+2T, t+3T
        gpuperf.fp32{16, ilp = 4},                   -- 4 FADD per float4
        gpuperf.int(2),
      }),
      gpuperf.store{out},
    },
  }
elseif kernel == "read_sum" then
  local src = gpuperf.buffer("in", 4 * n)
  local out = gpuperf.buffer("out", 4 * n / 128)
  gpuperf.launch{
    name = "read_sum", grid = gpuperf.grid(math.ceil(n / 4 / block)), block = block, regs = 14,
    work = {
      gpuperf.int(13),
      gpuperf.load{src, bytes = 16},                 -- one float4
      gpuperf.fp32(3),
      gpuperf.loop(5, { gpuperf.int(1), gpuperf.fp32(1) }),  -- shuffle tree
      gpuperf.store{out, pattern = "broadcast"},     -- lane 0 of each warp: one word
    },
  }
else
  error("kernel must be strided, gather, l2_reread or read_sum, not " .. tostring(kernel))
end
