-- app.lua: two small applications of the H200 validation set
-- (validation/h200/bench/kernels.cuh k_reduce, k_sgemm_tiled).
--   reduce  shared-memory tree reduction: each thread adds 2 inputs, the block
--           halves its active threads log2(block) times, thread 0 writes the sum
--   sgemm   C = A * B for n x n floats with 16 x 16 shared-memory tiles
local kind  = gpuperf.param("kind", "reduce", "reduce | sgemm")
local n     = gpuperf.param("n", 2^26, "reduce: inputs; sgemm: matrix size")
local block = gpuperf.param("block", 256, "reduce: threads per block")

-- the shared set writes a 1 GiB scratch buffer before every repetition of both
gpuperf.flush_l2()

if kind == "reduce" then
  local src = gpuperf.buffer("in", 4 * n)
  local out = gpuperf.buffer("out", 4 * n / (2 * block))
  local warps = block / 32
  assert(block >= 64 and 2^math.floor(math.log(block, 2) + 0.5) == block,
         "block must be a power of two, at least 64")
  -- i = blockIdx.x * blockDim.x * 2 + t
  local function i0(t) return t.bx * 2 * block + t.x end
  local work = {
    gpuperf.int(14),                          -- 64-bit index, bounds checks
    gpuperf.load{src, index = i0},            -- in[i]
    gpuperf.load{src, index = function(t) return i0(t) + block end},  -- in[i + blockDim.x]
    gpuperf.fp32(1),
    gpuperf.shared_store{},                   -- sd[t] = v
    gpuperf.barrier(),
  }
  -- for (s = blockDim/2; s > 0; s >>= 1) { if (t < s) sd[t] += sd[t+s]; sync }
  -- compiled with predication: every warp issues every step, the threads with
  -- t >= s switched off; trip j has s = blockDim / 2^(j+1)
  local function sd(d)
    return function(t)
      local s = block / 2 ^ (t.j + 1)
      if t.x < s then return t.x + d * s end
    end
  end
  work[#work + 1] = gpuperf.loop{math.log(block, 2), var = "j", body = {
    gpuperf.int(2),                           -- t < s, address of sd[t + s]
    gpuperf.shared_load{index = sd(0)},       -- sd[t]
    gpuperf.shared_load{index = sd(1)},       -- sd[t + s]
    gpuperf.fp32(1),
    gpuperf.shared_store{index = sd(0)},
    gpuperf.barrier(),
    gpuperf.int(2),                           -- s >>= 1, s > 0
  }}
  -- if (t == 0) out[blockIdx.x] = sd[0]: lane 0 of the first of `warps` warps
  work[#work + 1] = gpuperf.store{out, count = 1 / warps,
                                  index = function(t) if t.lane == 0 then return t.bx end end}
  gpuperf.launch{
    name = "reduce", grid = gpuperf.grid(n / (2 * block)), block = block, regs = 14,
    dynamic_smem = 4 * block, work = work,
  }
elseif kind == "sgemm" then
  local T = 16
  local A = gpuperf.buffer("A", 4 * n * n)
  local B = gpuperf.buffer("B", 4 * n * n)
  local C = gpuperf.buffer("C", 4 * n * n)
  -- the k loop, unrolled: As[ty][k]: nvcc reads four k at once (LDS.128), the
  -- same words for a whole row of threads; Bs[k][tx]: a row of Bs, the same
  -- 16 words for both rows of threads of a warp
  local inner = {}
  for q = 0, T / 4 - 1 do
    inner[#inner + 1] = gpuperf.shared_load{bytes = 16,
                                            index = function(t) return t.y * T / 4 + q end}
  end
  for k = 0, T - 1 do
    inner[#inner + 1] = gpuperf.shared_load{index = function(t) return T * T + k * T + t.x end}
  end
  gpuperf.launch{
    name = "sgemm_tiled16", grid = {n / T, n / T}, block = {T, T}, regs = 32,
    smem = 2 * T * T * 4,                     -- As[16][16], Bs[16][16]
    work = {
      gpuperf.int(10),
      -- r = blockIdx.y * T + ty, c = blockIdx.x * T + tx; for (k0 = 0; k0 < n; k0 += T)
      gpuperf.loop{n / T, var = "kt", body = {  -- one tile of k per trip, k0 = T * kt
        gpuperf.int(4),
        gpuperf.load{A, index = function(t) return t.gy * n + T * t.kt + t.x end},    -- A[r * n + k0 + tx]
        gpuperf.load{B, index = function(t) return (T * t.kt + t.y) * n + t.gx end},  -- B[(k0 + ty) * n + c]
        gpuperf.shared_store{index = function(t) return t.y * T + t.x end},           -- As[ty][tx]
        gpuperf.shared_store{index = function(t) return T * T + t.y * T + t.x end},   -- Bs[ty][tx]
        gpuperf.barrier(),
        inner,
        gpuperf.fp32(T),                                        -- acc += As * Bs
        gpuperf.barrier(),
      }},
      gpuperf.store{C, index = function(t) return t.gy * n + t.gx end},              -- C[r * n + c]
    },
  }
else
  error("kind must be reduce or sgemm")
end
