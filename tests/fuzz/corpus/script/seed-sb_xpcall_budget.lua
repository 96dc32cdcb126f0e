-- nor can an xpcall handler that loops
xpcall(function() error("x") end, function(m) while true do end end)
