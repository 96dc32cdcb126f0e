-- __gc on tables is not called (Lua 5.1), and the collector is not the
-- script's: collectgarbage("collect") is refused
setmetatable({}, { __gc = function() while true do end end })
collectgarbage("collect")
