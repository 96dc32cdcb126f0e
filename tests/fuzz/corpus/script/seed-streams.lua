local copy = gpuperf.stream("copy")
local compute = gpuperf.stream()
local copied = gpuperf.event("copied")
local finished = gpuperf.event()
gpuperf.copy{ bytes = 4096, kind = "h2d", stream = copy }
gpuperf.record(copied, copy)
gpuperf.wait(compute, copied)
gpuperf.launch{ name = "k", grid = 1, block = 32, regs = 8, stream = compute }
gpuperf.record(finished)
gpuperf.synchronize(compute)
gpuperf.copy{ bytes = 2^30, kind = "p2p" }
gpuperf.copy{ bytes = 512, kind = "d2h", stream = gpuperf.default_stream }
gpuperf.synchronize()
assert(copy.name == "copy" and compute.name == "stream2")
assert(copied.name == "copied" and finished.name == "event1")
assert(gpuperf.default_stream.name == "default")
