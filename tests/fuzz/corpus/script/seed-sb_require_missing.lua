-- a module that does not exist
local m = require("nothere")
