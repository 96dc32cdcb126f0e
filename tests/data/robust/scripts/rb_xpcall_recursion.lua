-- an xpcall handler that errors forever
local function h(m) error(m) end
xpcall(function() error("x") end, h)
gpuperf.buffer("after", 1)
