-- not a tail call, so that errors name this file and line
local b = require("circ_b")
return b
