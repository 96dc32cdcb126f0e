-- a __gc that would loop forever never runs, also when the state closes
for i = 1, 1000 do setmetatable({}, { __gc = function() while true do end end }) end
gpuperf.launch{grid = 1, block = 32, regs = 8, work = {gpuperf.fp32(1)}}
