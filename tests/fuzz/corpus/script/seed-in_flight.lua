-- a trip of 16 loads into 8 accumulators, 4 of them in flight as the SASS keeps them
local x = gpuperf.buffer("x", 4 * 2^20)
local body = {}
for q = 0, 15 do
  body[#body + 1] = gpuperf.load{x, in_flight = 4, index = function(t) return (16 * t.j + q) * 32 + t.lane end}
end
body[#body + 1] = gpuperf.fp32{16, ilp = 8}
gpuperf.launch{ name = "window", grid = 132, block = 128, regs = 32,
  work = { gpuperf.loop{64, var = "j", unroll = 1, body = body} } }
