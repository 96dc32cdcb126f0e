-- require reads NAME.lua from the script's own folder only: link.lua is a
-- symbolic link the test points outside the folder
local m = require("link")
