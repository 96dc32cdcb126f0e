-- 33 nested loops
local w = gpuperf.fp32(1)
for i = 1, 33 do
  w = gpuperf.loop(2, { w })
end
