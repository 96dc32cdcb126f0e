-- concatenation doubling a string
local s = "z"
while true do s = s .. s end
