-- a 33-way bank conflict
local op = gpuperf.shared_load{ conflicts = 33 }
