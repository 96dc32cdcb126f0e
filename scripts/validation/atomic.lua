-- atomic.lua: atomics (validation/h200/bench/bench_own.cu, atomic family).
--   global_same, global_warp, global_distinct: 2^22 threads, one
--     atomicAdd(float, 1) each on one word, on word i/32, or on word i
--     (the result is unused: a reduction, REDG). A float add: not aggregated per
--     warp (REDUX has no float form), so update = "fadd"; word i/32 is not
--     provably warp-uniform to ptxas either
--   shared_inc_same, shared_inc_distinct: 1056 blocks of 256, 256 atomicAdd(u32, 1)
--     per thread on shared word 0 or threadIdx.x; the compiler emits one
--     ATOMS.POPC.INC per warp, which adds each address's lane count (update = "inc")
--   shared_add_same, shared_add_distinct: the same with a run-time increment:
--     one ATOMS.ADD per lane
local kind = gpuperf.param("kind", "global_distinct",
  "global_same | global_warp | global_distinct | shared_inc_same | shared_inc_distinct | shared_add_same | shared_add_distinct")

if kind:sub(1, 6) == "global" then
  local n = 2^22
  local counters = gpuperf.buffer("counters", 4 * n)
  local scope = ({global_same = "same", global_warp = "warp", global_distinct = "distinct"})[kind]
  assert(scope, "unknown kind " .. kind)
  gpuperf.launch{
    name = kind, grid = n / 256, block = 256, regs = 8,
    work = { gpuperf.int(8), gpuperf.atomic{counters, scope = scope, update = "fadd"}, gpuperf.branch(1) },
  }
else
  local add = kind:find("add") ~= nil
  local same = kind:find("same") ~= nil
  local out = gpuperf.buffer("out", 4 * 1056)
  local op
  if add then
    op = gpuperf.atomic{space = "shared", scope = same and "same" or "distinct"}
  else
    -- atomicAdd(&s[a], 1u), result unused: one ATOMS.POPC.INC per warp whatever the
    -- lanes per address
    op = gpuperf.atomic{space = "shared", scope = same and "same" or "distinct", update = "inc"}
  end
  gpuperf.launch{
    name = kind, grid = 1056, block = 256, regs = add and 11 or 10, smem = 1024,
    work = {
      gpuperf.int(4), gpuperf.shared_store{}, gpuperf.barrier(),
      gpuperf.loop(256, { add and gpuperf.int(1) or gpuperf.int(3), op }),
      gpuperf.barrier(),
      gpuperf.shared_load{}, gpuperf.store{out, pattern = "broadcast"},
    },
  }
end
