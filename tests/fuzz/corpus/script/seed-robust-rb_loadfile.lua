-- no loadfile
local f = loadfile("helpers.lua")
