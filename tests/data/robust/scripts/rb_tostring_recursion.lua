-- a __tostring that calls tostring on itself
local t = setmetatable({}, {})
getmetatable(t).__tostring = function(self) return tostring(self) end
print(t)
