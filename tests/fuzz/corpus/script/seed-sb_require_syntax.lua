-- a module with a syntax error
local m = require("mod_syntax")
