-- stencil3d.lua: the 7-point and 27-point 3-D stencils of the H200 evaluation set
-- (validation/h200/bench/eval_grid.cuh, k_st3d_7 and k_st3d_27) on an n^3 grid of
-- floats: 2-D blocks of 32 x by over (x, y), blockIdx.z = the z plane, one interior
-- point per thread. `in` is const __restrict__ (ld.global.nc: space "texture").
-- A module: stencil3d_7pt.lua and stencil3d_27pt.lua call it with the point count.
return function(points)
local n      = gpuperf.param("n", 256, "grid points per side")
local by     = gpuperf.param("by", 4, "blockDim.y (blockDim.x is 32)")
local inp = gpuperf.buffer("in", 4 * n * n * n)
local out = gpuperf.buffer("out", 4 * n * n * n)
local s, p = n, n * n

local function at(dx, dy, dz)
  return function(t)
    local x, y, z = t.gx, t.gy, t.bz
    if x >= 1 and x < n - 1 and y >= 1 and y < n - 1 and z >= 1 and z < n - 1 then
      return (z + dz) * p + (y + dy) * s + x + dx
    end
  end
end

local work = {
  gpuperf.int(14),   -- x, y, z; six bound compares; i = z*p + y*s + x in 64 bits; addresses
}
if points == 7 then
  local nb = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}
  for _, d in ipairs(nb) do
    work[#work + 1] = gpuperf.load{inp, space = "texture", index = at(d[1], d[2], d[3])}
  end
  work[#work + 1] = gpuperf.int(2)     -- i - p, i + p: two 64-bit offsets
  work[#work + 1] = gpuperf.fp32(7)    -- 5 adds, c1 * sum, + c0 * in[i]
elseif points == 27 then
  -- the 26 neighbours (unrolled), then the centre in[i]
  for dz = -1, 1 do
    for dy = -1, 1 do
      for dx = -1, 1 do
        if dx ~= 0 or dy ~= 0 or dz ~= 0 then
          work[#work + 1] = gpuperf.load{inp, space = "texture", index = at(dx, dy, dz)}
        end
      end
    end
  end
  work[#work + 1] = gpuperf.load{inp, space = "texture", index = at(0, 0, 0)}
  work[#work + 1] = gpuperf.int(8)     -- the row bases of the 9 (dz, dy) rows (64-bit adds)
  work[#work + 1] = gpuperf.fp32(28)   -- 26 accumulating adds, c1 * acc, + c0 * in[i]
else
  error("points must be 7 or 27, got " .. tostring(points))
end
work[#work + 1] = gpuperf.store{out, index = at(0, 0, 0)}

gpuperf.launch{
  name = "st3d_" .. points .. "pt", grid = {n / 32, n / by, n}, block = {32, by},
  regs = points == 7 and 20 or 32, work = work,
}
end
