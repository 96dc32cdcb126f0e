-- an error object whose __tostring fails again: the host never calls it
local e = setmetatable({}, { __tostring = function() error("again") end })
error(e)
