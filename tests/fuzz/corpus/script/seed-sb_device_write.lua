-- the device table is read-only
gpuperf.device.sm_count = 1
