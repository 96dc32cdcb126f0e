-- atomic.lua: atomics (validation/h200/bench/bench_own.cu, atomic family).
--   global_same, global_warp, global_distinct: 2^22 threads, one
--     atomicAdd(float, 1) each on one word, on word i/32, or on word i
--     (the result is unused: a reduction, REDG). A float add (update = "fadd"):
--     ptxas does not aggregate it per warp (one REDG.E.ADD.F32 per lane; REDUX has
--     no float form), so it runs at the per-lane one-word float rate
--   shared_inc_same, shared_inc_distinct: 1056 blocks of 256, 256 atomicAdd(u32, 1)
--     per thread on shared word 0 or threadIdx.x (threadIdx.x & mask, mask 0 or
--     255); the compiler emits one ATOMS.POPC.INC per warp (update = "inc"),
--     flat in the lanes per word (gpuperf-calibrate atomic_shared u32_inc1)
--   shared_add_same, shared_add_distinct: the same with a run-time increment:
--     one ATOMS.ADD per lane
local kind = gpuperf.param("kind", "global_distinct",
  "global_same | global_warp | global_distinct | shared_inc_same | shared_inc_distinct | shared_add_same | shared_add_distinct")

if kind:sub(1, 6) == "global" then
  local n = 2^22
  local counters = gpuperf.buffer("counters", 4 * n)
  local index = ({
    global_same = function(t) return 0 end,                           -- atomicAdd(addr, 1.0f)
    global_warp = function(t) return math.floor(t.gx / 32) end,       -- &cnt[i >> 5]
    global_distinct = function(t) return t.gx end,                    -- &cnt[i]
  })[kind]
  assert(index, "unknown kind " .. kind)
  gpuperf.launch{
    name = kind, grid = n / 256, block = 256, regs = 8,
    work = { gpuperf.int(8), gpuperf.atomic{counters, index = index, update = "fadd"}, gpuperf.branch(1) },
  }
else
  local add = kind:find("add") ~= nil
  local same = kind:find("same") ~= nil
  local mask = same and 0 or 255
  local out = gpuperf.buffer("out", 4 * 1056 * 256)
  local step
  if add then
    -- one ATOMS.ADD per lane on s[threadIdx.x & mask]
    step = { gpuperf.int(1),
             gpuperf.atomic{space = "shared", index = function(t) return t.x % (mask + 1) end} }
  else
    -- atomicAdd(&s[...], 1u), result unused: one ATOMS.POPC.INC per warp, which
    -- adds each word's lane count, at a cost flat in the lanes per word
    step = { gpuperf.int(1),
             gpuperf.atomic{space = "shared", update = "inc",
                            index = function(t) return t.x % (mask + 1) end} }
  end
  gpuperf.launch{
    name = kind, grid = 1056, block = 256, regs = add and 11 or 10, smem = 1024,
    work = {
      gpuperf.int(4), gpuperf.shared_store{}, gpuperf.barrier(),     -- s[threadIdx.x] = 0
      gpuperf.loop(256, step),
      gpuperf.barrier(),
      -- out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x]
      gpuperf.shared_load{}, gpuperf.store{out},
    },
  }
end
