-- perm.lua: stores through an index formula that scatters them
-- (validation/h200/bench/bench_perm.cu, family `perm`).
--
-- out[(a i + 1013904223) mod range] = in[i] for i < n, one 4-byte store a thread, blocks
-- of 256 (grid n / 256); `a` odd (1664525: consecutive threads 6.3 MiB apart mod the
-- range, 69069: 270 KiB apart), so every lane of a warp writes its own line and the
-- index is a permutation of the range when n = range. `in` is read coalesced through
-- const __restrict__ (LDG.E.CONSTANT: space "texture"). The L2 is flushed before the
-- launch (the benches' 1 GiB memset). The index is a formula, not a draw of
-- gpuperf.random: the model sees the addresses the threads compute.
local n     = gpuperf.param("n", 2^22, "threads (stores)")
local range = gpuperf.param("range", 2^28, "elements of out (a power of two)")
local a     = gpuperf.param("a", 1664525, "the LCG's multiplier (odd)")
local regs  = gpuperf.param("regs", 10, "registers per thread, as ptxas reports")
assert(a % 2 == 1, "a must be odd")
assert(n <= range, "n must not exceed the range")
local inp = gpuperf.buffer("in", 4 * n)
local out = gpuperf.buffer("out", 4 * range)
gpuperf.flush_l2()
gpuperf.launch{
  name = "perm", grid = n / 256, block = 256, regs = regs,
  work = {
    gpuperf.int(3),                                  -- i (64-bit), the bounds test
    gpuperf.load{inp, space = "texture", index = function(t) return t.gx end},
    gpuperf.int(3),                                  -- a i + c (64-bit IMAD), the mask, the address
    gpuperf.store{out, index = function(t) return (a * t.gx + 1013904223) % range end},
  },
}
