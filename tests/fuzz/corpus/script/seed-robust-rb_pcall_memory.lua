-- pcall cannot catch the memory cap
local ok = pcall(function() local t = {} for i = 1, 1e9 do t[i] = {} end end)
gpuperf.buffer("after", ok and 1 or 2)
