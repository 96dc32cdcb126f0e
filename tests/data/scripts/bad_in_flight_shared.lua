-- 'in_flight' is a field of gpuperf.load alone
local op = gpuperf.shared_load{ in_flight = 4 }
