-- a kernel named after the engine's stall message, refused for its block size
local x = gpuperf.buffer("x", 4096)
local bad = { function(t) return 5/0 end, function(t) return -0 end, function(t) return 2^70 end,
  function(t) return t.x + 0.5 end, function(t) return "s" end, function(t) error("e") end,
  function(t) return t.gx + t.k end, function(t) if t.x % 2 == 0 then return nil end return t.x end }
for i, f in ipairs(bad) do
  print(pcall(gpuperf.launch, { name = "ksimulation stalled" .. i, grid = 8, block = 1258, regs = 8,
    work = { gpuperf.loop{10, var = "k", body = { gpuperf.load{x, index = f} }} } }))
end
