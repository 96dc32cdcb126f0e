#!/bin/sh
# gpuperf devices and gpuperf plugins, with good and broken files around.
. "$(dirname "$0")/lib.sh"

case_ "devices"
gp devices
expect_status 0
expect_out "h200-sxm"
expect_out "hopper"
expect_out "NVIDIA H200 SXM"

case_ "devices --json"
gp devices --json
expect_status 0
expect_json_has ".devices[0].id"
for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19; do
    id=$("$JSONCHECK" "$TMP/out" ".devices[$i].id" 2>/dev/null) || break
    if [ "$id" = "h200-sxm" ]; then
        expect_json ".devices[$i].sm_count" 132
        expect_json ".devices[$i].compute_capability" 9.0
    fi
done

case_ "a broken device file is reported, the others listed"
mkdir -p "$TMP/devs"
cp devices/h200-sxm.ini "$TMP/devs/good.ini"
printf '[device]\nname = broken\nsm_count = lots\n' >"$TMP/devs/broken.ini"
GPUPERF_DEVICE_PATH="$TMP/devs" gp devices
expect_status 0
expect_out "good"
expect_err "broken.ini:3:"
expect_err "not a number"

case_ "plugins"
gp plugins
expect_status 0
expect_out "hopper"
expect_out "9.0"

case_ "plugins --json"
gp plugins --json
expect_status 0
expect_json_has ".plugins[0].name"
expect_json_has ".plugins[0].abi"

case_ "broken plugins on the path are named, the good ones still load"
GPUPERF_PLUGIN_PATH="$GP_TEST_PLUGIN_DIR" gp plugins
expect_status 0
expect_out "hopper"
expect_out "toy"
expect_out "notalib.so: not a loadable plugin"
expect_out "badabi.so: plugin ABI 99.0"
expect_out "nocallback.so: plugin 'nocallback': generation 9.0 lacks its memory rules"
expect_out "nosym.so: no 'gpuperf_plugin' symbol"

finish
