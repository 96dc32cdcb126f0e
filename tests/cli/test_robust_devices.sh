#!/bin/sh
# Malformed device files through the gpuperf binary: every one is refused
# with "file:line: what is wrong" (or, for what is not a file at all, with
# the path and the reason), never a crash or a hang; the first line of each
# message is documented in docs/robustness.md. A UTF-8 byte-order mark and
# CRLF line ends are accepted.
#   GP_ROBUST_TABLE=FILE  also append each case as a row of the docs table
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robust_lib.sh"

B=tests/data/robust/bad-devices

# bad_device FILE CASE MESSAGE: predicting with device FILE fails with
# "gpuperf predict: $B/FILE:MESSAGE".
bad_device() {
    case_ "device file: $2 ($1)"
    refused "gpuperf predict: $B/$1:$3" predict --device "$B/$1" scripts/saxpy.lua
}

bad_device arch-abs.ini "arch names an absolute path" "4: arch = /usr/lib/x86_64-linux-gnu/libc.so.6 is a path; name a plugin instead (e.g. arch = hopper; \`gpuperf plugins\` lists them, GPUPERF_PLUGIN_PATH adds folders)"
bad_device arch-case.ini "arch in capitals" "4: arch = Hopper: a plugin name uses only a-z, 0-9, '-' and '_'"
bad_device arch-path.ini "arch names a file" "4: arch = ../../tmp/evil.so is a path; name a plugin instead (e.g. arch = hopper; \`gpuperf plugins\` lists them, GPUPERF_PLUGIN_PATH adds folders)"
bad_device before-section.ini "a key before any section" "2: 'sm_count' appears before any [section]"
bad_device binary.ini "binary data (an ELF header)" "2: binary data (byte 0x7f) in a device file"
bad_device blank.ini "only blank lines" "1: the device file is empty"
bad_device cc-format.ini "a compute capability without its minor" "5: compute_capability = 9: write major.minor, e.g. 9.0 or 1.3"
bad_device cc-unserved.ini "a compute capability the plugin does not serve" "5: compute capability 8.0 is not served by plugin 'hopper' (it serves 9.0)"
bad_device comments-only.ini "only comments" "1: missing section [device] (first required key: name, display name)"
bad_device control.ini "a control character in the name" "3: binary data (byte 0x1b) in a device file"
bad_device div-zero.ini "an expression dividing by zero" "26: [throughput] fp32_lanes: '128/0': division by zero"
bad_device dup-key.ini "a key given twice" "7: duplicate key 'sm_count' in [device] (first at line 6)"
bad_device dup-section.ini "a section given twice" "49: duplicate section [sm] (first at line 8)"
bad_device empty.ini "an empty file" "1: the device file is empty"
bad_device fraction.ini "half a warp scheduler" "16: [sm] schedulers_per_sm = 4.5: must be a whole number"
bad_device grid-overflow.ini "a grid of 2^96 blocks" "21: max_grid_x x max_grid_y x max_grid_z = 7.923e+28 blocks is more than gpuperf counts (2^64); GPUs allow at most (2^31-1) x 65535 x 65535"
bad_device header.ini "a section header without its bracket" "32: section header without ']'"
bad_device huge.ini "a number beyond double" "33: [memory] dram_bytes: '1e999': number too large"
bad_device inconsistent.ini "more threads per block than per SM" "10: max_threads_per_block 4096 exceeds max_threads_per_sm 2048"
bad_device inf.ini "a clock of infinity" "7: [device] core_clock_mhz: 'inf': not a number (write e.g. 256, 2^24, 4*2^20 or 1e6)"
bad_device long-key.ini "a key name of 70 characters" "9: key name longer than 63 characters"
bad_device long-line.ini "a line of 300 characters" "3: line longer than 190 characters"
bad_device long-name.ini "a name of 80 characters" "3: [device] name longer than 63 characters"
bad_device long-section.ini "a section name of 70 characters" "38: empty or over-long section name"
bad_device missing-key.ini "a required key left out" "25: [throughput] lacks the required key 'sfu_lanes' (results/clock/SM)"
bad_device missing-section.ini "a required section left out" "1: missing section [launch] (first required key: launch_overhead_us, us per back-to-back launch)"
bad_device nan.ini "sm_count is NaN" "6: [device] sm_count: 'nan': not a number (write e.g. 256, 2^24, 4*2^20 or 1e6)"
bad_device negative.ini "a negative count" "6: [device] sm_count = -132: out of range (1 to 4096)"
bad_device nul.ini "a NUL byte inside a value" "9: binary data (byte 0x00) in a device file"
bad_device overflow.ini "an expression whose value overflows" "44: [latency] dram_cycles: '2^2000': the value is not finite"
bad_device range.ini "a warp of 1000 threads" "9: [sm] warp_size = 1000: out of range (1 to 64)"
bad_device l2-drawn-share.ini "an L2 share for drawn reads above the whole L2" "38: [memory] l2_drawn_capacity_fraction = 1.5: out of range (0 to 1)"
bad_device slowest-sm.ini "a slowest SM faster than a typical one" "45: l2_slowest_sm_ratio = 0.95: the slowest SM is no faster than a typical one (1 or more; 0: not known)"
bad_device syntax.ini "a line that is not key = value" "9: syntax error: expected [section], key = value or a ; comment"
bad_device tensor-clock.ini "a tensor clock above the core clock" "8: tensor_clock_mhz 2500 exceeds core_clock_mhz 1980 (it is the lower clock a kernel issuing tensor-core instructions runs at; leave it out where there is none)"
bad_device unit-hz.ini "the clock in Hz where MHz is meant" "7: [device] core_clock_mhz = 1.98e9: out of range (1 to 10000)"
bad_device unit-kib.ini "shared memory in KiB where bytes are meant" "18: shared_memory_per_block_bytes 49152 exceeds shared_memory_per_sm_bytes 228"
bad_device unit-tbs.ini "bandwidth in bytes/s where GB/s is meant" "34: [memory] dram_bandwidth_gbps = 4.8e12: out of range (0.001 to 1e+06)"
bad_device unit-text.ini "a unit written after the number" "7: [device] core_clock_mhz: '1980 MHz': unexpected 'M' in a number"
bad_device unknown-key.ini "a misspelt key" "44: unknown key 'dram_cylces' in [latency]; did you mean 'dram_cycles'?"
bad_device unknown-section.ini "a section the schema does not have" "49: unknown section [cache] (sections: [device] [sm] [throughput] [memory] [latency] [launch] [arch])"
bad_device zero.ini "no SMs" "6: [device] sm_count = 0: out of range (1 to 4096)"
case_ "device file: a plugin that does not exist (arch-unknown.ini)"
gpt predict --device $B/arch-unknown.ini scripts/saxpy.lua
expect_status 1
expect_err "gpuperf predict: $B/arch-unknown.ini:4: no plugin named 'voodoo' (looked for voodoo.so in: "

# ------------------------------------------------- what is not a device file
case_ "device path: a directory"
refused "gpuperf predict: tests/data/robust/bad-devices: is a directory, not a file" \
    predict --device tests/data/robust/bad-devices scripts/saxpy.lua
case_ "device path: a directory named like a device"
mkdir -p "$TMP/folder.ini"
gpt predict --device "$TMP/folder.ini" scripts/saxpy.lua
expect_status 1
expect_err "folder.ini: is a directory, not a file"
case_ "device path: a FIFO"
mkfifo "$TMP/pipe.ini"
gpt predict --device "$TMP/pipe.ini" scripts/saxpy.lua
expect_status 1
expect_err "pipe.ini: not a regular file (a FIFO, socket or device?)"
case_ "device path: /dev/null"
refused "gpuperf predict: /dev/null: not a regular file (a FIFO, socket or device?)" \
    predict --device /dev/null scripts/saxpy.lua
case_ "device path: a file that does not exist"
refused "gpuperf predict: $B/nothere.ini: cannot open: No such file or directory" \
    predict --device $B/nothere.ini scripts/saxpy.lua
case_ "device path: a file that cannot be read"
cp tests/data/robust/devices/minimal-hopper.ini "$TMP/unreadable.ini"
chmod 000 "$TMP/unreadable.ini"
if [ "$(id -u)" -ne 0 ]; then
    gpt predict --device "$TMP/unreadable.ini" scripts/saxpy.lua
    expect_status 1
    expect_err "unreadable.ini: cannot open: Permission denied"
else
    echo "note: running as root, the unreadable-file case is not checked"
fi
case_ "device name: not a plain name"
refused "gpuperf predict: device 'h200 sxm!': not a device name; did you mean h200-sxm?" \
    predict --device 'h200 sxm!' scripts/saxpy.lua
case_ "device name: unknown"
gpt predict --device no-such-card scripts/saxpy.lua
expect_status 1
expect_err "gpuperf predict: device 'no-such-card' not found (looked in: "
case_ "device name: a FIFO on the search path"
mkdir -p "$TMP/devs"
mkfifo "$TMP/devs/pipe.ini"
cp $B/nan.ini "$TMP/devs/"
cp tests/data/robust/devices/minimal-hopper.ini "$TMP/devs/"
GPUPERF_DEVICE_PATH="$TMP/devs" gpt predict --device pipe scripts/saxpy.lua
expect_status 1
expect_err "pipe.ini: not a regular file (a FIFO, socket or device?)"
case_ "device listing: broken files and a FIFO do not stop the others"
GPUPERF_DEVICE_PATH="$TMP/devs" gpt devices
expect_out "minimal-hopper"
expect_out "h200-sxm"
expect_err "nan.ini:6: [device] sm_count: 'nan': not a number"
expect_err "pipe.ini: not a regular file"

# ------------------------------------------------------- accepted oddities
case_ "device file: a byte-order mark and CRLF line ends"
gpt predict --device tests/data/robust/devices/bom-crlf.ini scripts/saxpy.lua --json
expect_status 0
expect_json .device.name "BOM CRLF Hopper"
expect_json .device.sm_count 132

# ------------------------------------------------------- the fuzz corpus
# tests/fuzz/README.md: the device fuzzer's seeds are the shipped device files;
# a seed that lags its file no longer starts the fuzzer from what ships.
case_ "the device fuzzer seeds every shipped device file, as it ships"
stale=""
for f in devices/*.ini; do
    s="tests/fuzz/corpus/device/seed-$(basename "$f")"
    cmp -s "$f" "$s" || stale="$stale $(basename "$f")"
done
if [ -z "$stale" ]; then ok
else bad "copy these devices/ files to tests/fuzz/corpus/device/seed-NAME.ini:$stale"; fi

finish
