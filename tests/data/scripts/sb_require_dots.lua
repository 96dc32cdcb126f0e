-- no hidden files: a module name does not start with '.'
local m = require(".hidden")
