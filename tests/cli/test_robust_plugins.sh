#!/bin/sh
# Broken and lying plugins through the gpuperf binary. Files that are not
# plugins (not a library, no descriptor, another ABI, missing callbacks,
# FIFOs, folders) are named with the reason and do not stop the others from
# loading; a plugin whose callbacks return negative, zero, infinite or NaN
# numbers (tests/plugins/evil.c, mode chosen by the device file) gets a
# clean error naming it, never a prediction built on the bad number.
#   GP_ROBUST_TABLE=FILE  also append each case as a row of the docs table
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robust_lib.sh"

: "${GP_TEST_PLUGIN_DIR:?GP_TEST_PLUGIN_DIR must name the test plugins' folder}"
PLUGINS="$GP_TEST_PLUGIN_DIR:$GP_BUILD_DIR/plugins"

# evil MODE: the evil card in misbehaviour MODE, as $TMP/evil-MODE.ini.
evil() {
    sed "s/^mode = 0/mode = $1/" tests/data/robust/devices/evil.ini >"$TMP/evil-$1.ini"
}
export GPUPERF_PLUGIN_PATH="$PLUGINS"
P="gpuperf predict"
L="$P: scripts/saxpy.lua:7: launch 'saxpy'"

# -------------------------------------------------------- lying callbacks
case_ "plugin callback: one that behaves (mode 0)"
evil 0
gpt predict --device "$TMP/evil-0.ini" scripts/saxpy.lua --json
expect_status 0
expect_json .device.arch evil
case_ "plugin callback: occupancy fails without a reason (mode 1)"
evil 1
refused "$L: plugin 'evil' (occupancy): failed without a reason" \
    predict --device "$TMP/evil-1.ini" scripts/saxpy.lua
refused "gpuperf occupancy: plugin 'evil' (occupancy): failed without a reason" \
    occupancy --device "$TMP/evil-1.ini" --threads 256 --regs 32
case_ "plugin callback: occupancy claims a million blocks per SM (mode 2)"
evil 2
refused "$L: plugin 'evil' (occupancy) returned an impossible result: 1000000 blocks, occupancy 1, limiter 1" \
    predict --device "$TMP/evil-2.ini" scripts/saxpy.lua
case_ "plugin callback: occupancy gives blocks of zero warps (mode 3)"
evil 3
refused "$L: plugin 'evil' (occupancy) returned an impossible result: 8 blocks, occupancy 1, limiter 1" \
    predict --device "$TMP/evil-3.ini" scripts/saxpy.lua
case_ "plugin callback: a negative occupancy (mode 4)"
evil 4
refused "$L: plugin 'evil' (occupancy) returned an impossible result: 8 blocks, occupancy -0.5, limiter 1" \
    predict --device "$TMP/evil-4.ini" scripts/saxpy.lua
case_ "plugin callback: op_cost returns a NaN latency (mode 5)"
evil 5
refused "$L: plugin 'evil' (block_cost) for kernel 'saxpy': op_cost returned a negative or non-finite latency or traffic for the op at line 13" \
    predict --device "$TMP/evil-5.ini" scripts/saxpy.lua
case_ "plugin callback: op_cost returns negative busy cycles (mode 6)"
evil 6
refused "$L: plugin 'evil' (block_cost) for kernel 'saxpy': op_cost returned -4 cycles on pipe 1 for the op at line 13" \
    predict --device "$TMP/evil-6.ini" scripts/saxpy.lua
case_ "plugin callback: op_cost returns infinite traffic (mode 7)"
evil 7
refused "$L: plugin 'evil' (block_cost) for kernel 'saxpy': op_cost returned a negative or non-finite latency or traffic for the op at line 13" \
    predict --device "$TMP/evil-7.ini" scripts/saxpy.lua
case_ "plugin callback: op_cost fails (mode 8)"
evil 8
refused "$L: plugin 'evil' (block_cost) for kernel 'saxpy': line 13: evil refuses this op" \
    predict --device "$TMP/evil-8.ini" scripts/saxpy.lua
case_ "plugin callback: a block of 0 cycles (mode 9)"
evil 9
refused "$L: plugin 'evil' (block_cost) returned a block time of 0 cycles for kernel 'saxpy'; times must be positive and finite" \
    predict --device "$TMP/evil-9.ini" scripts/saxpy.lua
case_ "plugin callback: a block of infinite cycles (mode 10)"
evil 10
refused "$L: plugin 'evil' (block_cost) returned a block time of inf cycles for kernel 'saxpy'; times must be positive and finite" \
    predict --device "$TMP/evil-10.ini" scripts/saxpy.lua
case_ "plugin callback: a block of NaN cycles (mode 11)"
evil 11
refused "$L: plugin 'evil' (block_cost) returned a block time of nan cycles for kernel 'saxpy'; times must be positive and finite" \
    predict --device "$TMP/evil-11.ini" scripts/saxpy.lua
case_ "plugin callback: a good time with a NaN latency (mode 12)"
evil 12
refused "$L: plugin 'evil' (block_cost) returned latency_cycles = nan for kernel 'saxpy'; it must be finite and not negative (the kernel's work may be too large to count)" \
    predict --device "$TMP/evil-12.ini" scripts/saxpy.lua
case_ "plugin callback: negative DRAM bytes (mode 13)"
evil 13
refused "$L: plugin 'evil' (block_cost) returned dram_bytes = -1 for kernel 'saxpy'; it must be finite and not negative (the kernel's work may be too large to count)" \
    predict --device "$TMP/evil-13.ini" scripts/saxpy.lua
case_ "plugin callback: a bound gpuperf does not know (mode 14)"
evil 14
refused "$L: plugin 'evil' (block_cost) returned bound 99 / pipe 8 for kernel 'saxpy', which gpuperf does not know" \
    predict --device "$TMP/evil-14.ini" scripts/saxpy.lua
case_ "plugin callback: check_device refuses the card (mode 16)"
evil 16
refused "$P: evil-16.ini:1: plugin 'evil' rejects this device: evil rejects every device in mode 16" \
    predict --device "$TMP/evil-16.ini" scripts/saxpy.lua
case_ "plugin callback: an error message without its NUL (mode 17)"
evil 17
gpt predict --device "$TMP/evil-17.ini" scripts/saxpy.lua
expect_status 1
expect_err "$L: plugin 'evil' (block_cost) for kernel 'saxpy': line 13: yyyyyyyy"
case_ "plugin callback: an occupancy detail without its NUL (mode 18)"
evil 18
gpt predict --device "$TMP/evil-18.ini" scripts/saxpy.lua
expect_status 1
expect_err "$L cannot run on Evil Card: xxxxxxxx"
case_ "plugin callback: a mode outside what the plugin declares"
sed 's/^mode = 0/mode = 99/' tests/data/robust/devices/evil.ini >"$TMP/evil-99.ini"
refused "$P: evil-99.ini:51: [arch] mode = 99: out of range (0 to 18)" \
    predict --device "$TMP/evil-99.ini" scripts/saxpy.lua
case_ "plugin callback: compare stops at the first lying device"
evil 9
gpt compare --devices "h200-sxm,$TMP/evil-9.ini" scripts/saxpy.lua
expect_status 1
expect_err "plugin 'evil' (block_cost) returned a block time of 0 cycles"

# ------------------------------------------------- files that are not plugins
case_ "plugin file: not a library (notalib.so)"
gpt plugins
expect_status 0
expect_out "notalib.so: not a loadable plugin: "
case_ "plugin file: no descriptor symbol (nosym.so)"
expect_out "nosym.so: no 'gpuperf_plugin' symbol: not a gpuperf plugin"
case_ "plugin file: descriptor NULL (nulldesc.so)"
expect_out "nulldesc.so: gpuperf_plugin() returned no descriptor"
case_ "plugin file: another ABI (badabi.so)"
expect_out "badabi.so: plugin ABI 99.0, but gpuperf speaks ABI 2.0 (major versions must match)"
case_ "plugin file: a newer minor ABI (newminor.so)"
expect_out "newminor.so: plugin ABI 2.1 is newer than gpuperf's 2.0"
case_ "plugin file: a generation without memory rules (nocallback.so)"
expect_out "nocallback.so: plugin 'nocallback': generation 9.0 lacks its memory rules"
case_ "plugin file: a bad name (badname.so)"
expect_out "badname.so: descriptor name is missing or not [a-z0-9_-]+"
case_ "plugin file: the good ones still load beside the broken ones"
expect_out "hopper         2.0    9.0"
expect_out "evil           2.0    9.0"
gpt plugins --json
expect_status 0
expect_json_has ".plugins[0].error"

case_ "plugin file: a broken hopper.so first on the path"
mkdir -p "$TMP/p"
cp "$GP_TEST_PLUGIN_DIR/notalib.so" "$TMP/p/hopper.so"
mkfifo "$TMP/p/fifo.so"
mkdir "$TMP/p/folder.so"
GPUPERF_PLUGIN_PATH="$TMP/p:$GP_BUILD_DIR/plugins"
gpt predict --device h200-sxm scripts/saxpy.lua --json
expect_status 0
expect_json .device.arch hopper
case_ "plugin file: a FIFO and a folder named like plugins"
gpt plugins
expect_status 0
expect_out "fifo.so: not a loadable plugin: not a regular file"
expect_out "folder.so: not a loadable plugin: not a regular file"
expect_out "hopper.so: not a loadable plugin: "
expect_out "$GP_BUILD_DIR/plugins/hopper.so"
case_ "plugin file: a device whose plugin is broken"
cp "$GP_TEST_PLUGIN_DIR/nocallback.so" "$TMP/p/nocallback.so"
sed 's/^arch = evil/arch = nocallback/; /^\[arch\]/,$d' tests/data/robust/devices/evil.ini >"$TMP/nocb.ini"
GPUPERF_PLUGIN_PATH="$TMP/p"
refused "$P: nocb.ini:5: plugin 'nocallback' did not load: p/nocallback.so: plugin 'nocallback': generation 9.0 lacks its memory rules" \
    predict --device "$TMP/nocb.ini" scripts/saxpy.lua

GPUPERF_PLUGIN_PATH="$PLUGINS"

finish
