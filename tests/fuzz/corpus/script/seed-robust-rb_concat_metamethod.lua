-- a __concat that concatenates again
local mt = {}
mt.__concat = function(a, b) return a .. b end
local t = setmetatable({}, mt)
local s = t .. "x"
