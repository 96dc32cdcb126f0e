-- repeating nothing costs nothing, even 2^31-1 times, in a loop
for i = 1, 1e9 do local s = string.rep("", 2^31 - 1) end
