-- memcpy.lua: cudaMemcpyAsync of `bytes` bytes (validation/h200/bench/bench_own.cu):
-- host to device and device to host from pinned memory, device to device.
local kind  = gpuperf.param("kind", "h2d", "h2d | d2h | d2d")
local bytes = gpuperf.param("bytes", 2^20, "bytes copied")
gpuperf.copy{ bytes = bytes, kind = kind, stream = gpuperf.default_stream }
