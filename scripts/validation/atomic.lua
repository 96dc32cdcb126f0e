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
--   bins (family atom, validation/h200/bench/bench_atom.cu): a full-occupancy grid
--     (8 blocks of 256 per SM), thread g does A atomicAdds, element i = a T + g, into
--     K bins of global memory or of a per-block shared array; the bin of lane l in
--     warp-element w = a T/32 + g/32 is, by pattern:
--       array   idx[i mod 2^24] & (K-1) (a 64 MiB index array read coalesced)
--       hash    hash(i) & (K-1), computed in registers
--       warp    hash(w) & (K-1): one bin per warp, random across warps
--       consec  (hash(w) + l) & (K-1)
--       centroid (hash(i) & (clusters-1)) * d + j, j = 0..d-1 (d atomics per element)
--     u32 adds the constant 1 (update "inc"), f32 1.0f (update "fadd"); ret=1: the
--     returned value is used (ATOM rather than RED).
local kind = gpuperf.param("kind", "global_distinct",
  "global_same|global_warp|global_distinct|shared_inc_same|shared_inc_distinct|shared_add_same|shared_add_distinct|bins")

if kind == "bins" then
  local space   = gpuperf.param("space", "global", "global | shared")
  local pattern = gpuperf.param("pattern", "hash", "array | hash | warp | consec | centroid")
  local ty      = gpuperf.param("type", "u32", "u32 (atomicAdd(p, 1u)) | f32 (atomicAdd(p, 1.0f))")
  local ret     = gpuperf.param("ret", 0, "1: the returned value is used")
  local K       = gpuperf.param("K", 256, "bins (centroid: clusters * d), a power of two")
  local A       = gpuperf.param("A", 1, "elements per thread")
  local d       = gpuperf.param("d", 1, "atomics per element (centroid: the dimensions)")
  local regs    = gpuperf.param("regs", 16, "registers per thread, as ptxas reports")
  assert(space == "global" or space == "shared", "space must be global or shared, got '" .. tostring(space) .. "'")
  assert(ty == "u32" or ty == "f32", "type must be u32 or f32, got '" .. tostring(ty) .. "'")
  assert(K >= 1 and K == 2^math.floor(math.log(K) / math.log(2) + 0.5), "K must be a power of two, got " .. K)
  assert(pattern ~= "centroid" or (d >= 1 and K % d == 0), "centroid: K must be clusters * d")
  local blocks = gpuperf.device.sm_count * 8
  local T = blocks * 256
  local W = T / 32
  -- a warp's random bin: the high bits of a multiplicative hash of its element
  -- (exact in doubles: w < 2^21, the multiplier < 2^32)
  local function wbin(t)
    local w = (t.bx * 8 + t.warp) + W * t.a
    return math.floor(((w * 2654435761) % 2^32) / 2^12) % K
  end
  -- array and hash: K bins used uniformly, from data (`bins = K`)
  local index = ({
    array = "bins",
    hash = "bins",
    warp = wbin,
    consec = function(t) return (wbin(t) + t.lane) % K end,
    centroid = function(t) return gpuperf.random(0, K / d - 1) * d + t.j end,
  })[pattern]
  assert(index, "pattern must be array, hash, warp, consec or centroid, got '" .. tostring(pattern) .. "'")
  local update = ty == "f32" and "fadd" or "inc"
  local bins = space == "global" and gpuperf.buffer("bins", 4 * K) or nil
  -- every pattern's bin comes from data (an array, a hash): never aggregated;
  -- ret = 1 uses the returned value (ATOM), ret = 0 discards it (RED)
  local function atom()
    local nb = index == "bins" and K or nil
    local ix = index ~= "bins" and index or nil
    if space == "shared" then
      return gpuperf.atomic{space = "shared", update = update, index = ix, bins = nb,
                            result = ret == 1, from_data = true}
    end
    return gpuperf.atomic{bins, update = update, index = ix, bins = nb, result = ret == 1,
                          from_data = true}
  end
  -- per element: the bin (array: i & (2^24-1), the address, the load, & (K-1);
  -- a hash: i = a T + g, the multiply-xorshift mixer, & (K-1): about 10 integer
  -- operations), the bin's address, the loop's counter and test
  local body
  if pattern == "array" then
    local idx = gpuperf.buffer("idx", 4 * 2^24)
    body = { gpuperf.int(3), gpuperf.load{idx, space = "texture", index = function(t) return (t.gx + T * t.a) % 2^24 end},
             gpuperf.int(2), atom(), gpuperf.int(2) }
  elseif pattern == "centroid" then
    body = { gpuperf.int(11), gpuperf.loop{d, var = "j", body = { gpuperf.int(3), atom() }}, gpuperf.int(2) }
  else
    body = { gpuperf.int(pattern == "consec" and 12 or 11), atom(), gpuperf.int(2) }
  end
  if ret == 1 then body[#body + 1] = ty == "f32" and gpuperf.fp32(1) or gpuperf.int(1) end -- acc += old
  local work = { gpuperf.int(4) }
  if space == "shared" then
    -- zero the K bins, barrier, the atomics, barrier, each thread sums K/256 bins,
    -- a shuffle reduce and one 8-byte store per block
    local per = math.ceil(K / 256)
    work[#work + 1] = gpuperf.loop{per, {gpuperf.int(2), gpuperf.shared_store{}}}
    work[#work + 1] = gpuperf.barrier()
    work[#work + 1] = gpuperf.loop{A, var = "a", body = body}
    work[#work + 1] = gpuperf.barrier()
    work[#work + 1] = gpuperf.loop{per, {gpuperf.int(3), gpuperf.shared_load{}}}
    work[#work + 1] = gpuperf.shfl(5)
    work[#work + 1] = gpuperf.barrier()
  else
    work[#work + 1] = gpuperf.loop{A, var = "a", body = body}
  end
  local kernel = gpuperf.kernel{
    name = space .. "_" .. pattern, grid = blocks, block = 256, regs = regs,
    dynamic_smem = space == "shared" and 4 * K or 0, work = work,
  }
  gpuperf.launch(kernel)
  return
end

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
