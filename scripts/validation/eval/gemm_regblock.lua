-- gemm_regblock.lua: the gemm_regblock family of the H200 evaluation set (validation/
-- h200/bench/eval_dense.cuh, k_gemm_reg<TM, TN, 8>): C = A B, n x n fp32, 16x16
-- threads, block tile BM x BN = 16 TM x 16 TN, K step BK = 8. Per step: the block
-- copies A's BM x 8 slice into As[c][r] (transposed) and B's 8 x BN slice into Bs[r][c]
-- (i = tid, tid + 256, ...), barrier, then for kk = 0..7 thread (tx, ty) reads
-- As[kk][ty*TM .. +TM-1] and Bs[kk][tx*TN .. +TN-1] (LDS.128 in the SASS) and does
-- TM*TN independent FMAs, barrier. L2 flushed. Registers 48 (4x4) and 122 (8x8).
local n  = gpuperf.param("n", 2048, "matrix size")
local TM = gpuperf.param("tm", 4, "outputs per thread along each axis (4 or 8)")
local TN, BK = TM, 8
local BM, BN = 16 * TM, 16 * TN
local A = gpuperf.buffer("A", 4 * n * n)
local B = gpuperf.buffer("B", 4 * n * n)
local C = gpuperf.buffer("C", 4 * n * n)
local function tid(t) return t.y * 16 + t.x end

local inner = {}
for kk = 0, BK - 1 do
  for q = 0, TM / 4 - 1 do
    inner[#inner + 1] = gpuperf.shared_load{bytes = 16,
      index = function(t) return (kk * BM + t.y * TM) / 4 + q end}
  end
  for q = 0, TN / 4 - 1 do
    inner[#inner + 1] = gpuperf.shared_load{bytes = 16,
      index = function(t) return (BK * BM + kk * BN + t.x * TN) / 4 + q end}
  end
  inner[#inner + 1] = gpuperf.fp32{TM * TN, ilp = TM * TN}
end

local stores = {}
for i = 0, TM - 1 do
  for j = 0, TN - 1 do
    stores[#stores + 1] = gpuperf.store{C, index = function(t)
      return (t.by * BM + t.y * TM + i) * n + t.bx * BN + t.x * TN + j end}
  end
end

gpuperf.launch{
  name = "register_blocked", grid = {n / BN, n / BM}, block = {16, 16},
  regs = TM == 4 and 48 or 122, smem = (BK * BM + BK * BN) * 4,
  work = {
    gpuperf.int(6),                                  -- tid, row0, col0, base addresses
    gpuperf.loop{n / BK, var = "s", body = {
      gpuperf.loop{BM * BK / 256, var = "a", body = {
        gpuperf.load{A, space = "texture", index = function(t)
          local i = tid(t) + 256 * t.a
          return (t.by * BM + math.floor(i / BK)) * n + t.s * BK + i % BK end},
        gpuperf.int(3),                              -- i / BK, i % BK (shifts), the address
        gpuperf.shared_store{index = function(t)
          local i = tid(t) + 256 * t.a
          return (i % BK) * BM + math.floor(i / BK) end},
      }},
      gpuperf.loop{BK * BN / 256, var = "b", body = {
        gpuperf.load{B, space = "texture", index = function(t)
          local i = tid(t) + 256 * t.b
          return (t.s * BK + math.floor(i / BN)) * n + t.bx * BN + i % BN end},
        gpuperf.int(3),
        gpuperf.shared_store{index = function(t) return BK * BM + tid(t) + 256 * t.b end},
      }},
      gpuperf.barrier(),
      inner,
      gpuperf.barrier(),
    }},
    stores,
  },
}
