-- llm_decode.lua: token-by-token decoding of a 7B-parameter transformer
-- (hidden 4096, FFN 11008, 32 layers, fp16 weights, batch 1), written as an
-- unfused implementation launches it: about 60 kernels per layer (the
-- twelve of a layer below plus small elementwise and bookkeeping kernels).
-- One decode step is captured once as a CUDA graph and replayed `steps`
-- times (mode = "graph"), or launched kernel by kernel from templates
-- (mode = "stream"). With -p steps=512: 512 x 32 x 60 = 983 040 launches.
local steps  = gpuperf.param("steps", 4, "tokens decoded (512: the million-launch case)")
local layers = gpuperf.param("layers", 32, "transformer layers")
local per    = gpuperf.param("kernels", 60, "kernels per layer (at least 12)")
local ctx    = gpuperf.param("context", 1024, "tokens in the KV cache")
local mode   = gpuperf.param("mode", "graph", "graph: one captured step replayed; stream")
local hidden, ffn, half = 4096, 11008, 2
assert(per >= 12, "kernels must be at least 12")

-- activations (reused every layer) and each layer's weights and KV cache
local x     = gpuperf.buffer("x", hidden * half)
local h     = gpuperf.buffer("h", ffn * 2 * half)
local w = {}
for l = 1, layers do
  w[l] = {
    qkv  = gpuperf.buffer("w_qkv" .. l, 3 * hidden * hidden * half),
    o    = gpuperf.buffer("w_o" .. l, hidden * hidden * half),
    up   = gpuperf.buffer("w_up" .. l, 2 * ffn * hidden * half),
    down = gpuperf.buffer("w_down" .. l, hidden * ffn * half),
    kv   = gpuperf.buffer("kv" .. l, 2 * ctx * hidden * half),
  }
end

-- y = W v with one warp per output row, 16-byte loads of W and v
local function gemv(name, wbuf, rows, cols, v)
  return gpuperf.kernel{name = name, grid = rows / 8, block = 256, regs = 40,
    work = {
      -- warp w of block b owns row 8b + w; lane l reads 8 halves at 8 * (32k + l)
      gpuperf.loop{cols / (32 * 8), var = "k", body = {
        gpuperf.load{wbuf, bytes = 16,
                     index = function(t) return (t.bx * 8 + t.warp) * (cols / 8) + t.k * 32 + t.lane end},
        gpuperf.load{v, bytes = 16, index = function(t) return t.k * 32 + t.lane end},
        gpuperf.fp32{8, ilp = 4} }},
      gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.fp32(1) }),  -- the warp reduction: five shuffle-and-add steps
      gpuperf.store{h, bytes = half,      -- lane 0 of each warp writes its row
                    index = function(t) if t.lane == 0 then return t.bx * 8 + t.warp end end},
    }}
end
-- an elementwise kernel over n halves
local function eltwise(name, n, flops)
  return gpuperf.kernel{name = name, grid = math.ceil(n / 256), block = 256, regs = 16,
    work = { gpuperf.load{h, footprint = n * half, bytes = 2}, gpuperf.fp32(flops),
             gpuperf.store{h, footprint = n * half, bytes = 2} }}
end
-- one block: thread t reads x[t + 1024 k], a sum of squares, a shuffle
-- reduction in each warp, the warps' sums through shared memory
local rmsnorm  = gpuperf.kernel{name = "rmsnorm", grid = 1, block = 1024, regs = 32,
  work = { gpuperf.loop{hidden / 1024, var = "k", body = {
             gpuperf.load{x, bytes = 2, index = function(t) return t.k * 1024 + t.x end},
             gpuperf.fp32(2) }},
           gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.fp32(1) }), gpuperf.barrier(),
           gpuperf.loop{hidden / 1024, var = "k", body = {
             gpuperf.store{x, bytes = 2, index = function(t) return t.k * 1024 + t.x end} }} }}
local rope     = eltwise("rope", 2 * hidden, 6)
local silu_mul = eltwise("silu_mul", ffn, 8)
local add      = eltwise("residual_add", hidden, 1)
local small    = eltwise("small", hidden, 1)

-- the launches of one layer
local function layer(l)
  local L = w[l]
  gpuperf.launch(rmsnorm)
  gpuperf.launch(gemv("qkv", L.qkv, 3 * hidden, hidden, x))
  gpuperf.launch(rope)
  gpuperf.launch(eltwise("kv_append", 2 * hidden, 0))
  gpuperf.launch{name = "attention", grid = 32, block = 128, regs = 64,
    work = { gpuperf.loop(ctx / 128, { gpuperf.load{L.kv, bytes = 16}, gpuperf.fp32{16, ilp = 4},
                                       gpuperf.sfu(1) }),
             gpuperf.fp32(10), gpuperf.barrier(), gpuperf.store{x, bytes = 2} }}
  gpuperf.launch(gemv("o_proj", L.o, hidden, hidden, x))
  gpuperf.launch(add)
  gpuperf.launch(rmsnorm)
  gpuperf.launch(gemv("gate_up", L.up, 2 * ffn, hidden, x))
  gpuperf.launch(silu_mul)
  gpuperf.launch(gemv("down", L.down, hidden, ffn, h))
  gpuperf.launch(add)
  for i = 13, per do gpuperf.launch(small) end
end

local function step()
  for l = 1, layers do layer(l) end
end

if mode == "graph" then
  local g = gpuperf.graph(step, "decode_step")
  for t = 1, steps do gpuperf.launch_graph(g) end
else
  for t = 1, steps do step() end
end
