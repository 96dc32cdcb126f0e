-- no coroutines: a script cannot yield across the host
local co = coroutine.create(function() end)
