-- Everything that reaches outside the sandbox is absent.
for _, name in ipairs{ "os", "io", "debug", "jit", "ffi", "package", "coroutine", "module",
                       "dofile", "loadfile", "load", "loadstring", "getfenv", "setfenv",
                       "newproxy", "gcinfo" } do
  assert(_G[name] == nil, name .. " is reachable")
end
assert(string.dump == nil and table.foreach == nil, "string.dump or table.foreach is reachable")
assert(getmetatable("") == false, "the string metatable is reachable")
assert(getmetatable(gpuperf) == "gpuperf", "the gpuperf metatable is reachable")
assert(collectgarbage("count") > 0)
-- errors inside __gc (ignored by Lua 5.1 for tables) do not reach the host
setmetatable({}, { __gc = function() error("in __gc") end })
for i = 1, 1e5 do local t = { i } end
-- a script may catch its own errors
local ok, e = pcall(error, "caught")
assert(not ok and e == "caught")
gpuperf.buffer("ok", 1)
