-- no dotted module names
local m = require("a.b")
