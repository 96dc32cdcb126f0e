-- mathfn.lua: CUDA's single-precision math functions as nvcc compiles them by default
-- (validation/h200/bench/bench_mathfn.cu, family `mathfn`), each call described by the
-- instructions its SASS runs (the fast path, for arguments of ordinary size), the way
-- docs/workloads.md ("Math functions") tells a script to.
--
-- k_fn<F, ILP>: `trips` trips of a `#pragma unroll 1` loop; a trip takes each of ILP
-- independent values one step, x = f(x) * a + b (the call, then an FFMA).
--   shape thr  ILP 4, 8 blocks of 256 threads per SM (64 warps)
--   shape lat  ILP 1, one warp per SM
-- SASS (validation/h200/measured/run48/mathfn/sass_mathfn.txt.gz), per call:
--   expf      FFMA.SAT, FFMA.RM, FADD, FFMA, FFMA, SHF, MUFU.EX2, FMUL
--   __expf    FMUL (x log2 e), then exp2f's: FSETP, @P FMUL, MUFU.EX2, @P FMUL
--   exp2f     the MUFU.EX2 and its denormal guard (`gpuperf.sfu`)
--   logf      19 FP32 (8 FFMA of a polynomial), 6 integer, an HFMA2 constant, I2FP:
--             no MUFU; log2f the same with 21 FP32
--   __logf    the MUFU.LG2 and its guard, an FMUL (ln 2)
--   sinf/cosf 16 FP32, 6 integer, F2I and I2FP, BSSY/BRA/BSYNC around the large-argument
--             path (not taken)
--   __sinf    FMUL.RZ, MUFU.SIN
--   sqrtf     MUFU.RSQ, 2 integer, 4 FP32, BSSY/BRA/BSYNC around the slow path
--   rsqrtf    the MUFU.RSQ and its guard (`gpuperf.sfu`)
--   tanhf     12 FP32, MUFU.EX2, MUFU.RCP, a LOP3
--   erff      19 FP32 (9 FSEL), 6 integer moves and a LOP3, 2 HFMA2, a MUFU.EX2
--   powf      (x^2.5) 52 FP32, 8 integer, F2I and I2FP, an HFMA2, MUFU.RCP, 6 branches
--   div       1.0f / x: `gpuperf.fdiv`; __fdividef: `gpuperf.rcp`
local fn    = gpuperf.param("fn", "expf", "the function (bench_mathfn's names)")
local shape = gpuperf.param("shape", "thr", "thr: 64 warps per SM, 4 values a thread | lat: 1 warp per SM, 1 value")
local trips = gpuperf.param("trips", 1024, "loop trips")
local regs  = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
assert(shape == "thr" or shape == "lat", "shape must be thr or lat, got '" .. tostring(shape) .. "'")

local g = gpuperf
-- a call's instructions: { fp32, int, mufu, sfu (MUFU and its guard), conv, fp16, branch }
local calls = {
  ffma         = {},
  expf         = { fp32 = 6, int = 1, mufu = 1 },
  ["__expf"]   = { fp32 = 1, sfu = 1 },
  exp2f        = { int = 1, sfu = 1 },
  logf         = { fp32 = 19, int = 6, fp16 = 1, conv = 1 },
  ["__logf"]   = { fp32 = 1, int = 1, sfu = 1 },
  log2f        = { fp32 = 21, int = 6, fp16 = 1, conv = 1 },
  sinf         = { fp32 = 16, int = 6, conv = 2, branch = 3 },
  ["__sinf"]   = { fp32 = 1, mufu = 1 },
  cosf         = { fp32 = 16, int = 6, conv = 2, branch = 3 },
  sqrtf        = { fp32 = 4, int = 2, mufu = 1, branch = 3 },
  rsqrtf       = { int = 1, sfu = 1 },
  tanhf        = { fp32 = 12, int = 1, mufu = 2 },
  erff         = { fp32 = 19, int = 6, fp16 = 2, mufu = 1 },
  powf         = { fp32 = 52, int = 8, conv = 2, fp16 = 1, mufu = 1, branch = 6 },
  div          = { fdiv = 1 },
  ["__fdividef"] = { rcp = 1 },
}
local c = calls[fn]
assert(c, "unknown fn '" .. tostring(fn) .. "'")
local ilp = shape == "thr" and 4 or 1
local body = {}
local function add(ctor, n)
  if n and n > 0 then body[#body + 1] = ctor{n * ilp, ilp = ilp} end
end
add(g.int, c.int)
add(g.fp16, c.fp16)
add(g.conv, c.conv)
add(g.fp32, c.fp32)
add(g.mufu, c.mufu)
add(g.sfu, c.sfu)
add(g.fdiv, c.fdiv)
add(g.rcp, c.rcp)
add(g.branch, c.branch)
add(g.fp32, 1)                               -- x = f(x) * a + b

local grid = shape == "thr" and g.device.sm_count * 8 or g.device.sm_count
local block = shape == "thr" and 256 or 32
local out = g.buffer("out", 4 * grid * block)
g.launch{
  name = fn, grid = grid, block = block, regs = regs,
  work = {
    g.int(4), g.conv(ilp), g.fp32(ilp),      -- the start values
    g.loop{trips, unroll = 1, body = body},
    g.fp32(ilp),
    g.store{out},
  },
}
