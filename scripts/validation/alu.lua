-- alu.lua: arithmetic kernels of the H200 validation set, one thread running
-- `ilp` independent dependency chains of `iters` steps
-- (validation/h200/bench/kernels.cuh k_fma; bench_own.cu sfu, fp64, int32, cvt):
--   fma       x = fmaf(x, a, b)                       one FFMA per step
--   sinf      x = __sinf(x)                           FMUL.RZ + MUFU.SIN per step (no guard:
--             gpuperf.mufu)
--   expf      x = __expf(-x)                          3 FMUL + FSETP + MUFU.EX2 per step:
--             the FMUL by -log2(e), then the call (MUFU.EX2 and its guard: one sfu op)
--   dfma      x = fma(x, a, b) in double              one DFMA per step
--   imad      x = x * a + b (unsigned)                one IMAD per step
--   iadd_xor  x = (x + b) ^ c                         IADD + LOP3 per step
--   cvt       x = __int2float_rn(__float2int_rn(x)+1) F2I + IADD + I2F per step
-- Dynamic shared memory (`dyn`) pins the number of resident blocks per SM; the
-- grid defaults to 4 waves of `bpsm` blocks on every SM of the device.
local kind   = gpuperf.param("kind", "fma", "fma | sinf | expf | dfma | imad | iadd_xor | cvt")
local ilp    = gpuperf.param("ilp", 1, "independent chains per thread")
local iters  = gpuperf.param("iters", 4096, "steps of each chain")
local block  = gpuperf.param("block", 256, "threads per block")
local bpsm   = gpuperf.param("bpsm", 8, "blocks per SM the grid is sized for")
local blocks = gpuperf.param("blocks", 0, "grid size (0: 4 waves of bpsm blocks per SM)")
local dyn    = gpuperf.param("dyn", 0, "dynamic shared memory per block, bytes")
local regs   = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")

local step = {
  fma      = { gpuperf.fp32{ilp, ilp = ilp} },
  sinf     = { gpuperf.fp32{ilp, ilp = ilp}, gpuperf.mufu{ilp, ilp = ilp} },
  expf     = { gpuperf.fp32{ilp, ilp = ilp}, gpuperf.sfu{ilp, ilp = ilp} },
  dfma     = { gpuperf.fp64{ilp, ilp = ilp} },
  imad     = { gpuperf.imul{ilp, ilp = ilp} },
  iadd_xor = { gpuperf.int{2 * ilp, ilp = ilp} },
  cvt      = { gpuperf.conv{ilp, ilp = ilp}, gpuperf.int{ilp, ilp = ilp},
               gpuperf.conv{ilp, ilp = ilp} },
}
assert(step[kind], "kind must be fma, sinf, expf, dfma, imad, iadd_xor or cvt")
local out = gpuperf.buffer("out", 8 * 2^26)
if blocks == 0 then blocks = gpuperf.device.sm_count * bpsm * 4 end

gpuperf.launch{
  name = kind .. "_ilp" .. ilp, grid = blocks, block = block, regs = regs,
  dynamic_smem = dyn,
  work = {
    gpuperf.int(3), gpuperf.conv(1),     -- threadIdx.x * 1e-3 + j
    gpuperf.fp32{ilp, ilp = ilp},
    gpuperf.loop(iters, step[kind]),
    gpuperf.fp32(ilp - 1),               -- sum of the chains
    gpuperf.int(5),                      -- output index
    gpuperf.store{out, bytes = kind == "dfma" and 8 or 4},
  },
}
