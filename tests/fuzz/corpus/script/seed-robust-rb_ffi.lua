-- no ffi, also not through require
local ffi = require("ffi")
