-- streams.lua: the streams family of the H200 evaluation set (validation/h200/bench/
-- eval_flow.cuh, fam_streams). `kernels` independent kernels, either one after another in
-- the bench's stream (a non-blocking stream, "main" here) or one per stream: an event
-- recorded in main, each stream waits for it, launches, records its join event, and main
-- waits for every join.
--   kind=poly: k_poly<<<SMs/4, 256, dyn>>>, 4 Horner chains x = x*t + c for 65536 steps;
--     the dynamic shared memory (232448 bytes, eval.csv) pins one block per SM (16 regs).
--     Not flushed (nothing is read).
--   kind=axpby: k_axpby a = b + s*c over n floats, each kernel its own arrays (12 regs);
--     L2 flushed before.
--   kind=mixed: kernel 0 is the poly kernel, kernel 1 an axpby of n floats; flushed.
local kind    = gpuperf.param("kind", "axpby", "poly | axpby | mixed")
local kernels = gpuperf.param("kernels", 1, "independent kernels")
local par     = gpuperf.param("streams", 0, "0: one stream, in order; 1: one stream each")
local n       = gpuperf.param("n", 2^22, "axpby: elements")
local iters   = gpuperf.param("iters", 65536, "poly: steps")
local dyn     = gpuperf.param("dyn_smem", 232448, "poly: dynamic shared memory per block")
local sms = gpuperf.device.sm_count
local quarter = math.floor(sms / 4)

local pout = gpuperf.buffer("poly_out", 4 * 4 * 2^20)

local function poly(j, s)
  gpuperf.launch{
    name = "poly" .. j, grid = quarter, block = 256, regs = 16, dynamic_smem = dyn, stream = s,
    work = {
      gpuperf.int(1), gpuperf.conv(1), gpuperf.fp32(3),   -- x0 .. x3 from threadIdx.x
      gpuperf.loop(iters, { gpuperf.fp32{4, ilp = 4} }),
      gpuperf.fp32(3),                                    -- s = x0 + x1 + x2 + x3
      gpuperf.int(3),
      gpuperf.store{pout, index = function(t) return j * 2^20 + t.gx end},
      gpuperf.branch(1),                                  -- if (s == -1.0f) pad[0] = s
    },
  }
end

local function axpby(j, s)
  local a = gpuperf.buffer("a" .. j, 4 * n)
  local b = gpuperf.buffer("b" .. j, 4 * n)
  local c = gpuperf.buffer("c" .. j, 4 * n)
  gpuperf.launch{
    name = "axpby" .. j, grid = math.ceil(n / 256), block = 256, regs = 12, stream = s,
    work = { gpuperf.int(3), gpuperf.load{b}, gpuperf.load{c}, gpuperf.fp32(1), gpuperf.store{a} },
  }
end

local function kernel(j, s)
  if kind == "poly" or (kind == "mixed" and j == 0) then poly(j, s)
  elseif kind == "axpby" or kind == "mixed" then axpby(j, s)
  else error("kind must be poly, axpby or mixed, got " .. tostring(kind)) end
end

local main = gpuperf.stream("main")
if par == 0 then
  for j = 0, kernels - 1 do kernel(j, main) end
else
  local fork = gpuperf.event("fork")
  gpuperf.record(fork, main)
  local joins = {}
  for j = 0, kernels - 1 do
    local s = gpuperf.stream("s" .. j)
    gpuperf.wait(s, fork)
    kernel(j, s)
    joins[j + 1] = gpuperf.event("join" .. j)
    gpuperf.record(joins[j + 1], s)
  end
  for _, e in ipairs(joins) do gpuperf.wait(main, e) end
end
