-- a module that holds bytecode is refused
local m = require("bytecode")
