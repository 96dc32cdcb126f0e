-- Loops, a diverge and sub-lists, flattened in order with body lengths.
local b = gpuperf.buffer("b", 65536)
local body = { gpuperf.int(1), { gpuperf.fp32(2), gpuperf.fp32(3) } }
gpuperf.launch{
  name = "nested", grid = 1, block = 32, regs = 16,
  work = {
    gpuperf.loop(4, {
      gpuperf.fp32(1),
      gpuperf.diverge(2, {
        gpuperf.loop(3, body),
        gpuperf.sfu(1),
      }),
      gpuperf.barrier(),
    }),
    { gpuperf.store{b}, {} },
    gpuperf.loop(0, {}),
  },
}
-- 32 nested loops are fine
local w = gpuperf.fp32(1)
for i = 1, 32 do w = gpuperf.loop(2, { w }) end
gpuperf.launch{ name = "deep", grid = 1, block = 32, regs = 16, work = { w } }
