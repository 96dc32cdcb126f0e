-- an __index that looks itself up
local t = setmetatable({}, {})
getmetatable(t).__index = function(self, k) return self[k] end
local v = t.anything
