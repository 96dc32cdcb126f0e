-- gemv.lua: a decode GEMV (validation/h200/bench/bench_gemv.cu, family `gemv`):
-- y[b][n] = sum_k W[n][k] x[b][k] for B vectors, W N x K fp16 (row-major), x B x K fp16,
-- y B x N fp32. A warp per row n: lane l reads 8 halves of W (a uint4) at k = 8 l,
-- 8 l + 256, ... (`for (k = 8 * lane; k < K; k += 256)`), converts them to floats, and
-- for each b reads the same 8 halves of x[b] (every warp of the grid reads x), converts
-- them and adds the 8 products into acc[b]; then five __shfl_down_sync steps per b and
-- lane 0's stores. W and x const __restrict__ (space "texture"); the bench's memset flush
-- before every launch. SASS (validation/h200/measured/run46/gemv): one HADD2.F32 a half
-- (`gpuperf.fp16`); the row loop of 16 trips unrolled 4 times for B = 1 (a remainder loop
-- first), not at all for B = 8 (145 instructions a trip), as nvcc unrolls a body up to
-- about 64 instructions: left to the model (no `unroll`).
local N    = gpuperf.param("N", 4096, "rows of W (outputs per vector)")
local K    = gpuperf.param("K", 4096, "columns of W")
local B    = gpuperf.param("B", 1, "vectors (the batch)")
local regs = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
local W = gpuperf.buffer("W", 2 * N * K)
local x = gpuperf.buffer("x", 2 * B * K)
local y = gpuperf.buffer("y", 4 * B * N)
local tex = "texture"
local function row(t) return t.bx * 8 + t.warp end

local body = {
  gpuperf.int(2),                                       -- k, the address of W[n][k]
  gpuperf.load{W, bytes = 16, space = tex, index = function(t)
    return (row(t) * K + t.k * 256 + 8 * t.lane) / 8 end},
  gpuperf.fp16{8, ilp = 8},                             -- __half22float2 x 4: 8 HADD2.F32
}
for b = 0, B - 1 do
  body[#body + 1] = gpuperf.load{x, bytes = 16, space = tex, index = function(t)
    return (b * K + t.k * 256 + 8 * t.lane) / 8 end}
  body[#body + 1] = gpuperf.fp16{8, ilp = 8}
  body[#body + 1] = gpuperf.fp32(8)                     -- acc[b] += 8 products, one chain
end

local work = { gpuperf.int(3),                           -- n, lane, n < N
               -- a constant stride with an index for bound, 16 trips: the model's copies
               gpuperf.loop{K / 256, var = "k", body = body},
               gpuperf.loop(5, { gpuperf.shfl(B), gpuperf.fp32(B) }),
               gpuperf.store{y, count = B, index = function(t)
                 if t.lane == 0 then return row(t) end end} }

gpuperf.flush_l2()
gpuperf.launch{ name = "gemv", grid = N / 8, block = 256, regs = regs, work = work }
