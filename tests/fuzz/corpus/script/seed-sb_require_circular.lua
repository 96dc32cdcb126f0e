-- a module that requires itself through another
local a = require("circ_a")
