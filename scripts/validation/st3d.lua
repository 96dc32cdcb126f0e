-- st3d.lua: 3-D stencils on an n^3 grid of floats (validation/h200/bench/bench_st3d.cu,
-- family `st3d`): out[i] = c0 in[i] + c1 (sum of the taps) at every interior point, one
-- point a thread, blocks of 32 x by over (x, y), blockIdx.z the plane; `in` const
-- __restrict__ (LDG.E.CONSTANT), the L2 flushed (memset) before the launch. The tap sets
-- (offsets in -1..1, the centre apart):
--   row3    dx = -1, +1                      col3z   dz = -1, +1
--   yz9     dx = 0, 8 over 3 planes x 3 rows plane9  dz = 0, one plane's 3 x 3
--   cross7  the six face neighbours          cube27  all 26 neighbours
-- From the SASS (validation/h200/measured/run23/st3d/sass_st3d.txt.gz): before the first
-- load, the indices, the six bound tests and i (S2R, IMAD, ISETP, SHF: 33 to 41
-- instructions); the taps' loads at immediate offsets from one 64-bit address a row of
-- (dy, dz), the other rows' addresses 64-bit adds and multiply-adds from the centre's
-- (IADD3, IADD3.X, LEA, IMAD.WIDE: 0 to 27 between the loads); the sums FADD, then FMUL
-- and FFMA, and the store's address (2).
local n    = gpuperf.param("n", 256, "grid points a side: 128, 256 or 512")
local by   = gpuperf.param("by", 8, "blockDim.y: 4 or 8 (blockDim.x is 32)")
local set  = gpuperf.param("set", "cube27", "row3 | col3z | yz9 | plane9 | cross7 | cube27")
local regs = gpuperf.param("regs", 32, "registers per thread, as ptxas reports")
assert(n == 128 or n == 256 or n == 512, "n must be 128, 256 or 512, got " .. tostring(n))
assert(by == 4 or by == 8, "by must be 4 or 8, got " .. tostring(by))
-- integer instructions before the first load and between the loads, from the SASS
local pre = ({ row3 = 33, col3z = 40, yz9 = 41, plane9 = 35, cross7 = 38, cube27 = 33 })[set]
local mid = ({ row3 = 0, col3z = 1, yz9 = 13, plane9 = 7, cross7 = 12, cube27 = 27 })[set]
assert(pre, "set must be row3, col3z, yz9, plane9, cross7 or cube27, got '" .. tostring(set) .. "'")

local function member(dx, dy, dz)
  if dx == 0 and dy == 0 and dz == 0 then return false end
  if set == "row3" then return dy == 0 and dz == 0 end
  if set == "col3z" then return dx == 0 and dy == 0 end
  if set == "yz9" then return dx == 0 end
  if set == "plane9" then return dz == 0 end
  if set == "cross7" then
    return (dx ~= 0 and 1 or 0) + (dy ~= 0 and 1 or 0) + (dz ~= 0 and 1 or 0) == 1
  end
  return true   -- cube27
end

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

local work = { gpuperf.int(pre) }  -- x, y, z, six bound tests, i = z p + y s + x (64-bit)
if mid > 0 then work[#work + 1] = gpuperf.int(mid) end   -- the rows' addresses
local taps = 0
for dz = -1, 1 do
  for dy = -1, 1 do
    for dx = -1, 1 do
      if member(dx, dy, dz) then
        work[#work + 1] = gpuperf.load{inp, space = "texture", index = at(dx, dy, dz)}
        taps = taps + 1
      end
    end
  end
end
work[#work + 1] = gpuperf.load{inp, space = "texture", index = at(0, 0, 0)}
work[#work + 1] = gpuperf.fp32(taps + 2)   -- the taps' adds (from 0), c1 * acc, + c0 * in[i]
work[#work + 1] = gpuperf.int(2)           -- the store's address
work[#work + 1] = gpuperf.store{out, index = at(0, 0, 0)}

gpuperf.flush_l2()   -- the bench's memset flush before the launch
gpuperf.launch{
  name = set, grid = { n / 32, n / by, n }, block = { 32, by }, regs = regs, work = work,
}
