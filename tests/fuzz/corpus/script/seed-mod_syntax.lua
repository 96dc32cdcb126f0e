-- a module with a syntax error
local x = = 1
