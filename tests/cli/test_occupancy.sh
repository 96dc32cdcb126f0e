#!/bin/sh
# gpuperf occupancy: text (golden), JSON fields, impossible launches, usage errors.
. "$(dirname "$0")/lib.sh"

case_ "text report"
gp occupancy --device h200-sxm --threads 256 --regs 32 --smem 0
expect_status 0
expect_golden occupancy_h200_256_32.txt

case_ "register-limited, text"
gp occupancy --device h200-sxm --threads 256 --regs 128 --smem 4096
expect_status 0
expect_golden occupancy_h200_256_128.txt

case_ "json fields"
gp occupancy --device h200-sxm --threads 256 --regs 32 --smem 0 --json
expect_status 0
expect_json .blocks_per_sm 8
expect_json .active_warps 64
expect_json .max_warps 64
expect_json .occupancy 1
expect_json .limiter warps
expect_json .limits.registers 8

case_ "shared memory limiter and opt-in"
gp occupancy --device h200-sxm --threads 256 --regs 10 --dynamic-smem 115712 --json
expect_status 0
expect_json .blocks_per_sm 2
expect_json .limiter shared_memory

case_ "carve-out preference"
gp occupancy --device h200-sxm --threads 128 --regs 16 --smem 8192 --carveout 3 --json
expect_status 0
expect_json .smem_per_sm_configured 16384
expect_json .blocks_per_sm 1

case_ "impossible launch is an answer, exit 0"
gp occupancy --device h200-sxm --threads 2048 --regs 32 --json
expect_status 0
expect_json .blocks_per_sm 0
expect_json .limiter block_size
expect_json .detail "2048 threads per block exceed the maximum of 1024 (by 1024)"

case_ "impossible launch, text"
gp occupancy --device h200-sxm --threads 256 --regs 300
expect_status 0
expect_out "blocks per SM        0: the launch cannot run"
expect_out "300 registers per thread exceed the maximum of 255 (by 45)"

case_ "missing options"
gp occupancy --device h200-sxm --threads 256
expect_status 2
expect_err "--threads and --regs are required"
gp occupancy --threads 256 --regs 32
expect_status 2
expect_err "--device is required"

case_ "bad numbers"
gp occupancy --device h200-sxm --threads lots --regs 32
expect_status 2
expect_err "--threads"
gp occupancy --device h200-sxm --threads 256 --regs 32 --carveout 150
expect_status 2
expect_err "--carveout 150"
gp occupancy --device h200-sxm --threads 256 --regs 32 --cache huge
expect_status 2
expect_err "--cache huge"

case_ "unknown device"
gp occupancy --device h900 --threads 256 --regs 32
expect_status 1
expect_err "device 'h900' not found"

finish
