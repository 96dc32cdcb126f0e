-- a back-reference compares a whole capture at every step: cubic
local s = string.rep("a", 9000)
local m = s:match("(.-)%1b")
