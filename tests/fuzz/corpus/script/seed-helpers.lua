-- A module for require_main.lua: runs once per evaluation.
local M = {}
loads = (loads or 0) + 1
M.buf = gpuperf.buffer("shared_buf", 1024)
function M.axpy(x)
  return { gpuperf.load{x}, gpuperf.fp32(1), gpuperf.store{x} }
end
return M
