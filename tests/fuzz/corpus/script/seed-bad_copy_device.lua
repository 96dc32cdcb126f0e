-- only device 0 exists
gpuperf.copy{ bytes = 64, kind = "d2d", device = 1 }
