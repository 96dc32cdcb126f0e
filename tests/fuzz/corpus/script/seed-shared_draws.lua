-- the four fields of a record at a hashed slot, stored one by one: one draw
local n = 2^20
local slots = gpuperf.buffer("slots", 16 * n)
local w = {}
for f = 0, 3 do
  w[#w + 1] = gpuperf.store{slots, draws = "slot",
                            index = function(t) return gpuperf.random(0, n - 1) * 4 + f end}
end
w[#w + 1] = gpuperf.load{slots, draws = "slot", index = function(t) return gpuperf.random(0, n - 1) * 4 end}
gpuperf.launch{ name = "insert", grid = 1024, block = 256, regs = 20, work = w }
