-- an empty string repeated with a large separator
local s = string.rep("", 2^30, string.rep("s", 1024))
