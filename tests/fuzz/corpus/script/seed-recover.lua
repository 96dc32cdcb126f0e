-- After a failed evaluation the same script must evaluate cleanly again.
local fail = gpuperf.param("fail", "none", "none, memory, budget or error")
if fail == "memory" then local t = {} for i = 1, 1e8 do t[i] = { i } end end
if fail == "budget" then while true do end end
if fail == "error" then error("asked to fail") end
gpuperf.launch{ name = "k", grid = 1, block = 1, regs = 1 }
