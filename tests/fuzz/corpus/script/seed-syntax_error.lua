-- a missing 'then'
local n = 3
if n > 2
  print("big")
end
