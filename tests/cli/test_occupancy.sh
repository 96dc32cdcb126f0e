#!/bin/sh
# gpuperf occupancy: text (golden), JSON fields, impossible launches and their
# fixes, sweeps, --suggest, --smem-per-thread, --svg charts on every shipped
# device, usage errors. Expected numbers are worked by hand in the comments
# (docs/occupancy.md has the rules).
. "$(dirname "$0")/lib.sh"

# json_len: the number of elements of the top-level JSON array on stdout.
json_len() {
    n=0
    while "$JSONCHECK" "$TMP/out" "[$n]" >/dev/null 2>&1; do n=$((n + 1)); done
    echo "$n"
}

# svg_ok FILE: a well-formed XML document (every tag closed in order; the
# writer puts whole tags on one line) holding an <svg> with three charts,
# three series and three markers.
svg_ok() {
    f=$1
    if ! head -1 "$f" | grep -q '^<?xml ' || ! grep -q '<svg xmlns="http://www.w3.org/2000/svg"' "$f" ||
        [ "$(tail -1 "$f")" != "</svg>" ]; then
        bad "$f: not an SVG document"
        return
    fi
    if ! awk '
        { line = $0
          while (match(line, /<[^>]*>/)) {
              tag = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
              if (tag ~ /^<\?/ || tag ~ /\/>$/) continue
              name = tag; sub(/^<\/?/, "", name); sub(/[ >].*$/, "", name)
              if (tag ~ /^<\//) { if (n == 0 || stack[n] != name) { print "unbalanced </" name ">"; exit 1 } n-- }
              else stack[++n] = name
          }
          if (line ~ /</) { print "tag across lines"; exit 1 } }
        END { if (n != 0) { print n " unclosed"; exit 1 } }' "$f" >"$TMP/xml" 2>&1; then
        bad "$f: not well-formed: $(cat "$TMP/xml")"
        return
    fi
    if command -v xmllint >/dev/null 2>&1 && ! xmllint --noout "$f" 2>"$TMP/xml"; then
        bad "$f: xmllint: $(head -3 "$TMP/xml")"
        return
    fi
    for what in '<g class="chart">' '<polyline class="series"' '<circle class="marker"'; do
        k=$(grep -c -- "$what" "$f")
        if [ "$k" -ne 3 ]; then bad "$f: $k x $what, expected 3"; return; fi
    done
    ok
}

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

case_ "carve-out preference and blocks without shared memory"
# cuda_occupancy.h: preference 0 is below one block's 1 KiB reservation, so
# the SM is configured with the 8 KiB step: 8 blocks of 128 threads. The
# H200 holds 16 (as the warps allow) when the blocks use no shared memory
# (devices/h200-sxm.ini smemless_free_of_carveout, run35/carve): the
# calculator keeps NVIDIA's answer, the prediction runs what the SM holds.
gp occupancy --device h200-sxm --threads 128 --regs 32 --carveout 0 --json
expect_status 0
expect_json .blocks_per_sm 8
expect_json .limiter shared_memory
cat >"$TMP/carve.lua" <<'LUA'
local smem = gpuperf.param("smem", 0)
local x = gpuperf.buffer("x", 4 * 132 * 16 * 128)
gpuperf.launch{ name = "k", grid = 132 * 16, block = 128, regs = 32, carveout = 0,
                smem = smem, work = { gpuperf.load{x}, gpuperf.fp32(4) } }
LUA
gp predict --device h200-sxm "$TMP/carve.lua" --json
expect_status 0
expect_json '.launches[0].blocks_per_sm' 16
expect_json '.launches[0].limiter' warps
# 1 KiB of static shared memory: 2 KiB a block against the 8 KiB step
gp predict --device h200-sxm "$TMP/carve.lua" -p smem=1024 --json
expect_status 0
expect_json '.launches[0].blocks_per_sm' 4
expect_json '.launches[0].limiter' shared_memory
# a card whose device file does not say it: the calculator's 8
gp predict --device a100-sxm4-80gb "$TMP/carve.lua" --json
expect_status 0
expect_json '.launches[0].blocks_per_sm' 8

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
expect_err "--regs is required"
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

# ---------------------------------------------------------------- fixes

# 300 registers on 9.0: 255 at most; 255 x 32 = 8160 -> 8192 per warp, two
# warps per sub-partition of 16384, 8 per SM: one block of 8 warps (12.5%).
case_ "impossible launch: the fix, JSON"
gp occupancy --device h200-sxm --threads 256 --regs 300 --json
expect_status 0
expect_json .fixes[0].change registers_per_thread
expect_json .fixes[0].value 255
expect_json .fixes[0].blocks_per_sm 1
expect_json .fixes[0].occupancy 0.125

# 2.0, 1024 threads x 33 registers: 1056 -> 1088 per warp, 32 warps = 34816
# > 32768. Fix: 32 registers (1024 x 32 = 32768, one block, 32 of 48 warps);
# or 960 threads (30 warps x 1088 = 32640; 15 warps per sub-partition, one
# block of 30 warps).
case_ "impossible launch: fixes by registers or block size, text"
gp occupancy --device geforce-gtx-480 --threads 1024 --regs 33
expect_status 0
expect_golden occupancy_fix_gtx480_1024_33.txt
expect_out "use at most 32 registers per thread: 1 block per SM, 66.7% occupancy"
expect_out "use at most 960 threads per block: 1 block per SM, 62.5% occupancy"

case_ "impossible launch: no single change, a combined fix"
gp occupancy --device geforce-8800-gtx --threads 600 --regs 130 --json
expect_status 0
expect_json .limiter block_size
expect_json .fixes[0].change combined
expect_json .fixes[0].threads_per_block 512
expect_json .fixes[0].registers_per_thread 16

# ---------------------------------------------------------------- sweeps

# 8.0, 64 registers: 2048 per warp, 8 warps per sub-partition, 32 per SM.
# 32 threads: 32 blocks (also the block limit); 96: 32 / 3 = 10 blocks.
case_ "threads sweep, text"
gp occupancy --device a100-sxm4-40gb --threads 32:256:32 --regs 64
expect_status 0
expect_golden occupancy_sweep_a100_threads.txt

case_ "threads sweep, JSON array"
gp occupancy --device a100-sxm4-40gb --threads 32:256:32 --regs 64 --json
expect_status 0
expect_json "[0].threads_per_block" 32
expect_json "[0].blocks_per_sm" 32
expect_json "[0].active_warps" 32
expect_json "[0].occupancy" 0.5
expect_json "[0].limiter" registers
expect_json "[2].threads_per_block" 96
expect_json "[2].blocks_per_sm" 10
expect_json "[7].threads_per_block" 256
expect_json "[0].device" a100-sxm4-40gb
n=$(json_len)
if [ "$n" -eq 8 ]; then ok; else bad "$n rows, expected 8"; fi

# 9.0, 256 threads: 3 register counts x 3 static sizes = 9 rows, registers
# outer. 49152 + 1024 reserved = 50176 bytes: 233472 / 50176 = 4 blocks.
case_ "a grid of two swept options"
gp occupancy --device h100-sxm --threads 256 --regs 32:64:16 --smem 0:49152:24576 --json
expect_status 0
n=$(json_len)
if [ "$n" -eq 9 ]; then ok; else bad "$n rows, expected 9"; fi
expect_json "[0].regs_per_thread" 32
expect_json "[2].static_smem" 49152
expect_json "[2].blocks_per_sm" 4
expect_json "[2].limiter" shared_memory
expect_json "[3].regs_per_thread" 48
gp occupancy --device h100-sxm --threads 256 --regs 32:64:16 --smem 0:49152:24576
expect_status 0
expect_out "9 rows"
expect_out "registers 32..64 step 16; static smem 0..49152 step 24576"

case_ "dynamic shared memory sweep, opted in above 48 KiB"
gp occupancy --device a100-sxm4-80gb --threads 128 --regs 32 --dynamic-smem 32768:98304:32768 --json
expect_status 0
expect_json "[0].dynamic_smem" 32768
expect_json "[2].dynamic_smem" 98304
expect_json "[2].blocks_per_sm" 1
expect_json "[1].blocks_per_sm" 2

# A sweep row that cannot run says so: 1.3 blocks hold at most 512 threads.
case_ "sweep rows that cannot run"
gp occupancy --device tesla-c1060 --threads 512:544:32 --regs 8 --json
expect_status 0
expect_json "[0].blocks_per_sm" 2
expect_json "[1].blocks_per_sm" 0
expect_json "[1].limiter" block_size
expect_json "[1].detail" "544 threads per block exceed the maximum of 512 (by 32)"

# --smem-per-thread: a 2.0 block of T threads with 64 bytes each holds 64T.
case_ "shared memory per thread in a sweep"
gp occupancy --device geforce-gtx-480 --threads 128:512:128 --regs 20 --smem-per-thread 64 --json
expect_status 0
expect_json "[0].smem_per_block" 8192
expect_json "[0].blocks_per_sm" 6
expect_json "[3].smem_per_block" 32768
expect_json "[3].blocks_per_sm" 1

# ---------------------------------------------------------------- suggest

# A worked example of the spreadsheet formula ([sources: xls-m]): 1.3, 128 threads, 17 registers: 6
# blocks. 16 registers: 4 warps x 32 x 16 = 2048, 8 blocks (100%). Best
# block size: 448 threads = 14 warps x 32 x 17 = 7616 -> 7680, 2 blocks of
# 14 warps (87.5%), no other size reaches 28 warps. Nearest block size with
# more than 24 warps: 416 (13 -> 14 warps, 7680 registers, 2 x 13 = 26).
case_ "suggest: the worked example, text"
gp occupancy --device tesla-c1060 --threads 128 --regs 17 --suggest
expect_status 0
expect_golden occupancy_suggest_c1060_128_17.txt
expect_out "use at most 16 registers per thread for 8 blocks per SM (from 6)"
expect_out "use 416 threads per block for 2 blocks per SM (from 6)"

# Without --threads, --suggest picks the block size as
# cudaOccupancyMaxPotentialBlockSize does: on the H200 40 registers are 1280
# per warp (256-register units), so 65536 / 1280 = 51 warps fit by registers;
# 768 threads (24 warps) x 2 blocks = 48 warps is the highest count a
# multiple of 32 threads reaches, and 768 the largest block size reaching it.
case_ "suggest without --threads"
gp occupancy --device h200-sxm --regs 40 --smem 0 --suggest --json
expect_status 0
expect_json .threads_per_block 768
expect_json .blocks_per_sm 2
expect_json .active_warps 48
expect_json .threads_per_block_from suggest
expect_json .suggest.best_block_size.largest_threads_per_block 768
gp occupancy --device h200-sxm --regs 40 --smem 0 --suggest
expect_status 0
expect_out "cudaOccupancyMaxPotentialBlockSize"
expect_out "threads per block    768"

case_ "no --threads without --suggest, and nothing that runs"
gp occupancy --device h200-sxm --regs 40
expect_status 2
expect_err "--threads is required unless --suggest"
gp occupancy --device h200-sxm --regs 300 --suggest
expect_status 1
expect_err "--regs 300: no block size"

case_ "suggest: JSON"
gp occupancy --device tesla-c1060 --threads 128 --regs 17 --suggest --json
expect_status 0
expect_json .blocks_per_sm 6
expect_json .suggest.best_block_size.threads_per_block 448
expect_json .suggest.best_block_size.largest_threads_per_block 448
expect_json .suggest.best_block_size.blocks_per_sm 2
expect_json .suggest.best_block_size.occupancy 0.875
expect_json .suggest.best_block_size.min_grid_blocks 60
expect_json .suggest.next_step[0].change registers_per_thread
expect_json .suggest.next_step[0].value 16
expect_json .suggest.next_step[0].blocks_per_sm 8
expect_json .suggest.next_step[1].change threads_per_block
expect_json .suggest.next_step[1].value 416

# 9.0, 128 registers: 4096 per warp, 16 warps per SM whatever the block:
# 25% from 32 threads (16 blocks) to 512 (1 block); CUDA's answer is the
# largest, 512. 80 registers: 2560 per warp, 6 per sub-partition, 24 warps,
# 3 blocks of 8.
case_ "suggest: smallest and largest best block size"
gp occupancy --device h200-sxm --threads 256 --regs 128 --smem 4096 --suggest --json
expect_status 0
expect_json .suggest.best_block_size.threads_per_block 32
expect_json .suggest.best_block_size.largest_threads_per_block 512
expect_json .suggest.best_block_size.largest_min_grid_blocks 132
expect_json .suggest.next_step[0].value 80
expect_json .suggest.next_step[0].blocks_per_sm 3

# 2.0, 256 threads, 40 registers, 64 bytes per thread = 16384 bytes: 3 blocks
# by registers (1280 per warp, 12 per sub-partition, 24 warps) and by
# shared memory (49152 / 16384). Neither alone helps; 32 registers (1024 per
# warp, 32 warps) with at most 12288 bytes gives 4 blocks. With 64 bytes a
# thread no block size passes 768 x 64 = 49152 bytes: 24 warps at most,
# first at 96 threads, last at 768.
case_ "suggest: both limits bind, shared memory grows with the block"
gp occupancy --device geforce-gtx-480 --threads 256 --regs 40 --smem-per-thread 64 --suggest
expect_status 0
expect_golden occupancy_suggest_gtx480_pt64.txt
gp occupancy --device geforce-gtx-480 --threads 256 --regs 40 --smem-per-thread 64 --suggest --json
expect_status 0
expect_json .smem_per_block 16384
expect_json .smem_per_thread 64
expect_json .suggest.best_block_size.threads_per_block 96
expect_json .suggest.best_block_size.largest_threads_per_block 768
expect_json .suggest.next_step[0].change combined
expect_json .suggest.next_step[0].registers_per_thread 32
expect_json .suggest.next_step[0].shared_memory_per_block 12288
expect_json .suggest.next_step[0].blocks_per_sm 4

case_ "suggest at full occupancy"
gp occupancy --device h200-sxm --threads 256 --regs 32 --suggest
expect_status 0
expect_out "next step            none: every warp slot is in use (100%)"

# ------------------------------------------------- every shipped device

for f in "$GP_SOURCE_DIR"/devices/*.ini; do
    d=$(basename "$f" .ini)
    case_ "$d: sweep, suggest, svg"
    gp occupancy --device "$d" --threads 32:1024:32 --regs 16 --json
    expect_status 0
    n=$(json_len)
    if [ "$n" -eq 32 ]; then ok; else bad "$n rows, expected 32"; fi
    expect_json "[0].threads_per_block" 32
    expect_json "[31].threads_per_block" 1024
    expect_json_has "[31].limiter"
    gp occupancy --device "$d" --threads 128 --regs 16 --smem 1024 --suggest --json \
        --svg "$TMP/$d.svg"
    expect_status 0
    expect_json_has .suggest.best_block_size.threads_per_block
    expect_json_has .suggest.next_step
    expect_json .svg "$TMP/$d.svg"
    b=$(json .blocks_per_sm)
    if [ "$b" -gt 0 ]; then ok; else bad "128 threads, 16 registers do not run on $d"; fi
    svg_ok "$TMP/$d.svg"
    if grep -qF "$(json .device.name)" "$TMP/$d.svg"; then ok; else bad "$d: no device name in the SVG"; fi
done

case_ "svg: text report names the file, the marker sits on the configuration"
gp occupancy --device h200-sxm --threads 256 --regs 64 --smem 20000 --svg "$TMP/h.svg"
expect_status 0
expect_out "charts               $TMP/h.svg"
svg_ok "$TMP/h.svg"
for t in "Impact of varying block size" "Impact of varying register count per thread" \
    "Impact of varying shared memory usage per block" "threads per block" \
    "registers per thread" "shared memory per block (KiB)" "256 threads: 50.0%" \
    "64 registers: 50.0%" "20000 B: 50.0%" "NVIDIA H200 SXM (h200-sxm, compute capability 9.0)"; do
    if grep -qF "$t" "$TMP/h.svg"; then ok; else bad "SVG lacks '$t'"; fi
done
ls "$TMP"/h.svg.tmp.* >/dev/null 2>&1 && bad "a temporary file was left beside the SVG" || ok

case_ "svg: an impossible configuration still draws, marker off the chart"
gp occupancy --device geforce-8800-gtx --threads 600 --regs 16 --svg "$TMP/g.svg"
expect_status 0
if [ "$(grep -c '<polyline class="series"' "$TMP/g.svg")" -eq 3 ]; then ok; else bad "not 3 series"; fi
if grep -qF "the configuration given (600) lies beyond the chart" "$TMP/g.svg"; then ok; else bad "no note"; fi

# ---------------------------------------------------------------- errors

case_ "bad ranges"
gp occupancy --device h200-sxm --threads 5:1:1 --regs 32
expect_status 2
expect_err "--threads 5:1:1: FIRST (5) is above LAST (1)"
gp occupancy --device h200-sxm --threads 1:5:0 --regs 32
expect_status 2
expect_err "--threads 1:5:0: STEP is 0"
gp occupancy --device h200-sxm --threads 32 --regs 1:8
expect_status 2
expect_err "--regs 1:8: write one value or a range FIRST:LAST:STEP"
gp occupancy --device h200-sxm --threads 32 --regs 1:8:2:4
expect_status 2
expect_err "write one value or a range"
gp occupancy --device h200-sxm --threads 32 --regs 8 --smem 0:x:1
expect_status 2
expect_err "--smem 0:x:1: LAST"
gp occupancy --device h200-sxm --threads 0:64:32 --regs 8
expect_status 2
expect_err "--threads 0:64:32: FIRST: '0' is not a whole number >= 1"
for t in -32 0 1.5; do
    gp occupancy --device h200-sxm --threads "$t" --regs 8
    expect_status 2
    expect_err "--threads: '$t' is not a whole number >= 1"
done
gp occupancy --device h200-sxm --threads 32:2^21:32 --regs 8
expect_status 2
expect_err "LAST: 2^21 is above the largest accepted value, 1048576"
gp occupancy --device h200-sxm --threads 32 --regs -1
expect_status 2
expect_err "--regs: '-1' is not a whole number >= 0"

case_ "too many rows"
gp occupancy --device h200-sxm --threads 1:1024:1 --regs 1:255:1
expect_status 2
expect_err "--threads 1:1024:1 (1024 values) x --regs 1:255:1 (255 values) make 261120 rows, more than 100000"
gp occupancy --device h200-sxm --threads 1:1024:1 --regs 1:97:1
expect_status 0
gp occupancy --device h200-sxm --threads 1:1024:1 --regs 1:98:1
expect_status 2
expect_err "make 100352 rows, more than 100000"

case_ "--suggest and --svg take one configuration"
gp occupancy --device h200-sxm --threads 32:64:32 --regs 8 --suggest
expect_status 2
expect_err "--suggest works on one configuration"
gp occupancy --device h200-sxm --threads 32 --regs 8:16:8 --svg "$TMP/x.svg"
expect_status 2
expect_err "--svg works on one configuration"

case_ "--svg and --smem-per-thread values"
gp occupancy --device h200-sxm --threads 32 --regs 8 --svg ""
expect_status 2
expect_err "--svg needs a file name"
gp occupancy --device h200-sxm --threads 32 --regs 8 --svg "$TMP/no/such/dir/x.svg"
expect_status 1
expect_err "--svg: $TMP/no/such/dir/x.svg: cannot create a temporary file"
gp occupancy --device h200-sxm --threads 32 --regs 8 --smem-per-thread 2^33
expect_status 2
expect_err "--smem-per-thread 2^33: at most 4294967296 bytes"
gp occupancy --device h200-sxm --threads 32 --regs 8 --smem-per-thread lots
expect_status 2
expect_err "--smem-per-thread"

case_ "help teaches sweeps, suggest and charts"
gp occupancy --help
expect_status 0
for t in "FIRST:LAST:STEP" "--suggest" "--svg FILE" "--smem-per-thread" "cudaOccupancyMaxPotentialBlockSize" "at most 100000 rows"; do
    expect_out "$t"
done

finish
