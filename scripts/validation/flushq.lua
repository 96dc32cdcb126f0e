-- flushq.lua: a kernel launched right behind the benchmarks' L2 flush
-- (validation/h200/bench/bench_flushq.cu): a 1 GiB cudaMemsetAsync on the stream, not
-- waited for, then the timed launch. The memset leaves the L2 full of dirty lines and
-- the launch queued behind it: gpuperf.flush_l2() states both.
--
-- kind = "sum"   s += p[i], one float4 a thread over `bytes` (read-only)
-- kind = "set"   p[i] = v, one float4 a thread over `bytes` (write-only)
-- kind = "copy"  c[i] = a[i], one float4 a thread: bytes / 2 read, bytes / 2 written
-- (256-thread blocks, a bounds check); kind = "empty": an empty kernel of `grid`
-- blocks of 128 threads.
--
-- SASS (validation/h200/measured/run10/flushq/sass_flushq.txt.gz): sum, set and copy
-- compute the 64-bit index and check it in about 10 integer instructions, then form
-- the addresses (2 to 4 more); sum adds the four words (3 FADD) and compares.
local kind   = gpuperf.param("kind", "sum", "sum | set | copy | empty")
local bytes  = gpuperf.param("bytes", 2^24, "sum, set, copy: bytes the kernel touches")
local grid   = gpuperf.param("grid", 1, "empty: blocks")

gpuperf.flush_l2()
if kind == "sum" or kind == "set" or kind == "copy" then
  local n4 = kind == "copy" and bytes / 32 or bytes / 16
  local index = gpuperf.int(10)          -- blockIdx * blockDim + threadIdx, 64-bit check
  local exit = gpuperf.branch(1)
  local work
  if kind == "sum" then
    local p = gpuperf.buffer("p", 16 * n4)
    work = { index, gpuperf.int(2), gpuperf.load{p, bytes = 16}, gpuperf.fp32(3),
             gpuperf.int(1), exit }
  elseif kind == "set" then
    local p = gpuperf.buffer("p", 16 * n4)
    work = { index, gpuperf.int(4), gpuperf.store{p, bytes = 16}, exit }
  else
    local a = gpuperf.buffer("a", 16 * n4)
    local c = gpuperf.buffer("c", 16 * n4)
    work = { index, gpuperf.int(4), gpuperf.load{a, bytes = 16}, gpuperf.int(2),
             gpuperf.store{c, bytes = 16}, exit }
  end
  gpuperf.launch{
    name = "k_" .. kind, grid = gpuperf.grid(math.ceil(n4 / 256)), block = 256,
    regs = kind == "sum" and 10 or 14, work = work,
  }
elseif kind == "empty" then
  gpuperf.launch{ name = "k_empty", grid = grid, block = 128, regs = 4, work = {} }
else
  error("kind must be sum, set, copy or empty, not " .. tostring(kind))
end
