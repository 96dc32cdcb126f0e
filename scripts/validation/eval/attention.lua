-- attention.lua: the attention family of the H200 evaluation set (validation/h200/bench/
-- eval_dense.cuh, fam_attention): d = 64, Q, K, V, O of [heads][L][64] floats, L2 flushed.
--   variant=fused: k_attn_fused, a thread per query, blocks of 64 queries of head
--     blockIdx.y; q[64] and o[64] in registers (165); per 64-key step the block stages
--     K and V in Ks[64][64], Vs[64][64] (i = tid, tid + 64, ...), then for each key j:
--     s = q . Ks[j] (64 FMAs), the online-softmax update (2 __expf), o = o*corr + p*Vs[j].
--   variant=unfused: three kernels in one stream: k_attn_qk (S = Q K^T / 8, 16x16 blocks,
--     grid (L/16, L/16, H)), k_softmax_warp over the H*L rows of S, k_attn_pv (O = P V,
--     64x4 blocks, grid (L/4, H)).
local L       = gpuperf.param("L", 512, "sequence length")
local H       = gpuperf.param("heads", 1, "heads")
local variant = gpuperf.param("variant", "fused", "fused | unfused")
local D = 64
local Q = gpuperf.buffer("Q", 4 * H * L * D)
local K = gpuperf.buffer("K", 4 * H * L * D)
local V = gpuperf.buffer("V", 4 * H * L * D)
local O = gpuperf.buffer("O", 4 * H * L * D)

if variant == "fused" then
  local function qrow(t) return t.by * L * D + (t.bx * 64 + t.x) * D end
  local qload, ostore = {}, {}
  for c = 0, D - 1 do                              -- unrolled: q[c] = Q[...] * scale
    qload[#qload + 1] = gpuperf.load{Q, space = "texture",
                                     index = function(t) return qrow(t) + c end}
    ostore[#ostore + 1] = gpuperf.store{O, index = function(t) return qrow(t) + c end}
  end
  local dot, upd = {}, {}
  for q = 0, D / 4 - 1 do                          -- Ks[j][4q..4q+3], Vs[j][..]: LDS.128
    dot[#dot + 1] = gpuperf.shared_load{bytes = 16,
                                        index = function(t) return t.j * D / 4 + q end}
    upd[#upd + 1] = gpuperf.shared_load{bytes = 16,
                                        index = function(t) return (64 * D + t.j * D) / 4 + q end}
  end
  gpuperf.launch{
    name = "fused_thread_per_query", grid = {L / 64, H}, block = 64, regs = 165, smem = 32768,
    work = {
      gpuperf.int(4),                              -- head, qi, base addresses
      qload, gpuperf.fp32{D, ilp = D},             -- * scale
      gpuperf.loop{L / 64, var = "k0", body = {
        gpuperf.barrier(),
        gpuperf.loop{64 * D / 64, var = "s", body = {
          gpuperf.load{K, space = "texture", index = function(t)
            return t.by * L * D + t.k0 * 64 * D + t.x + 64 * t.s end},
          gpuperf.load{V, space = "texture", index = function(t)
            return t.by * L * D + t.k0 * 64 * D + t.x + 64 * t.s end},
          gpuperf.int(3),                          -- i / 64, i % 64 (shifts), the addresses
          gpuperf.shared_store{index = function(t) return t.x + 64 * t.s end},
          gpuperf.shared_store{index = function(t) return 64 * D + t.x + 64 * t.s end},
        }},
        gpuperf.barrier(),
        gpuperf.loop{64, var = "j", body = {
          dot, gpuperf.fp32(D),                    -- s += q[c] * Ks[j][c]: one chain
          gpuperf.fp32(6), gpuperf.sfu(2),         -- fmaxf, two __expf (sub, mul, ex2), l*corr + p
          upd, gpuperf.fp32{2 * D, ilp = D},       -- o[c] = o[c] * corr + p * Vs[j][c]
        }},
      }},
      gpuperf.fdiv(1),                             -- inv = 1.0f / l
      gpuperf.fp32{D, ilp = D},
      ostore,
    },
  }
elseif variant == "unfused" then
  local lib = require("lib_rows")
  local S = gpuperf.buffer("S", 4 * H * L * L)
  local P = gpuperf.buffer("P", 4 * H * L * L)
  gpuperf.launch{
    name = "attn_qk", grid = {L / 16, L / 16, H}, block = {16, 16}, regs = 32,
    work = {
      gpuperf.int(6),                              -- i, j, head, base addresses
      gpuperf.loop{D, var = "c", body = {
        gpuperf.load{Q, space = "texture", index = function(t)
          return t.bz * L * D + t.gy * D + t.c end},
        gpuperf.load{K, space = "texture", index = function(t)
          return t.bz * L * D + t.gx * D + t.c end},
        gpuperf.fp32(1),
      }},
      gpuperf.fp32(1),                             -- * scale
      gpuperf.store{S, index = function(t) return t.bz * L * L + t.gy * L + t.gx end},
    },
  }
  lib.softmax_warp("softmax_warp_per_row", S, P, H * L, L)
  gpuperf.launch{
    name = "attn_pv", grid = {L / 4, H}, block = {64, 4}, regs = 30,
    work = {
      gpuperf.int(6),                              -- c, i, head, base addresses
      gpuperf.loop{L, var = "j", body = {
        gpuperf.load{P, space = "texture", index = function(t)
          return t.by * L * L + (t.bx * 4 + t.y) * L + t.j end},
        gpuperf.load{V, space = "texture", index = function(t)
          return t.by * L * D + t.j * D + t.x end},
        gpuperf.fp32(1),
        gpuperf.int(1),                            -- the V pointer advances by 64 floats
      }},
      gpuperf.store{O, index = function(t) return t.by * L * D + (t.bx * 4 + t.y) * D + t.x end},
    },
  }
else
  error("variant must be fused or unfused, got " .. tostring(variant))
end
