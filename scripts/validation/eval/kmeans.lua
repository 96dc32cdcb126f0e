-- kmeans.lua: the kmeans family of the H200 evaluation set (validation/h200/bench/
-- eval_dense.cuh, fam_kmeans): the assignment step; point i = gid has features
-- feat[f*n + i] (feature-major), centroids cent[c*d + f]; for each of k centroids the
-- squared distance over d features, keep the nearest; member[i] = best. Block 256,
-- 32 registers, L2 flushed.
--   variant=centroids_global: k_kmeans_global, the centroids read from global.
--   variant=centroids_shared: k_kmeans_smem, the k*d centroid floats first staged in
--     dynamic shared memory (t = tid, tid + 256, ...), one barrier.
local n       = gpuperf.param("n", 2^20, "points")
local d       = gpuperf.param("d", 4, "features")
local k       = gpuperf.param("k", 16, "centroids")
local variant = gpuperf.param("variant", "centroids_global", "centroids_global | centroids_shared")
local feat   = gpuperf.buffer("feat", 4 * n * d)
local cent   = gpuperf.buffer("cent", 4 * k * d)
local member = gpuperf.buffer("member", 4 * n)
local shared = variant == "centroids_shared"
if not shared and variant ~= "centroids_global" then
  error("variant must be centroids_global or centroids_shared, got " .. tostring(variant))
end

local cread
if shared then
  cread = gpuperf.shared_load{index = function(t) return t.c * d + t.f end}
else
  cread = gpuperf.load{cent, space = "texture", index = function(t) return t.c * d + t.f end}
end

local work = {}
if shared then
  work[#work + 1] = gpuperf.loop{k * d / 256, var = "s", body = {
    gpuperf.load{cent, space = "texture", index = function(t)
      local i = t.x + 256 * t.s
      if i < k * d then return i end end},
    gpuperf.shared_store{index = function(t)
      local i = t.x + 256 * t.s
      if i < k * d then return i end end},
  }}
  work[#work + 1] = gpuperf.barrier()
end
work[#work + 1] = gpuperf.int(3)                    -- i, the bounds test, the base address
work[#work + 1] = gpuperf.loop{k, var = "c", body = {
  gpuperf.loop{d, var = "f", body = {
    gpuperf.load{feat, space = "texture", index = function(t) return t.f * n + t.gx end},
    cread,
    gpuperf.fp32(2),                                -- t = x - c; dist += t * t
    gpuperf.int(1),                                 -- the feat pointer advances by n
  }},
  gpuperf.fp32(1), gpuperf.int(1),                  -- dist < best; select best, bi
}}
work[#work + 1] = gpuperf.store{member, index = function(t) return t.gx end}

gpuperf.launch{
  name = variant, grid = math.ceil(n / 256), block = 256, regs = 32,
  dynamic_smem = shared and 4 * k * d or 0,
  work = work,
}
