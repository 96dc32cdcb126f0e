-- modules come from the script's folder only
local m = require("../x")
