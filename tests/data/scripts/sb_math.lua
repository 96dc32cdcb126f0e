-- math reads the library's values until the script writes to it or looks at
-- it raw; from then on it is the full copy of the library it always was. No
-- change reaches the next evaluation. The buffer's size is the number of
-- keys pairs(math) lists at the end.
local mode = gpuperf.param("mode", "read")
assert(math.marker == nil and math.answer == nil and math[1] == nil,
       "a change to math survived the last evaluation")
local floor, pi = math.floor, math.pi
assert(floor and floor(2.5) == 2 and pi > 3.14 and math.huge > 1e308, "library values")
local before = 0
if mode == "read" then
  assert(rawget(math, "floor") == floor, "rawget reads the library's value")
elseif mode == "write" then
  math.floor = nil                           -- a library key cleared stays cleared
  assert(math.floor == nil and rawget(math, "floor") == nil, "math.floor = nil")
  math.marker = true
  -- floor gone, marker added: as many keys
elseif mode == "rawset" then
  rawset(math, "floor", nil)
  assert(math.floor == nil, "rawset(math, 'floor', nil)")
  rawset(math, "answer", 42)
  assert(math.answer == 42 and math.sqrt(4) == 2, "rawset then read")
elseif mode == "meta" then
  assert(getmetatable(math) == nil, "math has no metatable")
  setmetatable(math, {__index = function(_, k) return "none:" .. k end})
  assert(math.unknown == "none:unknown" and math.abs(-1) == 1, "a script's own metatable")
  before = 0
elseif mode == "insert" then
  table.insert(math, "x")
  assert(math[1] == "x" and #math == 1, "table.insert(math, v)")
  local n = 0
  for k, v in pairs(math) do
    n = n + 1
    assert(k ~= "floor" or v == floor, "pairs lists the library's value")
  end
  assert(n > 20 and math[1] == "x" and math.floor == floor, "pairs after table.insert")
  before = -1                                -- [1] is not the library's
elseif mode == "next" then
  assert(next(math) ~= nil, "next(math) sees the library's keys")
  math.pi = 3
  assert(math.pi == 3 and math.floor == floor, "an assignment after next")
end
local n = before
for _ in pairs(math) do n = n + 1 end
gpuperf.buffer("keys", n)
