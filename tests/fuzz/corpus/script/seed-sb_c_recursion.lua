-- recursion through a C function (string.gsub)
local function f()
  local r = ("x"):gsub("x", f)
  return r
end
f()
