-- One of every work constructor; test_script.c checks each converted op.
local b = gpuperf.buffer("data", 4096)
local c = gpuperf.buffer("consts", 256)
local probe = gpuperf.load{b}
assert(probe.op == "load" and probe.bytes == 4 and probe.pattern == "unit" and
       probe.footprint == 4096 and probe.space == "global" and probe.line == 4,
       "constructors return readable tables")
gpuperf.launch{
  name = "everything", grid = 2, block = 64, regs = 40,
  work = {
    gpuperf.fp32(3, 2),
    gpuperf.fp64{1.5, ilp = 4},
    gpuperf.fp16(8),
    gpuperf.int{count = 2},
    gpuperf.sfu(0.25),
    gpuperf.conv(1),
    gpuperf.branch(2),
    gpuperf.barrier(),
    gpuperf.barrier(3),
    gpuperf.tensor{flops = 512, type = "bf16"},
    gpuperf.tensor{flops = 64, ilp = 2},
    gpuperf.load{b, bytes = 16, stride = 4, offset = 1, count = 2, ilp = 2, footprint = 1024},
    gpuperf.load{buffer = b, pattern = "random", space = "texture"},
    gpuperf.load(b),
    gpuperf.store{b, pattern = "broadcast", bytes = 8},
    gpuperf.atomic{b, scope = "warp", bytes = 8, result = true},
    gpuperf.atomic{space = "shared", scope = "same", from_data = true},
    gpuperf.async_copy{b},
    gpuperf.shared_load{stride = 2, conflicts = 2},
    gpuperf.shared_store{bytes = 8, pattern = "broadcast"},
    gpuperf.local_load{},
    gpuperf.local_store{count = 2},
    gpuperf.const_load{c},
    gpuperf.const_load{footprint = 64, pattern = "unit"},
    gpuperf.load{footprint = 2048, stride = -2},
  },
}
-- an op untouched since its constructor: rawget sees its tag and line too
local untouched = gpuperf.fp32(1)
assert(rawget(untouched, "op") == "fp32" and rawget(untouched, "line") == 39, "rawget on a new op")
