-- no load, so no bytecode either
local f = load(string.char(27) .. "LJ\2")
