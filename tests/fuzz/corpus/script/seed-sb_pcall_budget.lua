-- pcall cannot catch the budget
while true do
  pcall(function() while true do end end)
end
