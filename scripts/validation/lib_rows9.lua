-- lib_rows9.lua: the launch shape and buffers of the L1-hit load benches bench_lform and
-- bench_l1issue, shared by lform.lua and l1issue.lua. `warps` per SM as warps / 8
-- blocks of 256 threads on every SM; x holds 64 rows of 9 lines (72 KiB: every load
-- after the first trip hits L1), warp g = gx / 32 reading row g % 64; out a float a
-- thread. Returns the grid, x, out and row(t), the first element of t's warp's row.
return function(warps)
  local floor = math.floor
  local row_floats = 9 * 32
  local grid = gpuperf.device.sm_count * floor(warps / 8)
  local x = gpuperf.buffer("x", 4 * 64 * row_floats)
  local out = gpuperf.buffer("out", 4 * grid * 256)
  local function row(t) return (floor(t.gx / 32) % 64) * row_floats end
  return grid, x, out, row
end
