-- clock.lua: the kernels of bench_clock (validation/h200/bench/bench_clock.cu), each a
-- loop of 16 checkpoints of `iters` trips, thread 0 stamping clock64 and %globaltimer
-- at each checkpoint (its two stores left out here); `sms` x `bpsm` blocks, every block
-- resident at once.
--   kind=ffma8  256 threads, 8 independent FFMA chains, 4 steps each a trip (32 FFMA)
--   kind=ffma1  32 threads, 1 FFMA chain, 32 steps a trip
--   kind=tnl    bench_tiles3's register-blocked SGEMM compute (128x128 tile, 8x8
--               outputs per thread, BK = 8) on a shared tile, a barrier a trip
--   kind=lds    256 threads, 8 conflict-free LDS.128 a trip, summed (4 FADD each)
--   kind=hmma   256 threads, 4 wmma m16n16k16 fp16->fp32 mma_sync a trip on fragments
--               loaded once; their accumulators start equal and ptxas keeps 4
--               independent HMMA.16816 a trip (sass_clock.txt.gz k_hmma)
--   kind=dram   256 threads, float4 grid-stride reads (ld.global.cs) of a 128 MiB
--               buffer, `iters` passes a checkpoint
local kind  = gpuperf.param("kind", "ffma8", "ffma8 | ffma1 | tnl | lds | hmma | dram")
local sms   = gpuperf.param("sms", 132, "SMs the grid covers")
local bpsm  = gpuperf.param("bpsm", 1, "blocks per SM")
local iters = gpuperf.param("iters", 64, "trips per checkpoint")
local regs  = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")

local floor = math.floor
local CP = 16
local blocks = sms * bpsm
local out = gpuperf.buffer("out", 4 * blocks)
local function checkpoints(trip, last_barrier)   -- clock64 + %globaltimer reads a checkpoint
  return { gpuperf.int(2), gpuperf.loop(CP, { gpuperf.loop(iters, trip), gpuperf.int(2) }),
           last_barrier and gpuperf.barrier() or gpuperf.int(1) }
end
local function launch(name, block, smem, pre, trip, last_barrier, post)
  local work = {}
  for _, op in ipairs(pre) do work[#work + 1] = op end
  for _, op in ipairs(checkpoints(trip, last_barrier)) do work[#work + 1] = op end
  for _, op in ipairs(post) do work[#work + 1] = op end
  gpuperf.launch{ name = name, grid = blocks, block = block, regs = regs, smem = smem,
                  work = work }
end

if kind == "ffma8" then
  launch("ffma8", 256, 0, { gpuperf.int(3), gpuperf.conv(1), gpuperf.fp32{8, ilp = 8} },
         { gpuperf.fp32{32, ilp = 8} }, true, { gpuperf.fp32(7) })
elseif kind == "ffma1" then
  launch("ffma1", 32, 0, { gpuperf.int(3), gpuperf.conv(1) },
         { gpuperf.fp32(32) }, false, {})
elseif kind == "tnl" then
  local BM, TM, BK, T = 128, 8, 8, 256
  local TX = BM / TM
  local trip = {}
  for k = 0, BK - 1 do
    for i = 0, TM / 4 - 1 do
      trip[#trip + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return (k * BM + floor(t.x / TX) * TM + 4 * i) / 4 end}
    end
    for j = 0, TM / 4 - 1 do
      trip[#trip + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
        return (BK * BM + k * BM + (t.x % TX) * TM + 4 * j) / 4 end}
    end
    trip[#trip + 1] = gpuperf.fp32{TM * TM, ilp = TM * TM}
  end
  trip[#trip + 1] = gpuperf.barrier()
  launch("tnl", T, 2 * BK * BM * 4,
         { gpuperf.int(12), gpuperf.loop(BK * BM / T, { gpuperf.int(6), gpuperf.conv(2),
                                                       gpuperf.shared_store{count = 2} }),
           gpuperf.barrier() },
         trip, false, { gpuperf.fp32(63) })
elseif kind == "lds" then
  local trip = { gpuperf.int(2) }
  for u = 0, 7 do
    trip[#trip + 1] = gpuperf.shared_load{bytes = 16, index = function(t)
      return (t.x + u * 128) % 1024 end}
    trip[#trip + 1] = gpuperf.fp32{4, ilp = 4}
  end
  launch("lds", 256, 16384,
         { gpuperf.loop(4, { gpuperf.int(2), gpuperf.conv(4), gpuperf.shared_store{bytes = 16} }),
           gpuperf.barrier() },
         trip, true, { gpuperf.fp32(3) })
elseif kind == "hmma" then
  local frag = gpuperf.shared_load{bytes = 16, index = function(t)
    return ((t.lane % 16) * 16 + 8 * floor(t.lane / 16)) / 8 end}
  launch("hmma", 256, 1024,
         { gpuperf.loop(2, { gpuperf.int(4), gpuperf.conv(2), gpuperf.shared_store{bytes = 2} }),
           gpuperf.barrier(), frag, frag },
         { gpuperf.tensor{flops = 4 * 2 * 16 * 8 * 16 / 32, type = "fp16", ilp = 4} },
         true, { gpuperf.fp32(3) })
elseif kind == "dram" then
  local n4 = 128 * 2^20 / 16
  local buf = gpuperf.buffer("buf", 16 * n4)
  local threads = blocks * 256
  launch("dram", 256, 0, { gpuperf.int(4) },
         { gpuperf.loop{math.ceil(n4 / threads), var = "e", body = {
             gpuperf.int(2),
             gpuperf.load{buf, bytes = 16, index = function(t)
               return (t.e * threads + t.gx) % n4 end},
             gpuperf.fp32{4, ilp = 1} }} },
         true, {})
else
  error("kind must be ffma8, ffma1, tnl, lds, hmma or dram, got '" .. tostring(kind) .. "'")
end
