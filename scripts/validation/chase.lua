-- chase.lua: loads whose lanes touch many lines (validation/h200/bench/bench_chase.cu)
--
-- kind = "chase" (k_chase): one block per SM of `warps` warps (`blocks` of them:
-- bench_spread's k_spread, one warp on each of k SMs); lanes 0..lanes-1 of
-- every warp follow a pointer chain (p = *p, ld.global.ca.u64), the other lanes
-- return at once. The chain is one random cycle through all `footprint / node`
-- nodes of a buffer (node = 128: one node per line, each pointer at the start of
-- its line; node = 8: sixteen per line); every block walks the same buffer, so the
-- footprint per SM and in L2 are both `footprint`. Each thread takes `warm` hops,
-- then `hops` more (the event time covers both). The bench asks for the smallest
-- carve-out (cudaFuncAttributePreferredSharedMemoryCarveout = 0), also where it
-- gives the block `smem` bytes of dynamic shared memory.
--
-- kind = "gather" (k_gather): independent loads, 8 blocks of 256 threads per SM;
-- each warp issues `requests` loads (unrolled by 8, summed), in request i lane l
-- reads word (l / m) of line (i * m + l % m + 97 * warp) mod lines: each request
-- touches m lines with 32 / m lanes on each. Working set `ws` bytes (16 KiB: L1,
-- 16 MiB: L2).
--
-- SASS (validation/h200/measured/run7/chase/sass_chase.txt.gz): the chase loop is
-- one LDG.E.64 per hop (unrolled by 8); the gather's loop (unrolled by 8: 64 SASS
-- instructions) an LDG.E, six address ops and half an IADD3 a request (below).
local kind     = gpuperf.param("kind", "chase", "chase | gather")
local node     = gpuperf.param("node", 128, "chase: bytes per node (128 or 8)")
local fp       = gpuperf.param("footprint", 2^14, "chase: bytes of the buffer")
local lanes    = gpuperf.param("lanes", 32, "chase: lanes of each warp that chase")
local warps    = gpuperf.param("warps", 1, "chase: warps per block (one block per SM)")
local warm     = gpuperf.param("warm", 0, "chase: hops before the timed ones")
local hops     = gpuperf.param("hops", 4096, "chase: timed hops")
local smem     = gpuperf.param("smem", 0, "chase: dynamic shared memory per block, bytes")
local blocks   = gpuperf.param("blocks", gpuperf.device.sm_count,
                               "chase: blocks, one per SM (default: every SM)")
local m        = gpuperf.param("m", 32, "gather: lines per request")
local ws       = gpuperf.param("ws", 2^14, "gather: working set, bytes")
local requests = gpuperf.param("requests", 1024, "gather: loads per warp")
local regs     = gpuperf.param("regs", 28, "registers per thread, as ptxas reports")
-- bench_chase times each launch alone between two events, after 2 warm-ups: the
-- L2 keeps what the earlier ones left; the rows divide `reps` launches
local reps     = gpuperf.param("reps", 1, "launches, each waited for")
local sms = gpuperf.device.sm_count

if kind == "chase" then
  assert(node == 128 or node == 8, "node must be 128 or 8, got " .. tostring(node))
  assert(lanes >= 1 and lanes <= 32, "lanes must be 1..32")
  local words = fp / 8
  local nodes = gpuperf.buffer("nodes", fp)
  assert(blocks >= 1 and blocks <= sms, "blocks must be 1.." .. sms .. " (one per SM)")
  local start = gpuperf.buffer("start", 8 * blocks * 32 * warps)
  local out = gpuperf.buffer("out", 8 * blocks * 32 * warps)
  local cyc = gpuperf.buffer("cycles", 8 * blocks * 32 * warps)
  -- a hop reads the pointer of a node drawn from the cycle: for 128-byte nodes
  -- the first 8 bytes of a line, for 8-byte nodes any 8 bytes of the buffer
  local step = node / 8
  local kernel = gpuperf.kernel{
    name = "k_chase", grid = blocks, block = 32 * warps, regs = regs,
    dynamic_smem = smem, carveout = 0,
    work = {
      gpuperf.load{start, bytes = 8, index = function(t)
        if t.lane >= lanes then return nil end
        return t.gx end},
      gpuperf.loop(warm + hops, {
        gpuperf.load{nodes, bytes = 8, depends = true, index = function(t)
          if t.lane >= lanes then return nil end
          local r = gpuperf.random(0, words - 1)
          return r - r % step end},
      }),
      gpuperf.store{out, bytes = 8, index = function(t)
        if t.lane >= lanes then return nil end
        return t.gx end},
      gpuperf.store{cyc, bytes = 8, index = function(t)
        if t.lane >= lanes then return nil end
        return t.gx end},
    },
  }
  -- k_link writes every node's pointer before the timed launches: the L2 holds
  -- the chain where it fits (its time, not timed by the bench, is divided by reps
  -- with the launches')
  gpuperf.launch{ name = "k_link", grid = 1024, block = 256, regs = 24,
    work = { gpuperf.loop{math.ceil(words / (1024 * 256)), var = "k", body = {
               gpuperf.store{nodes, bytes = 8, index = function(t)
                 local i = t.k * 1024 * 256 + t.gx
                 if i >= words then return nil end
                 return i end} }} } }
  -- bench_spread's cold rows write the benches' 1 GiB scratch before every launch
  local flush = gpuperf.param("flush", 0, "chase: 1 flushes the L2 before every launch")
  for _ = 1, reps do
    if flush == 1 then gpuperf.flush_l2() end
    gpuperf.launch(kernel)
    gpuperf.synchronize()
  end
elseif kind == "gather" then
  assert(m >= 1 and m <= 32 and 32 % m == 0, "m must divide 32")
  local lines = ws / 128
  local a = gpuperf.buffer("a", 2^24)
  local threads = sms * 8 * 256
  local out = gpuperf.buffer("out", 4 * threads)
  local kernel = gpuperf.kernel{
    name = "k_gather", grid = sms * 8, block = 256, regs = regs,
    work = {
      gpuperf.int(4),
      gpuperf.loop{requests, var = "i", body = {
        -- the SASS's address per request: VIADD (i * m + line0 + off), LOP3
        -- (& mask), IMAD.WIDE (* 32), LOP3 (| word), LEA and LEA.HI.X (a + 4 x)
        gpuperf.int(5),
        gpuperf.imul(1),
        gpuperf.load{a, index = function(t)
          local gw = math.floor(t.gx / 32)
          local line = (t.i * m + t.lane % m + gw * 97) % lines
          return line * 32 + math.floor(t.lane / m) end},
        gpuperf.int(1),
      }},
      gpuperf.store{out, index = function(t) return t.gx end},
    },
  }
  for _ = 1, reps do gpuperf.launch(kernel); gpuperf.synchronize() end
else
  error("kind must be chase or gather, got '" .. tostring(kind) .. "'")
end
