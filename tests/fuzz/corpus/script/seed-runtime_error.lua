-- an error two calls deep
local function inner(x)
  error("bad value " .. x)
end
local function outer(x)
  inner(x * 2)
end
outer(21)
