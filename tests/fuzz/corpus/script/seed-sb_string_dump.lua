-- no string.dump
local s = string.dump(function() end)
