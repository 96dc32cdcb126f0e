-- Kernel-launch overhead as measured by M. Boyer, "CUDA Kernel Overhead"
-- (University of Virginia CUDA support pages, 2008-era GPUs and drivers):
-- an empty kernel launched `launches` times back to back without
-- synchronising between calls; the time per call is the total over the
-- number of launches (the validation row's divide_by).
local launches = gpuperf.param("launches", 10000, "back-to-back empty launches")

for _ = 1, launches do
  gpuperf.launch{ name = "empty", grid = 1, block = 32, regs = 2, work = {} }
end
