-- the string metatable cannot be reached or changed
local mt = getmetatable("")
mt.__index = nil
