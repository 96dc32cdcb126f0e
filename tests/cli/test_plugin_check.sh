#!/bin/sh
# gpuperf plugin-check: every shipped plugin conforms, and plugins broken on
# purpose are caught with the right messages and the inputs that broke them.
. "$(dirname "$0")/lib.sh"
: "${GP_BUILD_DIR:?}" "${GP_TEST_PLUGIN_DIR:?}"
PLUGINS="$GP_BUILD_DIR/plugins"

for so in "$PLUGINS"/*.so; do
    name=$(basename "$so" .so)
    case_ "plugin-check $name (shipped)"
    gp plugin-check "$so" --json --max-reports 0
    expect_status 0
    expect_json ".plugin.name" "$name"
    expect_json_has ".devices[0].id"
    i=0
    while id=$("$JSONCHECK" "$TMP/out" ".checks[$i].id" 2>/dev/null); do
        v=$(json ".checks[$i].violations")
        c=$(json ".checks[$i].cases")
        if [ "$c" -gt 0 ] || [ "$id" = "descriptor.file_name" ]; then ok
        else bad "check $id examined no case"; fi
        if [ "$v" = 0 ]; then ok
        else bad "$name: check $id: $v violations"; fi
        i=$((i + 1))
    done
    if [ "$i" -ge 19 ]; then ok; else bad "only $i checks reported"; fi
    gp plugin-check "$so" --max-reports 0
    expect_status 0
    expect_out "plugin-check: $name conforms: 0 violations"
done

case_ "every shipped plugin was checked"
for name in hopper ampere fermi-kepler tesla; do
    if [ -f "$PLUGINS/$name.so" ]; then ok; else bad "no $name.so to check"; fi
done

case_ "tesla conforms: text report"
gp plugin-check "$PLUGINS/tesla.so"
expect_status 0
expect_out "plugin tesla 2.0 (ABI 2.0), compute capability 1.0, 1.1, 1.2, 1.3"
expect_out "geforce-8800-gtx"
expect_out "occupancy.monotonic"
expect_out "plugin-check: tesla conforms: 0 violations in"
# 1.1 has no device file: a copy of a 1.0 card stands in, and says so
expect_out "note: no device file of compute capability 1.1: checking geforce-8800-gtx@1.1"
# 1.2 has none either: a copy of a 1.3 card stands in
expect_out "note: no device file of compute capability 1.2: checking geforce-gtx-280@1.2"

case_ "a device of another plugin is checked as this plugin's, and says so"
gp plugin-check "$GP_TEST_PLUGIN_DIR/toy.so" --device h200-sxm --json
expect_json ".devices[0].origin" "h200-sxm (written for 'hopper', checked as 'toy')"
expect_json_has ".notes[0]"

case_ "a device whose compute capability the plugin does not serve"
gp plugin-check "$PLUGINS/hopper.so" --device tesla-c1060
expect_status 1
expect_err "--device tesla-c1060: compute capability 1.3 is not served by plugin 'hopper' (it serves 9.0)"

case_ "a device that does not load"
gp plugin-check "$PLUGINS/hopper.so" --device no-such-card
expect_status 1
expect_err "--device no-such-card:"

# broken on purpose: the loader refuses them, plugin-check says why
check_refused() {
    case_ "plugin-check $1 (refused by the loader)"
    gp plugin-check "$GP_TEST_PLUGIN_DIR/$1"
    expect_status 1
    expect_err "$2"
}
check_refused notalib.so "notalib.so: not a loadable plugin"
check_refused nosym.so "no 'gpuperf_plugin' symbol: not a gpuperf plugin"
check_refused badabi.so "plugin ABI 99.0, but gpuperf speaks ABI 2.0 (major versions must match)"
check_refused newminor.so "plugin ABI 2.1 is newer than gpuperf's 2.0"
check_refused nocallback.so "plugin 'nocallback': generation 9.0 lacks its memory rules"
check_refused badname.so "descriptor name is missing or not [a-z0-9_-]+"
check_refused nulldesc.so "gpuperf_plugin() returned no descriptor"

case_ "a plugin file that does not exist"
gp plugin-check "$TMP/missing.so"
expect_status 1
expect_err "missing.so: no such file"

case_ "a refused plugin as JSON"
gp plugin-check "$GP_TEST_PLUGIN_DIR/badabi.so" --json
expect_status 1
expect_json ".conforms" "false"
expect_json_has ".error"

case_ "negtime: negative block times, with the inputs"
gp plugin-check "$GP_TEST_PLUGIN_DIR/negtime.so"
expect_status 1
expect_out "[block_cost.valid] h100-sxm: block time -1 cycles; it must be positive and finite"
expect_out "inputs: kernel fp32_chain; threads=32 (block 32x1x1"
expect_out "plugin-check: negtime does not conform:"

case_ "nanocc: an occupancy of NaN"
gp plugin-check "$GP_TEST_PLUGIN_DIR/nanocc.so" --json
expect_status 1
expect_json ".conforms" "false"
expect_json ".checks[5].id" "occupancy.fields"
v=$(json ".checks[5].violations")
expect_between "$v" 1 1000000000
grep -q '"what":	"occupancy is nan; it must lie in 0..1"' "$TMP/out" && ok || bad "no NaN report"

# the evil test plugin misbehaves as its device's [arch] mode says
evil() {
    sed "s/^\[arch\].*//; s/^mode *=.*//" "$GP_TEST_DATA/robust/devices/evil.ini" >"$TMP/evil-$1.ini"
    printf '[arch]\nmode = %s\n' "$1" >>"$TMP/evil-$1.ini"
    case_ "evil mode $1"
    gp plugin-check "$GP_TEST_PLUGIN_DIR/evil.so" --device "$TMP/evil-$1.ini" --max-reports 1
    expect_status 1
    expect_out "$2"
}
evil 1 "[occupancy.call] evil-1: occupancy failed: (no reason given)"
evil 2 "[occupancy.hardware] evil-2: 1000000 blocks per SM; the device has 32 block slots"
evil 3 "[occupancy.fields] evil-3: warps_per_block is 0"
evil 4 "[occupancy.fields] evil-4: occupancy is -0.5; it must lie in 0..1"
evil 5 "[op_cost.valid] evil-5: latency_cycles = nan; it must be finite and >= 0"
evil 6 "[op_cost.valid] evil-6: pipe_cycles[fp32] = -4; it must be finite and >= 0"
evil 7 "[op_cost.valid] evil-7: dram_bytes = inf; it must be finite and >= 0"
evil 8 "[op_cost.call] evil-8: op_cost refused an op every generation has: evil refuses this op"
evil 9 "[block_cost.valid] evil-9: block time 0 cycles; it must be positive and finite"
evil 10 "[block_cost.valid] evil-10: block time inf cycles"
evil 11 "[block_cost.valid] evil-11: block time nan cycles"
evil 12 "[block_cost.valid] evil-12: latency_cycles = nan; it must be finite and >= 0"
evil 13 "[block_cost.valid] evil-13: dram_bytes = -1; it must be finite and >= 0"
evil 14 "[block_cost.valid] evil-14: bound 99 / bound_pipe"
evil 17 "[op_cost.call] evil-17: op_cost refused an op every generation has: yyyy"
evil 18 "[occupancy.fields] evil-18: 0 blocks per SM but active_warps 8 and occupancy 0"

case_ "evil mode 16: check_device refuses the device"
sed "s/^mode *=.*/mode = 16/" "$GP_TEST_DATA/robust/devices/evil.ini" >"$TMP/evil-16.ini"
gp plugin-check "$GP_TEST_PLUGIN_DIR/evil.so" --device "$TMP/evil-16.ini"
expect_status 1
expect_err "plugin 'evil' rejects this device: evil rejects every device in mode 16"

case_ "evil mode 0 behaves"
sed "s/^mode *=.*//" "$GP_TEST_DATA/robust/devices/evil.ini" >"$TMP/evil-0.ini"
gp plugin-check "$GP_TEST_PLUGIN_DIR/evil.so" --device "$TMP/evil-0.ini" --json
expect_json ".devices[0].origin" "$TMP/evil-0.ini"
v=$(json ".checks[5].violations")
expect_between "$v" 0 0

case_ "a plugin that crashes is reported with the call that crashed it"
cat >"$TMP/crashy.c" <<'EOF'
#include <stddef.h>
#include "gpuperf/plugin.h"
static const gp_alloc_rules_t R = {.reg_granularity = GP_REG_ALLOC_WARP, .reg_alloc_unit = 256,
    .warp_alloc_granularity = 4, .max_regs_per_thread = 255, .smem_alloc_unit = 128};
static const gp_mem_rules_t M = {.coalesce_threads = 32, .segment_bytes = {32, 32, 32, 32, 32},
    .banks = 32, .bank_bytes = 4};
static const gp_generation_t G[] = {{.cc = {9, 0}, .alloc = &R, .mem = &M}};
static int occ(const gp_host_t *h, const gp_generation_t *g, const gp_device_t *d,
               const gp_launch_t *l, gp_occupancy_t *o, char *e, size_t n)
{
    (void)h; (void)g; (void)d; (void)o; (void)e; (void)n;
    if (l->threads_per_block == 33)
        *(volatile int *)(size_t)l->regs_per_thread = 1; /* a bug: writes to a bad address */
    return GP_DEFAULT;
}
static const gp_plugin_t D = {.abi_major = GP_ABI_MAJOR, .abi_minor = GP_ABI_MINOR,
    .name = "crashy", .description = "crashes", .version = "0", .gens = G, .n_gens = 1,
    .occupancy = occ};
GP_PLUGIN_EXPORT const gp_plugin_t *gpuperf_plugin(void) { return &D; }
EOF
if ${CC:-cc} -shared -fPIC -I"$GP_SOURCE_DIR/core/include" -o "$TMP/crashy.so" "$TMP/crashy.c" \
    2>"$TMP/cc.log"; then
    gp plugin-check "$TMP/crashy.so" --device h200-sxm
    expect_status 1
    expect_err "gpuperf plugin-check: the plugin crashed (SIGSEGV) in occupancy() of plugin 'crashy' on device h200-sxm; threads=33"
    expect_err "does not conform: the plugin crashed"
else
    bad "cannot compile the crashing plugin: $(cat "$TMP/cc.log")"
fi

case_ "a plugin file named unlike its descriptor"
cp "$PLUGINS/tesla.so" "$TMP/not-tesla.so"
gp plugin-check "$TMP/not-tesla.so" --device tesla-c1060
expect_status 1
expect_out "[descriptor.file_name]: the file is named not-tesla.so but the descriptor's name is 'tesla'"

case_ "usage errors"
gp plugin-check
expect_status 2
expect_err "name the plugin file"
gp plugin-check a.so b.so
expect_status 2
expect_err "unexpected argument 'b.so'"
gp plugin-check "$PLUGINS/tesla.so" --frobnicate
expect_status 2
expect_err "unknown option '--frobnicate'"
gp plugin-check "$PLUGINS/tesla.so" --max-reports many
expect_status 2
expect_err "--max-reports"

case_ "help lists every check"
gp plugin-check --help
expect_status 0
for id in descriptor occupancy.monotonic op_cost.valid block_cost.more_work block_cost.clock \
    block_cost.bandwidth block_cost.residency; do
    expect_out "  $id"
done

finish
