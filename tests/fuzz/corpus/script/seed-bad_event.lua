-- record takes an event handle
gpuperf.record("e")
