-- a copy of one byte after copies of 1e18 bytes: at a clock of about 1e13 us
-- the short copy ends within rounding of its start (engine bug, see
-- docs/robustness.md)
gpuperf.copy{bytes = 1e18, kind = "h2d"}
gpuperf.copy{bytes = 1, kind = "p2p"}
