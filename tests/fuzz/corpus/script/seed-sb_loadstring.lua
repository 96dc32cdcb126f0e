-- no loadstring
local f = loadstring("return 1")
