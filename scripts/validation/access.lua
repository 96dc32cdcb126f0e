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

-- the kernels' i = blockIdx.x * blockDim.x + threadIdx.x over a 1-D grid of
-- `blocks` blocks as gpuperf.grid lays it out (folded into y where grid.x is
-- limited, on 1.x and 2.x)
local function grid1d(blocks)
  local g = gpuperf.grid(blocks)
  local gx = type(g) == "table" and (g.x or g[1]) or g
  return g, function(t) return (t.by * gx + t.bx) * block + t.x end
end

if kernel == "strided" then
  gpuperf.flush_l2()   -- the shared set's scratch write before every repetition
  local src = gpuperf.buffer("in", 4 * n * stride)
  local dst = gpuperf.buffer("out", 4 * n)
  local grid, gid = grid1d(math.ceil(n / block))
  gpuperf.launch{
    name = "strided", grid = grid, block = block, regs = 10,
    work = {
      gpuperf.int(16),                               -- index, i * stride, bounds check
      gpuperf.load{src, index = function(t)          -- in[i * stride]
        local i = gid(t)
        if i < n then return i * stride end end},
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
      -- in[idx[i]]: idx[i] = hash32(i) & (words - 1), uniform over the buffer
      gpuperf.load{src, depends = true,
                   index = function(t) return gpuperf.random(0, range / 4 - 1) end},
      gpuperf.store{dst},
      gpuperf.branch(1),
    },
  }
elseif kernel == "l2_reread" then
  local bytes = 16 * 2^20
  local buf = gpuperf.buffer("buf", bytes)
  local out = gpuperf.buffer("out", 4 * 1024 * block)
  local T = 1024 * block                             -- gridDim.x * blockDim.x
  -- for (i = t; i < n4; i += T): n4 / T = 4 trips of a loop nvcc unrolls
  local reads = gpuperf.loop{bytes / 16 / T, var = "j", body = {
    gpuperf.load{buf, bytes = 16, index = function(t) return t.j * T + t.gx end},
  }}
  gpuperf.launch{
    name = "l2_reread", grid = 1024, block = block, regs = 20,
    global_cache = "cg",                             -- __ldcg: through L2 only
    work = {
      gpuperf.int(6),
      gpuperf.loop(passes, {
        reads,                                       -- elements t, t+T, t+2T, t+3T
        gpuperf.fp32{16, ilp = 4},                   -- 4 FADD per float4
        gpuperf.int(2),
      }),
      gpuperf.store{out},
    },
  }
elseif kernel == "read_sum" then
  local src = gpuperf.buffer("in", 4 * n)
  local out = gpuperf.buffer("out", 4 * n / 128)
  local grid, gid = grid1d(math.ceil(n / 4 / block))
  gpuperf.launch{
    name = "read_sum", grid = grid, block = block, regs = 14,
    work = {
      gpuperf.int(13),
      gpuperf.load{src, bytes = 16},                 -- one float4
      gpuperf.fp32(3),
      gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.fp32(1) }),  -- s += __shfl_down_sync(s, o)
      gpuperf.store{out, index = function(t)         -- if ((threadIdx.x & 31) == 0) out[i >> 5]
        if t.lane == 0 then return math.floor(gid(t) / 32) end end},
    },
  }
else
  error("kernel must be strided, gather, l2_reread or read_sum, not " .. tostring(kernel))
end
