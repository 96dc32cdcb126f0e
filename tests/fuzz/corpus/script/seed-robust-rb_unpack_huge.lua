-- more results than the stack holds
local t = {}
local a = { unpack(t, 1, 1e8) }
