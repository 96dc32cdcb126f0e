-- a loop header plus 4096 body ops: 4097 ops
local body = {}
for i = 1, 4096 do body[i] = gpuperf.fp32(1) end
local loop = gpuperf.loop(2, body)
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, work = { loop } }
