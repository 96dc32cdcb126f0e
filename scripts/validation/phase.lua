-- phase.lua: streaming blocks with a compute phase between their loads and their stores
-- (validation/h200/bench/bench_phase.cu, family `phase`).
--
-- k_phase<BS>: block b owns BS uint4 at b * BS: one coalesced LDG.E.128.CONSTANT a
-- thread, the sum of its four words, R rounds of a reduction (variant bar: a
-- __shfl_xor_sync tree, lane 0's total to shared memory, __syncthreads, every warp's
-- lane l reads the l-th total and a second tree, __syncthreads; variant warp: the two
-- trees alone), each round's total feeding the next, then one STG.E.128. The memset
-- flush before each repetition.
-- SASS (validation/h200/measured/run15/phase/sass_phase.txt.gz): before the loop the
-- index (IMAD.WIDE.U32, IMAD.SHL, SHF), the address (IADD3, IADD3.X), the load, two
-- IADD3 of its words; a round: 5 SHFL.BFLY each followed by its add, the predicated
-- STS, BAR.SYNC, the predicated LDS, 5 more SHFL.BFLY and adds, LOP3 and IMAD of the
-- next x, the counter, BAR.SYNC, ISETP, BRA (warp: no STS, LDS, BAR); after it four
-- adds, the address and STG.E.128. ptxas: 21 registers with the barrier, 20 without
-- (R = 0 runs the barrier's kernel). lw = 4, sw = 4 (rows copy4, bar4): the barrier's
-- kernel with four LDG.E.CONSTANT and four STG.E a thread at immediate offsets 0, 4, 8,
-- 12 (words 4 i .. 4 i + 3), 19 to 21 registers; copy4l and bar4l (lw = 4) the loads
-- alone, copy4s and bar4s (sw = 4) the stores alone.
-- k_tail<BS, MODE> (rows tail_pred, tail_w0, tail_lds; R = 1, one uint4 load, four
-- 4-byte stores, n = 2^26): variant pred: each store predicated on a run-time bound
-- (64-bit compares before the stores, which ptxas issues at offsets 4, 0, 8, 12);
-- w0: the second tree by warp 0 alone between the barriers, its total written to
-- shared memory and read back by every warp after the second barrier; lds: as bar4s
-- (the read-back ptxas removed).
local n     = gpuperf.param("n", 2^26, "u32 elements (the grid covers them, 4 a thread)")
local block = gpuperf.param("block", 256, "threads per block: 128, 256, 512 or 1024")
local R     = gpuperf.param("R", 1, "rounds of the reduction (0: the copy)")
local variant = gpuperf.param("variant", "bar",
  "bar (block all-reduce) | warp (shuffle trees only) | pred | w0 | lds (k_tail, R = 1)")
local lw = gpuperf.param("lw", 16, "bytes a load: 16 (one uint4) or 4 (four words 4 bytes apart)")
local sw = gpuperf.param("sw", 16, "bytes a store: 16 (one uint4) or 4 (four words 4 bytes apart)")
assert(lw == 16 or lw == 4, "lw must be 16 or 4, got " .. tostring(lw))
assert(sw == 16 or sw == 4, "sw must be 16 or 4, got " .. tostring(sw))
local tail = variant == "pred" or variant == "w0" or variant == "lds"
assert(variant == "bar" or variant == "warp" or tail,
       "variant must be bar, warp, pred, w0 or lds, got '" .. tostring(variant) .. "'")
assert(block == 128 or block == 256 or block == 512 or block == 1024,
       "block must be 128, 256, 512 or 1024 (the bench's template values)")

local inp = gpuperf.buffer("in", 4 * n)
local out = gpuperf.buffer("out", 4 * n)
local bar = variant ~= "warp"
local W = block / 32

local round = { gpuperf.shfl(5), gpuperf.int(5) }          -- the first tree
if bar then
  round[#round + 1] = gpuperf.int(2)                        -- lane, warp compares
  round[#round + 1] = gpuperf.shared_store{index = function(t)     -- lane 0: ws[w] = t
    if t.lane == 0 then return t.warp end end}
  round[#round + 1] = gpuperf.barrier()
  round[#round + 1] = gpuperf.shared_load{index = function(t)      -- lanes < BS/32: ws[lane]
    if t.lane < block / 32 then return t.lane end end}
end
if variant == "w0" then
  -- warp 0 alone: ws[lane], the second tree, its lane 0 writes the total; the
  -- barrier; every warp reads it back
  round[#round + 1] = gpuperf.shfl(5 / W)                   -- (a share of the warps)
  round[#round + 1] = gpuperf.int(6 / W)
  round[#round + 1] = gpuperf.shared_store{count = 1 / W, index = function(t)
    if t.lane == 0 then return W end end}
  round[#round + 1] = gpuperf.barrier()
  round[#round + 1] = gpuperf.shared_load{pattern = "broadcast"}
  round[#round + 1] = gpuperf.int(3)
else
  round[#round + 1] = gpuperf.shfl(5)                       -- the second tree
  round[#round + 1] = gpuperf.int(5)
  round[#round + 1] = gpuperf.int(3)                        -- x = (x ^ t) * K + r, r++
  if bar then round[#round + 1] = gpuperf.barrier() end
end

-- the thread's 16 bytes: one uint4, or words 4 i + k (k = 0..3) of 4 bytes
local function at(width, k)
  if width == 16 then return nil end
  return function(t) return 4 * t.gx + k end
end
local function words(width, op)
  if width == 16 then return op(0) end
  return { op(0), op(1), op(2), op(3) }
end

gpuperf.flush_l2()   -- the memset of the 1 GiB scratch before each repetition
gpuperf.launch{
  name = R == 0 and "copy" or variant, grid = n / 4 / block, block = block,
  regs = bar and 21 or 20, smem = tail and (W + 1) * 4 or bar and W * 4 or 0,
  work = {
    gpuperf.int(5),                                        -- the index, the address
    words(lw, function(k) return gpuperf.load{inp, bytes = lw, space = "texture", index = at(lw, k)} end),
    gpuperf.int(2),                                        -- the words' sum
    gpuperf.loop{R, unroll = 1, body = round},
    gpuperf.int(6),                                        -- four adds, the address
    variant == "pred" and gpuperf.int(12) or {},           -- 4 i + k < n (64-bit) each
    words(sw, function(k) return gpuperf.store{out, bytes = sw, index = at(sw, k)} end),
  },
}
