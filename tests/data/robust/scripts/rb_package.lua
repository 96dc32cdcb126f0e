-- no package library (package.loadlib would load C code)
local f = package.loadlib("libc.so.6", "system")
