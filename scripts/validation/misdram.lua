-- misdram.lua: a stream read off its lines' boundaries, from DRAM
-- (validation/h200/bench/bench_misdram.cu, family `misdram`): one element per thread,
-- blocks of 256, in[i + off] for off = 0 .. 32 floats, behind the memset flush.
--   kind copy  out[i] = in[i + off]   (k_copy: 10 registers)
--   kind sum   v = in[i + off], stored only where v is a sentinel the data never
--              hold (k_sum: 8 registers; no store runs)
-- SASS (validation/h100/measured/benches/misdram/sass_misdram.txt.gz): the index, its
-- bound test, one LDG.E.CONSTANT and (copy) one STG.E.
local kind = gpuperf.param("kind", "copy", "copy | sum")
local off  = gpuperf.param("off", 1, "elements the read is shifted by (0 .. 32)")
local n    = gpuperf.param("n", 2^26, "elements")
assert(kind == "copy" or kind == "sum", "kind must be copy or sum, got '" .. tostring(kind) .. "'")
assert(off >= 0 and off == math.floor(off), "off must be a whole number of elements")
local src = gpuperf.buffer("in", 4 * (n + 64))
local dst = gpuperf.buffer("out", 4 * n)
local work = {
  gpuperf.int(6),                                   -- i, the bound test, the addresses
  gpuperf.load{src, space = "texture", offset = off, footprint = 4 * n},
}
if kind == "copy" then
  work[#work + 1] = gpuperf.store{dst}
else
  work[#work + 1] = gpuperf.int(1)                  -- the sentinel test
end
gpuperf.flush_l2()   -- the memset of the 1 GiB scratch before each repetition
gpuperf.launch{ name = kind, grid = n / 256, block = 256, regs = kind == "copy" and 10 or 8,
                work = work }
