#!/bin/sh
# gpuperf validate: the accuracy gates on the stored measurements, and bad tables.
. "$(dirname "$0")/lib.sh"

# readme_pct MARKER FOLLOW: the first bold percentage of the README that the
# text FOLLOW comes right after ("**" for "**3.0%**"), from the line that
# starts with MARKER on, without the % (nothing where none).
readme_pct() {
    awk -v m="$1" -v f="$2" 'index($0, m) == 1 { inb = 1 }
        inb && match($0, /\*\*[0-9.]+%/) && index(substr($0, RSTART + RLENGTH), f) == 1 {
            print substr($0, RSTART + 2, RLENGTH - 3); exit }' "$GP_SOURCE_DIR/README.md"
}

# readme_published NAME: the README's line for validation/published/NAME in
# its table of published figures says what `gpuperf validate` (text, on
# stdout) says of the independent, scaled and consistency rows: their count,
# MAPE (to 0.1%) and, for the independent rows, those within 2x.
readme_published() {
    line=$(grep "^| \`$1\` |" "$GP_SOURCE_DIR/README.md")
    if [ -z "$line" ]; then
        bad "README.md has no line for $1 in its table of published figures"
        return
    fi
    want=$(printf '%s\n' "$line" | awk -F'|' '
        function kind(c,   n, m) { gsub(/^ +| +$/, "", c); if (c == "-") return "0 0.0"
                                   n = c; sub(/ .*/, "", n); m = c; sub(/.*, /, "", m); sub(/%.*/, "", m); return n " " m }
        { n = $4; gsub(/^ +/, "", n); sub(/[^0-9].*/, "", n); m = $5; gsub(/[ %]/, "", m)
          w = $6; gsub(/ /, "", w); sub(/\/.*/, "", w)
          print n, m, w, kind($7), kind($8) }')
    got=$(awk '
        function fig(s,   n, m, w) { n = s; sub(/^ *[a-z]+ +/, "", n); sub(/ .*/, "", n)
                                     m = s; sub(/.*error /, "", m); sub(/%.*/, "", m)
                                     w = s; sub(/.*%, /, "", w); sub(/ .*/, "", w); return n " " m " " w }
        /^  independent / { i = fig($0) } /^  scaled / { sc = fig($0) } /^  consistency / { co = fig($0) }
        END { split(sc, a, " "); split(co, b, " "); print i, a[1], a[2], b[1], b[2] }' "$TMP/out")
    if [ "$want" = "$got" ]; then ok
    else bad "README.md's line for $1 reads (rows, MAPE, within 2x; scaled rows, MAPE; consistency rows, MAPE) '$want', the validation '$got' (update the table)"; fi
}

# readme_table HEADING: the README's accuracy table under the heading that
# starts with HEADING ("### Calibration (") says what the validation whose
# JSON is on stdout (run with --min-within 1.5:FRACTION) says: per family
# its rows, MAPE (to 0.1%), rows within 1.5x and 2x, and a worst row whose
# error fits the family's worst ratio; the "all" line the overall figures;
# the heading the overall rows; the families' rows add up to them.
readme_table() {
    awk -v head="$1" '
        index($0, head) == 1 { inb = 1; n = $0; sub(/^[^(]*\(/, "", n); sub(/ .*/, "", n); print "heading", n; next }
        inb && /^\| / && !/^\| family/ {
            nf = split($0, f, "|")
            for (i = 2; i < nf; i++) { gsub(/^ +| +$/, "", f[i]); gsub(/\*/, "", f[i]) }
            w = f[5]; sub(/.* /, "", w); sub(/%$/, "", w)
            sub(/%$/, "", f[4]); sub(/\/.*/, "", f[6]); sub(/\/.*/, "", f[7])
            print f[2], f[3], f[4], (f[2] == "all" ? "-" : w), f[7], f[6]
            next
        }
        inb && /^$/ && seen { exit }
        inb && /^\|/ { seen = 1 }
    ' "$GP_SOURCE_DIR/README.md" >"$TMP/readme_table"
    if ! grep -q '^all ' "$TMP/readme_table"; then
        bad "README.md has no table with an 'all' line under '$1'"
        return
    fi
    # the validation's figures for every line of the table, in one reading
    paths=$(awk '$1 == "heading" { print ".overall.rows"; next }
                 { p = $1 == "all" ? ".overall" : ".families." $1
                   print p ".rows", p ".mape_pct", p ".within_2x", p ".worst_ratio", p ".within" }' "$TMP/readme_table")
    # shellcheck disable=SC2086 # the paths, as words
    if ! "$JSONCHECK" "$TMP/out" $paths >"$TMP/readme_json" 2>"$TMP/readme_err"; then
        bad "README.md '$1...': $(cat "$TMP/readme_err") in the validation (a family of the table it does not have)"
        return
    fi
    awk -v head="$1" '
        NR == FNR { v[NR] = $0; next }
        $1 == "heading" { k++; if ($2 != v[k]) printf "%s...: %s rows in the heading, the validation has %s\n", head, $2, v[k]; want = v[k]; next }
        {
            jr = v[++k]; jm = v[++k]; j2 = v[++k]; jw = v[++k]; j15 = v[++k]
            r = $2; m = $3; w = $4; t = $5; t15 = $6
            if ($1 != "all") sum += r
            # the worst row (the largest error) lies within the worst ratio
            # and at least as far out as its row: |e| >= 1 - 1/ratio (the
            # table rounds the error to 0.1 points: 0.0005 either way)
            e = (w + 0) / 100; a = e < 0 ? -e : e; a0 = a > 0.0005 ? a - 0.0005 : 0
            q = e >= 0 ? 1 + a0 : 1 / (1 - a0)
            good = r == jr && m == sprintf("%.1f", jm) && t == j2 && t15 == j15 &&
                   (w == "-" || (q <= jw * (1 + 1e-9) && a + 0.0005 >= 1 - 1 / jw))
            if (!good)
                printf "%s... %s: rows %s, MAPE %s%%,%s within 1.5x %s, within 2x %s; the validation: rows %s, MAPE %.3f%%, worst ratio %.4f, within 1.5x %s, within 2x %s (update the table)\n",
                       head, $1, r, m, (w == "-" ? "" : " worst row " w "%,"), t15, t, jr, jm, jw, j15, j2
        }
        END { if (sum != want) printf "%s...: its families hold %d rows, the validation %d (a family of the validation is not in the table)\n", head, sum, want }
    ' "$TMP/readme_json" "$TMP/readme_table" >"$TMP/readme_bad"
    if [ -s "$TMP/readme_bad" ]; then
        while IFS= read -r line; do bad "README.md '$line"; done <"$TMP/readme_bad"
    else
        ok
    fi
}

# The H200 table: the shared calibration set must stay within the accuracy
# target (10%) and the figure reached (these thresholds only ever go down).
case_ "H200 calibration set: accuracy gate"
gp validate validation/h200/calibration.csv --source "shared H200" \
    --max-mape 5 --max-ratio 2 --check-order --max-order-errors 0
expect_status 0
expect_out "overall: 68 rows, 68 predicted"
expect_out "68 within 2x"
# the README's figure for it ("The shared calibration set ... predicts at **3.0%**")
x=$(readme_pct "The shared calibration set" "**")
if [ -n "$x" ]; then expect_out "headline (independent rows): 68 rows, 68 predicted, mean absolute error $x%,"
else bad "README.md states no '**N%**' figure for the shared calibration set"; fi

# All calibration rows, including the evaluation rows moved here after they
# were examined (validation/README.md log). The 36 `mlp` rows (straight-line
# memory-level parallelism, bench_mlp) are at 12.6% (all within 2x), with the block
# slot turnaround of 64 waves of one block per SM, the measured L1 load rate and the
# L1 a kernel with no carve-out preference really gets modelled; the 36 `graph_node`
# rows (chains of small kernels in streams and graphs) at 7.6%; the 94 `atom` rows
# (bench_atom) at 7.7%; the 48 `sectors` rows (partial sectors, bench_sectors) at
# 8.8%; the 73 `chase` rows (bench_chase: lanes on their own lines, the L1 edge,
# gathers) at 12.3%, one row at 2.1x (224 KiB, 4 lanes of 8 warps per SM: the L1
# keeps more than the edge rule says when 32 lanes of an SM chase); the 114 `smem`
# rows (bench_smem) at 4.7%; the 72 `tiles` rows (bench_tiles: shared-memory
# tiled GEMM loops, warp-uniform loads, a staged stencil) at 8.7%; the 260 `atom`
# rows (bench_atom, with the used-result, shared float CAS and warp-uniform rows)
# at 9.0%; the 62 `reuse` rows (bench_reuse) at 12.2%; the 86 `tiles2` rows
# (bench_tiles2: the phases of tiled loops) at 13.1%; the 64 `tiles3` rows
# (bench_tiles3: WMMA tile loops, stencil halos, the SGEMM compute alone) at
# 22.6%; the 154 `uniform` rows (bench_uniform) at 31.2%; the 214 `turnover`
# rows (bench_turnover: short memory-bound blocks, pinned slots, grid-stride
# sums) at 7.7%; the 150 `uniform2` rows (bench_uniform2: loads in flight per
# warp, the load instruction) at 38.1%; the 43 `clock` rows (bench_clock: FFMA,
# SGEMM compute, LDS, HMMA and DRAM loads from 50 us to 1.5 s) at 3.7%; this
# round's families: `loopchain` (288 rows, loops of one load and an arithmetic
# body) 15.1%, `mmasmem` (132, WMMA tile loops by copy width) 22.7%, `cold`
# (396, chases through a cold L2) 7.4%, `alias` (12, loops that store into the
# buffer they load) 18.6%, `gridstride` (155, grid-stride sums at 1 to 64 warps
# per SM) 8.6%, `regblock` (128, whole register-blocked SGEMMs by phase) 15.4%,
# `flushq` (57, kernels right behind the memset flush, which the model does not
# follow) 34.3%, `scatter` (396, random gathers of 1 to 32 lanes at 1 to 64
# warps per SM) 14.5%, `attnq` (148 rows, thread-per-row loops over keys) 14.5%;
# since then the sampler's fold period took `loopchain` to 9.3%, the L2's lines
# for drawn reads `scatter` to 11.3%, and the 44 `wback` rows (a kernel's
# output or input read by the next kernel) came in at 9.5%; then the 193
# `scatterw` rows (random stores) at 15.7%, the special-function call's guard
# took `loopchain` to 8.7% and `attnq` to 13.9%, and the six radix scatter
# passes moved here from the evaluation set, then the global histogram's two
# skewed rows, the LCG scatter permutation, the 34 `perm` rows (16.0%) and the
# 24 `tlb` rows (10.2%; their translation rule took `scatter` to 10.9%); then
# the benchmark's flush (queued launch, first touch, the write-back of the
# flushed dirty lines) with the calibration scripts stating the flush their
# bench made: 11.75% over 3567 rows -> 11.17% over 3573 (the six gridstride
# rows after the memset added); then the 106 `phase` rows (streaming blocks
# with a barrier phase, 8.4%), a block's stores after a barrier merging
# GP_STORE_MERGE_BURST_LINES lines and a load at an immediate offset from a
# sibling's address taking the L1's line a clock: 11.17% -> 10.60% over 3679
# rows (the `uniform` coalesced L1 rows +60..+105% -> -14..+3%); then the 20
# `guard` rows (loops with loads behind a data-dependent guard, 19.1%): 10.64%
# over 3699 rows; then the 162 `passes` rows (rows read in two or three passes,
# 7.2%, 11.6% before the re-read distance of a pass) and the four softmax and
# layer norm rows moved from the evaluation set: 10.49% over 3865 rows; then
# the 136 `colwalk` rows (loops whose unrolled copies read DRAM runs of their
# own, 8.4%; 13.0% before the copies waited for their runs) and that rule:
# the 3865 rows before 10.49 -> 10.41%; then the L1 serving the hits of every
# load of a group one after another (`uniform` 19.9 -> 18.1%, `uniform2` 14.6
# -> 13.3%, `mlp` 8.1 -> 8.3%): 10.34 -> 10.23%; then a warp's L1 hits of a
# group back l1_return_cycles apart (`uniform2` 13.3 -> 9.6%, `uniform` 18.1
# -> 14.1%, `attnq` 13.9 -> 12.2%; worse `mlp` 8.3 -> 8.8%, `tiles` 8.2 ->
# 8.5%): 9.88%; then the 90 `overlap` rows (an unrolled loop's copies running
# their load-fed chains side by side, 15.9%; 55.4% before that rule) and the
# rule: the 4001 rows before 9.88 -> 9.87% (`loopchain` 8.7 -> 8.56%: the
# n-body rows), 10.00% over 4091 rows; then a grid-stride loop kept to one copy
# (the 4091 rows 9.99%: `histogram` 20.3 -> 15.0%) and the 102 `misalign` rows
# (a request straddling a line costs the L1 what the aligned one does,
# l1_line_issue_cycles 0.25: 15.7 -> 7.6%, the rest unchanged). The gate holds
# today's 9.586% over 4399 rows, 4365 within 2x: 9.605% before a straight
# run's rows of several taps held their addresses (st3d 7.8 -> 5.6%, no other
# row moving), which went up by 0.01 point from 9.59% as
# eight evaluation rows moved here (the WMMA GEMMs staged in shared memory and
# the 4x4 register-blocked GEMMs the tile-copy rule was formed on, 11.7% mean)
# and `attnq`'s copy loop was described as its SASS runs it (`unroll = 1`,
# 12.2 -> 12.4%): the 4391 rows of before at 9.601%, no other row changing
# with the rule. Before it, 9.59% over 4391 rows, 4357 within 2x: the 54 `tconf` rows at 3.8%
# (measured after the rule below, 12.1% before it) and the 4337 of before at
# 9.66%, 4303 within 2x: 9.77% before the blocks of a
# kernel whose barriers are all outside loops waited at them together and
# queued their data-path work (tiles 7.8 -> 6.3%, tiles2 11.2 -> 9.8%, tiles3
# 16.1 -> 14.3%, tpose 6.8 -> 4.0%, transpose 9.7 -> 5.1% with the three
# evaluation transposes it was formed on; radix 8.8 -> 8.9%); 9.76% over the
# 4334 rows before those three moved, 4300 within 2x: the 36 `st3d` rows at 7.8%
# (no rule of their own), the 4298 of before at 9.77%: the 25 `tpose` rows at 6.8%
# (no rule of their own), the 30 `naive` rows at 24.3%
# (32.6% before the block's other warps' L1 hits at one step counted for the
# traffic only), the 50 `stage` rows at 7.9% and the 4193 of before at 9.71%
# (9.73% before a halo load in its `if` waited behind the tile's shared
# store: tiles 8.5 -> 7.8%, tiles2 11.5 -> 11.2%); 9.93% before the integer ops
# that compute an independent load's address cost their issue while loads are
# in flight and a batch of random lines waited dram_lines_log2_cycles per
# doubling: scatter 10.9 -> 8.8%; 11.55% over the 3307 rows before
# `scatterw`).
case_ "H200 table, all rows: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 9.586 -> 9.422%, 4365 -> 4364 within 2x. 2026-12-03: a
# warp's drawn lines in flight together count apart and queue
# (dram_drawn_line_cycles, the scatter rows): 9.422 -> 9.309%. 2026-12-03:
# the 96 `depgather` rows (below) join at 25.0%: 9.644% over 4495 rows.
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes (the scatter rows), and the L2 meets the core term with
# a knee of p = 4 (GP_KNEE_P_L2): 9.644 -> 9.374%. 2026-12-03: the 192 `l1cap`
# rows (below) join at 10.7%: 9.429% over 4687 rows. 2026-12-03: the L1's
# lines bound the misses in flight (l1_miss_hold_*_cycles, the l1cap rows):
# 9.429 -> 8.899%. 2026-12-04: a block's warps that read one line at a step
# wait for its fill whatever rule finds their re-reads, and a group's streams
# of different buffers miss each on its own (the naive rows): 8.899 -> 8.876%.
# 2026-12-04: loads that all draw hit the L1 by each SM's own draws, and the L1
# data path holds a load's address arithmetic once a request (the gfoot rows):
# the 4687 rows 8.876 -> 8.767%; the 66 `gfoot` rows (below) join at 28.8%:
# 9.046% over 4753 rows. 2026-12-04: the loopchain and uniform scripts state
# the warm L2 their benches time (gpuperf.buffer in_l2) instead of a first
# launch from a cold L2: 9.046 -> 9.050% (worse; the cold launch had hidden
# part of those rows' under-prediction), and the depgather, gridstride,
# sectors, stage, turnover and attnq scripts' warm rows too: 9.050 -> 9.044%.
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (l2_slowest_sm_ratio, dram_slowest_sm_ratio, run7 chase): 9.044 -> 8.832%.
# 2026-12-04: the 8 `spread` rows (run30) join at 1.2%: 8.819% over 4761 rows.
# 2026-12-04: the slowest-SM ratios re-set from the spread rows on one SM and on
# all 132 (1.056, 1.040), 8 flushed DRAM rows join: 8.769% over 4769 rows.
# 2026-12-04: a drawn gather's requests wait on DRAM by the launch's first
# touches as a drawn chase's steps do (the gfoot rows): 8.769 -> 8.545%.
# 2026-12-04: a drawn read re-visits the L2 by granules, in
# l2_drawn_capacity_fraction of it (run29 gfoot ncu hits): 8.545 -> 8.472%.
# 2026-12-04: the 20 `gfoot` gather_u rows (run31, 16 to 128 MiB) join at 13.3%
# (24.3% without that rule): 8.492% over 4789 rows. 2026-12-04: lines fall into
# sets of l2_drawn_ways (40) at random, the share re-set to 0.547 (least squares
# over the run31 hits): 8.492 -> 8.488%. 2026-12-04: the 72 `coldlanes` rows
# (run32) join at 12.4%: 8.545% over 4861 rows; a drawn read's first-touch
# share counts each lane's draws once (it had taken them again against the
# warp's idle lanes), and a chase walks a cycle (cycle_share; bench_cold's
# hashed rows say walk = "draws"): 8.545 -> 8.359% (coldlanes 3.1%).
# 2026-12-04: the 40 `gfoot` gather_a rows (run33: 1 to 16 lanes of a warp
# gathering over 1 to 32 MiB) join at 33.0%: 8.560% over 4901 rows.
# 2026-12-04: blocks without shared memory are not bound by the carve-out
# preference on the H200 (run35/carve, smemless_free_of_carveout): the
# `uniform` 64-warp rows run as one wave, 8.560 -> 8.550%. 2026-12-04: a
# drawn gather's DRAM traffic by its buffer's granules as far as the L2 keeps
# it, the early first touches joining the L2's time: 8.550 -> 8.347%; a
# gather's L1 hits by its SM's own draws beside ordered reads of its buffer,
# which credit its first touches as the launch runs (sweep_credit), and a
# block's exit after the slowest line of a top-level loop's last wait:
# 8.347 -> 8.333%; the 80 `sweepg` rows (run37) join at 7.41% (a drawn
# chase's traffic counted by granules too): 8.318% over 4981 rows. A cold
# line that several blocks of one wave read at the same step is a fill in
# flight for each of its warps that read it (wave_in_flight, the `naive`
# rows): 8.318 -> 8.278%. 2026-12-04: a warp-uniform load's data comes back
# l1_uniform_return_cycles (3.9, the attnq rows) after the one before whether
# it hit or waited for its sector's fill: 8.278 -> 8.180%; a chase drawn
# afresh keeps C / F of its re-visits in L1 (the `cold` draw rows): 8.180 ->
# 8.126%; st3d.lua states its bench's flush: 8.126 -> 8.103%, and scatter,
# scatterw, alias and l1cap theirs: 8.103 -> 8.076%. 2026-12-05: the 120
# `lform` rows (run38) join at 13.13%: 8.195% over 5101 rows; a global load
# holds its scheduler global_load_issue_cycles (2.56, the lform rows bound by
# issue at 64 warps per SM): 8.195 -> 7.990% (the 4981 rows before 8.076 ->
# 8.035%); a single chain on a loaded value works in the load's register (the
# overlap rows): 7.990 -> 7.935%; run39's 12 lform rows: 7.945% over 5113, the
# key re-set to 2.47 over the 15 issue-bound forms: 7.927%. bench_scatterw
# with one STG a store (run40, its 193 rows in place of run12's, whose unrolled
# trips ptxas had split): 7.669%; run40's 60 `splitw` rows (a store's bytes
# written by word stores, no rule yet) join at 58.2%: 8.255% over 5173; stores
# that share their draws (`draws`: the L2 their own requests, DRAM each line
# once, sparse_write_stores_log2): 8.255 -> 7.836%; run41's 42 `fields` rows (a
# record's words at a random index) join at 8.1%: 7.838% over 5215.
# Within 1.5x gated from 2026-12-05 (5128 of 5215 rows, 0.983), the count the
# README's table gives per family. run42's 63 `l1issue` rows (L1-hit loads
# beside 1 to 12 FADDs a load, no rule from them yet) join at 10.6%: 7.871%
# over 5278 (5189 within 1.5x, 5245 within 2x). 2026-12-05: eleven evaluation
# rows whose scripts described repeated launches where their bench times one
# launch after an untimed one (vadd_warm, consume_after_produce_warm, the scan
# and conv pipelines replayed) moved here, described with gpuperf.elapsed, at
# 13.2%: 7.882% over 5289 (5198 within 1.5x, 5256 within 2x). 2026-12-05: the
# global histogram of equal bytes (2 evaluation rows, its bin now `from_data`)
# moved here at 0.2%: 7.879% over 5291 (5200 within 1.5x, 5258 within 2x).
# 2026-12-05: a body that waits for no memory leaves the block's exit wait in
# place (a loop of shuffles after loads, as its straight form): 7.879 ->
# 7.886%; the CSR SpMV's four warp-per-row rows join from the evaluation set
# at 11.8%: 7.889% over 5295 (5204 within 1.5x, 5262 within 2x). chase.lua's
# gather loop states the six address ops its SASS has a request: 7.886%.
# run45's 64 `wpr` rows (a warp per row, measured after the exit-wait rule)
# join at 4.98%: 7.851% over 5359 (5268 within 1.5x, 5326 within 2x); its 32
# long rows (WPR_SET=long) at 10.2%: 7.866% over 5391 (5300 within 1.5x,
# 5358 within 2x). gpuperf.random drawn from an op's place, not its line:
# 7.868% (sampling noise). run46's 8 `gemv` rows (a decode GEMV) join at
# 11.6%: 7.874% over 5399 (5308 within 1.5x, 5366 within 2x). Shared atomics
# queue by bank (an ATOMS.ADD a pass per lane of its busiest bank, an
# ATOMS.POPC.INC a pass per distinct word of it) and a used old value is
# waited for as a load is: 7.859% over the same 5399 (`atom` 8.51 -> 8.21%);
# run47's 162 `shist` rows (shared histograms, 1 to 1024 bins) join at
# 10.1% (16.3% without the two rules): 7.925% over 5561 (5470 within 1.5x,
# 5528 within 2x). 2026-12-06: shist.lua's hash and warp loops count the SHF
# of their SASS, and a shared atomic's first pass holds the integer pipe in
# part (shared_atomic_int_share 0.30, from the shist and atom rows): 7.730%
# (`shist` 10.1 -> 3.8%, `atom` 8.2 -> 8.0%; within 1.5x and 2x unchanged).
# 2026-12-06: a loop's exit waits for its later trips' DRAM lines: 7.732%. A
# re-read of what the warp's done loads brought waits as an L1 hit, a
# block-stride row loop keeps one copy, a shifted stream fetches its aligned
# bytes, passes.lua states its block rows' 4 copies: 7.629%, 7.641% over 5569
# with the 8 block-per-row softmax and layer norm rows moved from the
# evaluation (validation/README.md log). 2026-12-06: a barrier waits for the
# slowest line of every load of its phase: 7.631%. A loop's branch waits for
# the stall cycles ptxas keeps after its exit compare (predicate_branch_cycles):
# 7.548% (5481 within 1.5x). 2026-12-07: a stream's reads beyond its writes at
# the DRAM's read-only rate (dram_read_gbps, gpuperf-calibrate's 4443 GB/s):
# 7.472%. 2026-12-07: random lines reaching DRAM beyond the translation's
# reach take more DRAM time (tlb_dram_*, the tlb gather_thr rows): 7.371%.
# An L1 hit whose value feeds arithmetic waits as a warp-uniform one's does
# (loopchain, uniform2): 7.351%. l1_return_cycles chosen again with it (5.8 ->
# 4.8): 7.326% (5482 within 1.5x). A walk's new sectors from the distance it
# moves a trip (the loopchain stride rows): 7.301%. A drawn chase's re-visits
# beyond the L2's capacity kept as a drawn gather's (drawn_keep, not the
# cycle's LRU cliff; the cold rows through 64 MiB): 7.276%. A random store's
# request of whole sectors takes the L2 less than one that merges part of a
# sector (sparse_write_l2_sector_bytes, the scatterw c=2 W=16 and c=8 W=4 rows
# in L2): 7.250%. The 410 rows of bench_mmasmem, bench_regblock, bench_tiles2
# and bench_tiles3 (stamped kernels, run9 and run10) replaced by the 408 of
# their run without the clock64 stamps in the timed kernels (run68, the H100's
# benches/NAME_nostamp on the H200; their registers the kernels' own):
# 7.137% over 5567 (5504 within 1.5x, 5541 within 2x; mmasmem 20.9 -> 14.1%,
# regblock 15.2 -> 13.8%; worse tiles2 10.0 -> 13.2%, tiles3 12.9 -> 15.8%).
# tiles2.lua's copy loop of a count nvcc does not know (kind=ldloop u=0) as its
# SASS runs it, blocks of 16, 8 and 4 copies after the remainder trips, not 4
# copies: 7.109% (5506 within 1.5x). tiles3.lua's scalar copies of the WMMA
# tile loop without the mma one at a time, as their SASS issues them (LDG,
# STS, LDG, STS at 32 registers): 7.036% (5514 within 1.5x, 5548 within 2x).
# The loads in flight that the SASS shows stated by uniform.lua (the ind loops:
# 4 to 8 floats, 4 float4) and mmasmem.lua (the unrolled copies: 3 to 32 loads
# ahead of their shared stores), gp_op_t.in_flight: 6.872% (5531 within 1.5x,
# 5558 within 2x; uniform 14.4 -> 10.1%, mmasmem 14.1 -> 12.1%; worse the
# uniform ind_l1 w4, a2, a4 rows at 1 to 8 warps, -8..+1% -> +12..+43%).
# regblock.lua's copy loops the same way (run69's SASS): 6.839% (5533 within
# 1.5x; regblock 13.8 -> 12.3%). mmasmem.lua's copy loops (`lp`) too: 6.812%
# (mmasmem 12.1 -> 11.0%).
gp validate validation/h200/calibration.csv --max-mape 6.82 --min-within-2x 0.990 \
    --min-within 1.5:0.98 --json
expect_status 0
n=$(json .overall.rows)
expect_between "$n" 122 20000
expect_json_has .families.stream.mape_pct
case_ "README.md: the calibration table is this validation's"
readme_table "### Calibration ("

# Integer multiplies (gpuperf.imul at the measured IMAD rate) and the shared
# histogram (ATOMS.POPC.INC, warps that skip the merge atomic, the merge's
# global atomics by sector steps over the L2 atomic units, and the global
# histogram's skewed rows, whose hot line serialises on its unit): today's
# 9.0% and 20.7% (the shared 2^24-byte rows, -37%, wait on their loads, not on
# the atomics; 15.0% since their grid-stride loop keeps one copy: -36 -> -15%).
case_ "H200 table, int32 and histogram families: accuracy gates"
gp validate validation/h200/calibration.csv --family int32 --max-mape 10
expect_status 0
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 15.0 -> 15.1% (worse).
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 15.09 -> 16.35% (worse).
gp validate validation/h200/calibration.csv --family histogram --max-mape 16.4
expect_status 0

# Atomics: the own `atomic` rows (one address, one per warp, distinct; shared
# increments and adds) at 6.1%, every row within 2x; the `atom` rows
# (bench_atom: global RED into K = 1 .. 2^20 random, warp-uniform and
# lane-consecutive bins, u32 and f32, k-means centroid sums; shared u32
# increments) were 94 rows at 7.7%; with the used results (ATOM, `result =
# true`), the shared float adds (a CAS loop) and the global warp-uniform u32
# rows they are 260 rows at 9.0% (the 94 at 7.8%), every row within 2x. The
# gate was 8 over the 94 rows; it is 9.1 over the 260.
case_ "H200 table, atomic and atom families: accuracy gates"
gp validate validation/h200/calibration.csv --family atomic --max-mape 6.5 --max-ratio 2
expect_status 0
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 9.0 -> 8.7%. 2026-12-06: the integer pipe's share of a
# shared atomic (shared_atomic_int_share): 8.0%.
gp validate validation/h200/calibration.csv --family atom --max-mape 8.1 --max-ratio 2
expect_status 0
# 2026-12-06: the shared histograms (run47 `shist`, 162 rows) with their
# integer work beside the atomics costed: 3.8% (10.1% before).
gp validate validation/h200/calibration.csv --family shist --max-mape 3.9 --min-within-2x 1
expect_status 0

# Straight-line memory-level parallelism: 49 independent loads overlap (about
# 20 in flight in 32 registers), chained ones do not. The pinned rows of one
# to four L1 taps are the slot turnaround of 64 waves; the full-occupancy L1
# rows follow the measured L1 load rate over taps. Today: 7.3%, all 36 within
# 2x (12.6% before a refilled slot's overhead added to its block's chain: the
# ws=dram pinned one-tap rows went from -32% to -7%). This gate was 12.5% (11.9%) while the full-occupancy ws=l2 rows took 22%
# L1 hits that the kernel cannot have (no SM re-reads its own lines: tap k + 4
# of block b re-reads what block b + 512 read at tap k); with the L2 serving
# them they predicted +8% to +29% while the device file's L2 bandwidth was
# gpuperf-calibrate's 7729 GB/s; it is now the 8515 GB/s access/l2_reread
# moves over its time less the 5.22 us launch latency.
# The one-tap ws=l2 rows read 8.6 of their 16 MiB once a launch: the carried
# share (l2_carry_*_bytes) leaves the second launch 0.7 of it (8.0 -> 8.1%).
# The L1 serving a group's hits one after another, l1_return_cycles (5.8)
# apart at least, took the 16 and 49 independent L1 taps +5 -> +14% and +11
# -> +27% (8.1 -> 8.8%): the return gap comes from loops of 1 to 8 loads a
# trip, and straight runs of 16 and 49 taps return faster. Today 8.3%: the
# taps' address arithmetic between loads costs its issue (8.8 -> 8.3%).
case_ "H200 mlp family: accuracy gate"
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 8.14 -> 7.69%.
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (l2_slowest_sm_ratio, dram_slowest_sm_ratio, run7 chase): 7.69 -> 7.79% (worse).
# 2026-12-07: a stream's reads beyond its writes at the DRAM's read-only rate
# (dram_read_gbps): 7.75 -> 7.99% (worse: the DRAM rows already fast, indep_n16
# full -4.8 -> -7.6%). 2026-12-07: an L1 hit whose value feeds arithmetic
# waits as a warp-uniform one's does, l1_return_cycles 5.8 -> 4.8 (the further
# hits of its L1 rows come back sooner): 7.99 -> 8.06% (worse).
gp validate validation/h200/calibration.csv --family mlp --max-mape 8.07 --min-within-2x 1
expect_status 0

# Partial sectors (bench_sectors): K scalar loads or stores per thread whose
# sectors the warp's other instructions complete move the array once through
# DRAM; stores hold the SM's store path a request per sector and partial line
# unless 4 lines or fewer merge. Today 9.7%, all 48 within 2x (8.7% before a
# block's exit waited for the slowest of its lines: the ws=dram rows of K = 2
# and E = 8 moved from +1..+13% to +6..+14%, the memory knee's p = 2 adding the
# longer chain to their bandwidth time).
case_ "H200 sectors family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 8.9 -> 6.5%.
gp validate validation/h200/calibration.csv --family sectors --max-mape 6.5 --min-within-2x 1
expect_status 0

# Short memory-bound blocks (bench_turnover, run9): one element per thread of
# 32..1024-thread blocks, the same pinned to 1..16 blocks per SM, empty FMA
# blocks, grid-stride sums at 8..64 warps per SM. A refilled slot pays
# block_slot_overhead_cycles on its chain and a block leaves after the slowest
# line of its loads. Today 7.5%, all 214 within 2x (10.4% before those two rules;
# 7.6% before a batch of loads waited for the slowest of its DRAM runs; 7.3%
# before the carried share of L2, l2_carry_*_bytes: the ws=l2 copies of 16 to
# 24 MiB, timed after warm-ups the script does not have, find less of it in
# their second launch).
case_ "H200 turnover family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 7.3 -> 6.5%.
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 6.50 -> 6.08%.
gp validate validation/h200/calibration.csv --family turnover --max-mape 6.1 --min-within-2x 1
expect_status 0

# Grid-stride sums (bench_gridstride, run10): 1, 2, 4, 8 float or float4 loads a
# trip, on their own pages or on consecutive lines, 1 to 64 warps per SM, from
# DRAM (clean L2) and L2, and the plain grid-stride loop over 2^22..2^28 u32: a
# batch of loads waits for the slowest of its DRAM runs (dram_batch_log2_cycles)
# and a request's lines of one run wait together (dram_run_line_cycles): 8.6%
# (9.6% before); with the benchmark's flush stated (the scratch read: queued
# launch, first touch; the memset: its write-backs, six nat_u32 rows added)
# 8.3% over 161 rows, every row within 2x.
case_ "H200 gridstride family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 7.7 -> 7.0%.
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 7.00 -> 5.96%. 2026-12-04: the ws=l2 rows' buffers start in
# the L2 (in_l2), as the bench times them after its warm-ups, not from a cold
# first launch: 5.96 -> 6.18% (worse: those rows -9..-6%).
gp validate validation/h200/calibration.csv --family gridstride --max-mape 6.2 --min-within-2x 1
expect_status 0

# Chains of small kernels in a stream and in a graph, 1 to 8 side by side: the
# dependency gap from a kernel's end to the next one's start and the graph's node
# release, and the taken branch of each unrolled copy of the kernels' FMA loop.
# Today 7.6%.
case_ "H200 graph_node family: accuracy gate"
gp validate validation/h200/calibration.csv --family graph_node --max-mape 8 --min-within-2x 1
expect_status 0

# Loads whose lanes touch many lines (bench_chase, run7): a request waits for
# its lines (a bank pass per line at one offset), DRAM for its slowest lane,
# and a chase through drawn addresses hits L1 by the measured edge; the
# gathers whose working set fits the L1 a launch without a carve-out
# preference keeps (m = 4 .. 32 at 16 KiB, their index folded into 16 KiB)
# run at its rate; the SM's chasing warps share the misses at the edge.
# Today 9.2% (8.6% before a warp's first touches were counted by its slowest
# lane: the 4-lane rows at 128..224 KiB, whose lanes start evenly spaced
# along the cycle and so take their first laps together, +22..+29%).
case_ "H200 chase family: accuracy gate"
gp validate validation/h200/calibration.csv --family chase --max-mape 9.3
expect_status 0

# Chases through a cold L2 (bench_cold, run10): one launch after the L2 flush,
# one block of 1, 32 or 128 threads or one warp per SM, a random cycle or a
# fresh draw per step through 128- and 32-byte nodes of 16 KiB to 1 GiB: a
# first touch waits the DRAM latency, a re-visit the level that holds it, a
# warp's step waits on DRAM while one of its lanes finds a new 64-byte
# granule (the L1: a new sector). The script states the bench's memset flush
# (queued launch, first touch, write-backs): 7.4% -> today's 6.3%, every row
# within 2x (a cycle
# of one thread visits each node once per lap where draws re-visit some: up
# to -33% at one lap; draws at the L1 edge keep more than a cycle does:
# +80% at 256 KiB, 16384 steps). 2026-12-04: a chase walks a cycle unless
# its script says walk = "draws" (the hashed rows do): 6.28 -> 5.60%, the
# cycle rows 6.6 -> 5.3%. 2026-12-04: a chase drawn afresh keeps C / F of its
# re-visits in L1 past its working set's share of it, not the cycle's edge:
# 5.60 -> 4.93% (the 256 KiB draws +80 -> +13%). 2026-12-07: in the L2 a
# chase's re-visits beyond the capacity are kept as a drawn gather's, a cycle's
# as a draw's (drawn_keep: the 64 MiB rows of either run 0.82 to 0.88 of their
# 256 MiB time): 4.93 -> 4.60% (the 64 MiB rows +12..+23% -> +6..+13%).
case_ "H200 cold family: accuracy gate"
gp validate validation/h200/calibration.csv --family cold --max-mape 4.65 --min-within-2x 1
expect_status 0

# Re-use (bench_reuse, run8): a thread's own words re-read by an outer loop
# (the block's life as the re-use distance, L1 and L2) and the plain A * B
# tile walk (the block's warps share each row of B). Today 10.6% (12.8%
# before the unrolled copies waited for their DRAM runs), every row
# within 2x (one lane's latency chain at one block per SM: -25% to -38%; the
# 32x8 tile walk +6..+35% from n = 384: its coalesced B loads at the
# l1_load_bytes_per_cycle rate, twice what bench_uniform measures for LDG.E).
# 2026-12-04: a cold line that the blocks of one wave read together is a fill
# in flight for each: 10.41 -> 10.08% (its n = 256 tile walks -38, -24% ->
# -6, -14%; worse its 32x8 walks at n = 384 and 768, +0, +23% -> +10, +31%).
case_ "H200 reuse family: accuracy gate"
gp validate validation/h200/calibration.csv --family reuse --max-mape 10.09 --min-within-2x 1
expect_status 0

# Warp-uniform and few-address loads (bench_uniform, run9), 1 to 64 warps per
# SM. Today 14.1%, 143 of 154 within 2x (18.1% before a warp's L1 hits came
# back l1_return_cycles apart, 19.9% before the L1 served the hits of any
# load of a group one after another, not only warp-uniform ones): the many-warp few-address rows fit
# (a pass per line, per quarter-warp for float4) and the L2-resident rows are
# described as the bench runs them (x left in L2 by the repetition before:
# `reps` launches, divide_by); the coalesced reference rows, loads at
# immediate offsets, run at the L1's line a clock (+60..+105% -> -14..+3%;
# 23.5% and 139 within 2x before); open are the 1..4-warp latency rows, the
# chained rows of 32 and 64 warps (-51..-55%), and the
# L2-resident rows of 1 to 8 warps (-50..-59%: since the sampler counts a
# fold's period, `g % rg` rows over fewer rows than blocks, four of them
# passed -50%).
case_ "H200 uniform family: accuracy gate"
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 14.10 -> 14.32% (worse). 2026-12-04: x and B start in the
# L2 (in_l2), as the bench times them, not from a cold first launch: 14.34 ->
# 14.42% (worse). 2026-12-04: a warp-uniform load's data back
# l1_uniform_return_cycles (3.9) apart, hit or not: 13.74 -> 14.38% (worse:
# the 1- to 8-warp ind_l1 rows, -6 -> -16%, keep 4 loads in flight where the
# registers give 13, which the longer gap had covered). 2026-12-07: the ind
# loops' loads in flight as their SASS keeps them (in_flight: 4 to 8 floats, 4
# float4): 14.37 -> 10.08%, 152 of 154 within 2x (the L2 rows of 1 to 16 warps
# -51..-58% -> -3..-9%, the coalesced L1 ones -28..-34% -> -2..-6%; worse the
# ind_l1 w4 rows, -8% -> +38..+43% at 1 to 8 warps, and a2, a4 +15..+20% at 1
# and 2: the model waits a window's loads in a batch, where ptxas refills it as
# each value is read).
gp validate validation/h200/calibration.csv --family uniform --max-mape 10.09 --min-within-2x 0.98
expect_status 0

# A warp's independent loads, 1 to 16 a trip, 1 to 32 warps per SM, and the load
# instruction (bench_uniform2, run9; the L2-resident rows warm, as run). Today
# 9.6%, all 150 within 2x (13.3% before a warp's L1 hits came back
# l1_return_cycles apart, 14.6% before the L1 served the hits of a group's
# loads one after another; 22.2% and 148 before the loads at immediate offsets
# took the L1's line a clock: the coalesced L1 hits were +60..+100% at 16 and 32
# warps; 16 loads a trip wait 4 latencies as ptxas rotates 4 value registers
# beside 16 accumulators: the loads-in-flight cap counts the accumulators).
# Open: the few-warp rows (a trip waits one latency for up to 8 loads, 47
# cycles from L1 and 294 from L2 for one: the model overlaps more and waits
# less: coal_l1 n = 2..8 at 1..4 warps -30..-47%) and the coalesced L2 rows of
# 16 and 32 warps (+45..+69%).
case_ "H200 uniform2 family: accuracy gate"
# 2026-12-05: a global load's issue (global_load_issue_cycles): 8.45 -> 8.20%.
gp validate validation/h200/calibration.csv --family uniform2 --max-mape 8.21 --min-within-2x 0.98
expect_status 0

# The SM clock by kind of load (bench_clock, run9): the rows' times at the
# device file's clocks, 1980 MHz and 1815 for the HMMA loops (the clock64 /
# %globaltimer stamps of every block). Today 3.8%, all 43 within 2x; the DRAM
# streams over a 128 MiB window (twice the L2) -18% (the model finds more of
# each pass in L2 than the card does: 4.96 TB/s measured, 6.0 predicted).
case_ "H200 clock family: accuracy gate"
# 2026-12-04: the L1 data path holds a load's address arithmetic once a
# request (the gfoot rows): 3.86 -> 4.13% (worse: the float4 DRAM streams,
# already -21%, -25%). 2026-12-07: a stream's reads beyond its writes at the
# DRAM's read-only rate (dram_read_gbps): 4.10 -> 4.33% (worse: the same
# streams -24..-25% -> -27..-28%).
gp validate validation/h200/calibration.csv --family clock --max-mape 4.35 --min-within-2x 1
expect_status 0

# The naive 7x7 convolution: each block re-reads its own 38x14 window in L1
# (L2 sees the windows, not 49 taps a pixel) and the taps hold the L1 data
# path at the measured load rate: +17.1% (bound l1), from +116% (bound l2).
case_ "H200 conv2d family: accuracy gate"
gp validate validation/h200/calibration.csv --family conv2d --max-mape 18
expect_status 0

# Shared-memory-fed arithmetic (bench_smem, run7): LDS widths and conflicts,
# LDS feeding FMAs, the register-blocked outer product, WMMA from shared
# memory. Today 4.6% (5.9% before a loop's trailing integer updates ran beside
# its chain), all 114 within 2x; the worst are the outer-product rows with 16
# warps (-12..-15%) and ldsfma_f32_ilp1 with 8 warps (+16%).
case_ "H200 smem family: accuracy gate"
gp validate validation/h200/calibration.csv --family smem --max-mape 5 --min-within-2x 1
expect_status 0

# Tiled loops (bench_tiles, run8): shared-memory GEMM tiles from 16x16 to
# 128x128 over grids from 16 blocks to several per SM (the barrier waits for
# the block's slowest line), warp-uniform loads on a dependent chain (1..32
# warps, unrolled 1 or 4), and a 5-point stencil staged with its halo. Today
# 8.8%, all 72 within 2x (7.4% before the uniform-load busy time fell from
# 2.38 to 1.02: the bcast rows unrolled 4 at 8..32 warps, -14..-34%, wait on
# their FFMA chains' issue); the worst are the stencil rows (-9..-38%: the halo
# loads wait behind the tile's in divergent branches, for lines the
# neighbouring blocks fetch at the same time) and the small-grid GEMMs
# (+8..+15%). With a warp's L1 hits of a group back l1_return_cycles apart:
# 8.2 -> 8.5% (the float bcast rows unrolled 4 at 1..4 warps -1..-3% ->
# +14..+16%: their warp-uniform floats return faster than 5.8 cycles apart).
# A halo load in its `if`, after the tile's shared store, waits for the tile's
# load (blockcost.c branch_load): 8.5 -> 7.8% (stencil rows -21..-32% ->
# -14..-24%). The blocks resident together wait at a barrier outside loops
# together and queue their data-path work behind each other (blockcost.c
# core_time, stall_top): 7.8 -> 6.3% (stencil rows -14..-24% -> -3..-10%).
case_ "H200 tiles family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 6.29 -> 6.33% (worse).
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 6.32 -> 6.57% (worse).
# 2026-12-04: the L1 data path holds a load's address arithmetic once a
# request (the gfoot rows): 6.57 -> 6.72% (worse).
# 2026-12-04: a warp-uniform load's data back l1_uniform_return_cycles (3.9)
# apart, hit or not (the attnq rows): 6.51 -> 6.14%.
# 2026-12-05: a global load's issue (global_load_issue_cycles): 6.14 -> 5.66%.
# 2026-12-07: a walk's new sectors from the distance it moves a trip
# (opcost.c walk_new_units): 5.67 -> 5.91% (worse: the bcast float rows
# unrolled 4 at 1..4 warps, +8..+10% -> +11..+13%, over-predicted before).
gp validate validation/h200/calibration.csv --family tiles --max-mape 5.92 --min-within-2x 1
expect_status 0

# Phases of tiled loops (bench_tiles2, run9): tile copies into shared memory
# written straight (every load issued before the first shared store) or as
# `for (i = tid; i < n; i += 256)` loops (nvcc: 4 copies, the remainder trips
# one at a time first), float4 copies, 16 to 528 blocks of 64x64 and 128x128
# tiles, the copy loop alone with 1 to 16 loads per thread, and the staged
# stencil with its halo loads in branches or hoisted. Today 12.1% (86.8%
# before: shared stores ended the straight run, a loop of fewer trips than
# copies waited less than one latency; 16.5% before a copy loop's last loads
# were the block's wait at the barrier, 12.5% before each wait of a copy loop
# was a DRAM wait for the slowest of the warp's lines), all 86 within 2x; the worst are
# ldloop_l16_un (-44%, -36%: ptxas keeps 9 of the 16 loads in flight in 32
# registers) and the stencil rows with halo branches (-19..-42%; -15..-29%
# since a halo load in its `if` waits behind the tile's shared store: 11.5 ->
# 11.2%; the stencils' blocks waiting at their one barrier together: 11.2 ->
# 9.8%).
case_ "H200 tiles2 family: accuracy gate"
# 2026-12-04: the L1 data path holds a load's address arithmetic once a
# request (the gfoot rows): 9.82 -> 9.95% (worse).
# 2026-12-04: the slowest-SM ratios re-set from the spread rows (1.056, 1.040):
# 9.95 -> 9.965% (worse).
# 2026-12-06: a loop's branch waits for the stall cycles ptxas keeps after its
# exit compare (predicate_branch_cycles): 9.965 -> 10.03% (worse: the ldloop
# copy loops, already over, +14..+29% -> +15..+29%).
# 2026-12-07: the rows of bench_tiles2 without the clock64 stamps in its timed
# kernels (run68; the loads of later unrolled trips pass the earlier barriers,
# GP_HOIST_LOADS, decided on the H100's run of it): 10.03 -> 13.22% (worse:
# ldloop_l8_rt and l16_rt +40..+70%, g128_f4_none +30..+45%; g128 with its
# compute -31..-36%), all 86 within 2x. tiles2.lua's ldloop copy loop of a count
# nvcc does not know as its SASS runs it (the remainder trips one at a time,
# then blocks of 16, 8 and 4 copies, each block's loads before its stores; the
# script had 4 copies): 13.22 -> 11.41% (ldloop_l8_rt and l16_rt +40..+70% ->
# -15..+18%).
gp validate validation/h200/calibration.csv --family tiles2 --max-mape 11.42 --min-within-2x 1
expect_status 0

# What tiles2 leaves open (bench_tiles3, run9): a WMMA tile loop from shared
# memory (64x64 block tile, 4 warps, BK 16 and 32, half-per-load copy loops or
# 16-byte copies), the staged stencil with its halo in branches, hoisted, from
# a private array or absent, and the SGEMM compute alone at 1, 2 and 4 blocks
# per SM. Today 18.4% (20.7% before each wait of a copy loop was a DRAM wait
# for the slowest of the warp's lines), all 64 within 2x (the halo loads are L2 hits, not L1);
# the worst are the stencil rows at n=8192 (-23..-36%, and the stencil with no
# halo loads -35%: block turnover of 262144 blocks)
# and the WMMA rows with half-per-load copy loops (-16..-44%). 16.1% -> 14.3%
# since the stencils' blocks wait at their one barrier together.
case_ "H200 tiles3 family: accuracy gate"
# 2026-12-07: the rows of bench_tiles3 without the clock64 stamps (run68):
# 12.9 -> 15.85% (worse), 57 of 64 within 2x: the WMMA tile loops with scalar
# copies and no mma (wt16_sc_none, wt32_sc_none) -48..-62%, as on the H100.
# Their SASS issues those copies one at a time (LDG, STS, LDG, STS in 32
# registers; with the mma each block of 4 copies' loads before its stores), and
# tiles3.lua now says so: 15.85 -> 9.54%, all 64 within 2x (those rows -2..+14%).
gp validate validation/h200/calibration.csv --family tiles3 --max-mape 9.55 --min-within-2x 1
expect_status 0

# Shared-memory-staged WMMA GEMMs by phase (bench_mmasmem, run10): the tile
# copy with 2-, 4-, 8- and 16-byte copies per thread (1..16 a trip and matrix)
# in `for (i = tid; ...)` loops or unrolled, with the mma or without; whole
# C = A B of n = 512..2048 whose blocks share their panels; the WMMA compute
# from shared memory alone, 1..4 warps and 1..8 blocks per SM. Today 20.6%
# (21.5% before the unrolled copies waited for their DRAM runs),
# 120 of 132 within 2x: the 12 beyond are tile loops with no mma whose copies
# ptxas issues one or two loads at a time (-50..-70%).
case_ "H200 mmasmem family: accuracy gate"
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 20.66 -> 20.85% (worse). 2026-12-07: a stream's reads beyond
# its writes at the DRAM's read-only rate (dram_read_gbps): 20.77 -> 20.90%
# (worse: the copy loops' DRAM-bound rows, already fast).
# 2026-12-07: the 130 rows of bench_mmasmem without the clock64 stamps in its
# timed kernels (run68; two stamped rows have no counterpart: 96 registers hold
# 5 blocks per SM and the bench times one wave): 20.90 -> 14.10% (bias -17.1 ->
# -7.4%), 129 of 130 within 2x; the worst are unrolled copies of 32 bytes
# without the mma (-35..-55%) and cp16_w8_ur_mma (-44%: nvcc keeps its tile
# loop to one copy, the model two). 2026-12-07: the unrolled copies' loads in
# flight ahead of their shared stores as the SASS keeps them (in_flight, 3 to
# 32 by width, BK and the mma): 14.10 -> 12.14%, all 130 within 2x
# (cp16_w8_ur_mma -44% -> +10%, the 32-k copies without the mma still -19..-40%).
# The copy loops' (lp) windows too, 2 to 4 of their 4 copies: 12.14 -> 10.98%
# (cp16_w2_lp_mma -18..-27% -> +2..+8%, sq_w8_lp_mma -22..-25% -> -8..-11%,
# cp32_w8_lp -22..-33% -> -16..-22%; worse cp32_w16_lp, +1..-6% -> -3..-7%).
gp validate validation/h200/calibration.csv --family mmasmem --max-mape 10.98 --min-within-2x 1
expect_status 0

# Loops of one load a trip feeding an arithmetic body, 1 to 16 warps per SM
# (bench_loopchain, run10): L1-resident or first touches (a new 32-byte sector
# costs an L2 round trip), warp-uniform or coalesced, dependent and independent
# FP32 bodies with and without MUFU.RSQ, the n-body body. Today 9.3%, all 288
# within 2x: the warps that read a line at one step wait for one fill
# (abreast_warps), a batch of unrolled trips waits for its stream's miss, and
# the L1-resident rows with a new sector every trip (stride 8 and 32) hit L1
# once the sampler counts the fold's period (x[(j * 32) & mask]: 128 floats,
# not the 16 KiB range; they were +140..+280%). Open: the coalesced float4
# i13 rows (-26%) and the n-body rows (-6..-19%). rsqrtf is one `sfu` op whose
# latency is the call with its denormal guard (sfu_call_cycles, bench_mufu:
# 39 cycles, where the script had spelled out the guard beside a 17-cycle
# MUFU; the guard's three FP32 instructions issue beside it): 8.7%. The
# unrolled copies run the arithmetic on their own loads side by side, two by
# two where the registers hold two copies with their chains: 8.56% (the
# nbody_auto rows -13..-9% -> -7..-3% from first touches and +20..+24% ->
# -10..-8% from L1 at 1 to 8 warps; at 16 warps -14% and -23%). 2026-12-04:
# x and pos start in the L2 (in_l2), as the bench times them after its
# warm-ups, not from a cold first launch: 8.58 -> 8.62% (worse).
case_ "H200 loopchain family: accuracy gate"
gp validate validation/h200/calibration.csv --family loopchain --max-mape 8.65 --min-within-2x 1
expect_status 0

# Random gathers whose lanes each name their own line (bench_scatter, run10): 1, 2,
# 4, 8 loads a trip, 1 to 32 active lanes, 1 to 32 lanes per line, 1 to 64 warps
# per SM on 8 to 132 SMs, from L2 (8 MiB, warm) and DRAM (256 MiB, 1 GiB). A
# warp's drawn lanes count as the lanes that read (opcost.c lane_share), and a
# drawn gather's footprint as the units its draws land on (fetched_footprint:
# 23.5% -> 14.5%); the L2 holds the lines a drawn read lands on, not only its
# sectors (GP_L2_LINE_BYTES: 32 and 64 warps per SM from DRAM, -42..-64% ->
# -9..-28%), and drawn lanes on the four sectors of a line cost DRAM what reads
# 32 bytes apart do (the c=4s rows, +98..+168% -> -23..+25%); a request's lines
# beyond the translation reach wait for their pages (request_tlb_*, from the
# `tlb` rows: 11.3% -> 10.9%). The integer ops computing a load's address
# while the loads before it are in flight cost their issue (blockcost.c
# next_load_independent: the L2 rows of 4 and 8 loads a trip +12.5% and +9.8%
# -> +4.0% and -1.6% on average), and the L loads of a trip each draw their
# own random line (script_index.c: they drew one line, so a batch never waited
# for the slowest of its lines, now dram_lines_log2_cycles per doubling; the
# DRAM rows of 2 loads -9.3 -> -6.7%): 10.9 -> 8.8%. Today 8.8%, all 396
# within 2x; the L2 line-request rate, measured, is not modelled.
case_ "H200 scatter family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 8.82 -> 9.02% (worse). 2026-12-03: each drawn load's lines
# count as its own in a batch (the sampler's coinciding offsets had counted
# 35 lines for 4 gathers of 32) and drawn lines queue on their way to DRAM
# (dram_drawn_line_cycles 4.7, from these rows' one-warp cycles a trip):
# 9.02 -> 7.77%, the one-warp rows of 4 gathers of 32 lines -21.8 -> +6.4%.
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 7.77 -> 7.13%. 2026-12-04: the slowest-SM rule: 7.13 ->
# 6.32%. 2026-12-04: a drawn read re-visits the L2 by granules, in
# l2_drawn_capacity_fraction of it (run29 gfoot ncu hits): 6.32 -> 6.12%.
# 2026-12-04: a drawn read's first-touch share counts each lane's draws once
# (the coldlanes rows): 6.11 -> 6.20% (worse: the DRAM rows of one lane a
# warp, -5 -> -8%).
# 2026-12-04: a drawn gather's DRAM traffic counted by the granules of its
# buffer as far as the L2 keeps it, its early first touches joining the L2's
# time (opcost.c gather_first_granules, run34/gstamp): 6.20 -> 6.23% (worse).
# 2026-12-04: scatter.lua states the memset its bench makes before each ws =
# dram and big launch (the launch queued behind it): 6.21 -> 6.64% (worse: the
# DRAM rows had been 2.6 us slower by the idle launch the script described).
gp validate validation/h200/calibration.csv --family scatter --max-mape 6.65 --min-within-2x 1
expect_status 0

# Gathers at random words of random lines whose addresses come from an index
# stream, from registers beside it or alone, and the stream alone (bench_depgather,
# run27): 8 to 64 warps per SM, 256 MiB after the flush and 8 MiB warm. The
# dependency on the index costs little (dep within 3..13% of gonly); the model
# gives every gather 15 to 43% fast, from L2 and DRAM alike, and has no rule for
# it yet (validation/README.md logs the two tried). Today 25.0%, all 96 within 2x.
case_ "H200 depgather family: accuracy gate"
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 24.97 -> 18.98%.
# 2026-12-03: the L1's lines bound the misses in flight (l1_miss_hold_*_cycles,
# the l1cap rows): 19.0 -> 5.7%.
# 2026-12-04: loads that all draw hit the L1 by each SM's own draws (the
# gfoot rows): 5.68 -> 5.81% (worse).
# 2026-12-04: the ws=l2 rows' idx and p start in the L2 (in_l2), as the bench
# times them after its warm-ups, not from a cold first launch: 5.81 -> 6.92%
# (worse: those rows -14..-5%, the cold launch had covered them).
gp validate validation/h200/calibration.csv --family depgather --max-mape 6.95 --min-within-2x 1
expect_status 0

# Random gathers against the L1's size (bench_l1cap, run28): with a 28 KiB L1
# the card bounds the misses in flight per SM by the L1's lines (1.93 to 2.00
# SM cycles a line from L2, 7.6 to 8.1 from DRAM, whatever the warps); the
# 144 rows with 60 KiB of L1 or more at 3.7% (L2) and 6.7% (DRAM), every row
# within 2x.
case_ "H200 l1cap family: accuracy gate"
# 2026-12-03: the L1's lines bound the misses in flight (l1_miss_hold_*_cycles,
# the l1cap rows): 10.7 -> 4.9%. 2026-12-04: loads that all draw hit the L1
# by each SM's own draws (the gfoot rows): 4.88 -> 4.94% (worse).
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (l2_slowest_sm_ratio, dram_slowest_sm_ratio, run7 chase): 4.94 -> 5.08% (worse).
# 2026-12-04: the slowest-SM ratios re-set from the spread rows (1.056, 1.040):
# 5.08 -> 5.12% (worse). 2026-12-04: a drawn gather's requests wait on DRAM by
# the launch's first touches: 5.12 -> 5.07%. 2026-12-04: a drawn read
# re-visits the L2 by granules, in l2_drawn_capacity_fraction of it (run29
# gfoot ncu hits): 5.07 -> 4.32%.
# 2026-12-04: a drawn gather's DRAM traffic counted by the granules of its
# buffer as far as the L2 keeps it, its early first touches joining the L2's
# time (opcost.c gather_first_granules, run34/gstamp): 4.31 -> 4.38% (worse).
# 2026-12-04: l1cap.lua states the memset its bench makes before each ws = dram
# launch: 4.38 -> 4.40% (worse).
gp validate validation/h200/calibration.csv --family l1cap --max-mape 4.41 --min-within-2x 1
expect_status 0

# Loops that store into the buffer they load from (bench_alias, run10): a trip
# of the in-place loop waits for its load in full (seg_sum_t.carry). Today
# 18.6% over the 12 DRAM rows; the random-gather mark rows are 14 to 39% fast
# (bound by their random requests, which the model underrates).
case_ "H200 alias family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 17.7 -> 18.8% (worse).
# 2026-12-03: the L1's lines bound the misses in flight (l1_miss_hold_*_cycles,
# the l1cap rows): 18.8 -> 11.3%. 2026-12-04: loads that all draw hit the L1
# by each SM's own draws (the gfoot rows): 11.34 -> 11.36% (worse).
# 2026-12-04: alias.lua states the memset its bench makes before each ws = dram
# launch: 10.52 -> 11.09% (worse).
gp validate validation/h200/calibration.csv --family alias --max-mape 11.4 --min-within-2x 1
expect_status 0

# Whole register-blocked SGEMMs by phase (bench_regblock, run10): 16x16
# threads, 4x4 and 8x8 micro-tiles, BK 8 and 16, n = 512..4096, tiles copied
# one float a trip (A transposed into shared memory), as float4 along k, or
# float4 of a transposed A; the copies alone, the outer products alone. The
# address arithmetic between a copy's loads and its shared stores does not end
# the phase (blockcost.c walk). Today 15.5% (16.0% before the unrolled copies
# waited for their DRAM runs, 15.4% before the flush's queued
# launch shortened the small rows), 125 of 128 within 2x; open: the
# copies alone of 4 and 8 trips in 32 registers (ptxas waits for each load:
# -45..-53%) and the n = 4096 copies alone of float4 (+42..+61%: the model
# takes every panel re-read as a DRAM miss, 128 MiB of A and B past the L2).
case_ "H200 regblock family: accuracy gate"
# 2026-12-07: the rows of bench_regblock without the clock64 stamps (run68):
# 15.2 -> 13.78%, all 128 within 2x; the worst are the n = 4096 copies alone
# (+46..+72%) and t4_bk16_rt_full at n = 512 and 1024 (-40%). 2026-12-07: the
# copy loops' loads ahead of their shared stores as the SASS keeps them
# (in_flight, run69: 1 to 4 of 4): 13.78 -> 12.35% (t4_bk16_rt_full -40% ->
# -1..-8%, the 8x8 rt copies alone -12..-23% -> -11..+4%; worse the at copies
# alone, -7..-24% -> -12..-26%, and t8_bk8_rt_load at n = 4096 +1 -> +14%).
gp validate validation/h200/calibration.csv --family regblock --max-mape 12.35 --min-within-2x 1
expect_status 0

# Kernels right behind the benches' 1 GiB memset flush (bench_flushq): float4
# sums, stores and copies of 1..128 MiB and empty kernels of 1..2112 blocks.
# A launch queued behind the flush (launch_queued_us 2.58, from the empty
# kernel), the first to touch memory waiting flush_first_touch_us (0.94, the
# 1 and 2 MiB rows), the dirty lines the memset leaves written back as reads
# push them out (l2_flush_dirty_fraction, from the gridstride rows): 34.3% ->
# today's 8.6%; open: sums and stores from 12 MiB on run 12..20% faster than the
# model (the read-only and write-only DRAM rates above a copy's).
case_ "H200 flushq family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 8.6 -> 7.5%.
gp validate validation/h200/calibration.csv --family flushq --max-mape 7.55 --min-within-2x 1
expect_status 0

# A thread per row looping over a key table (bench_attnq, run10): d warp-uniform
# loads of a row a trip from L1, L2 or shared memory, a dot product in 1 to 4
# FFMA chains, an output update, an exp or an online softmax, 1 to 8 warps per
# SM. Today 8.4%, all within 2x (12.2% before the shared-memory rows' copy
# loop, `for (i = tid; ...; i += blockDim.x)`, was described as its SASS runs
# it, one load a trip: `unroll = 1`; 13.9% before a warp's L1 hits of a group
# came back l1_return_cycles apart, 5.8; 14.5% before the exp's denormal
# guard: sfu_call_cycles). 2026-12-04: 12.13 -> 8.40% with a warp-uniform
# load's data back l1_uniform_return_cycles (3.9) after the one before whether
# it hit or waited for its sector's fill: the scalar rows that read every row
# from L2, -15..-37%, had been predicted faster than the same rows from L1.
case_ "H200 attnq family: accuracy gate"
gp validate validation/h200/calibration.csv --family attnq --max-mape 8.45 --min-within-2x 1
expect_status 0

# Random stores whose lane groups each write their own line (bench_scatterw,
# run12): 4, 8, 16 bytes a store, part of a sector, whole sectors or lines, 1
# to 64 warps per SM, into 8 MiB in L2, 256 MiB and 1 GiB. Each line a warp
# writes is an isolated DRAM write (sparse_write_bytes_*: part of a sector 223
# bytes' time, a whole sector 116, a line 136) and an L2 request
# (sparse_write_l2_*); the model had counted a 64-byte granule each (43.6%,
# -70% at DRAM). Today 15.7%, all within 2x; open: four stores a trip of 8 or
# 16 bytes (-20..-40%), 1 GiB (-11%). 2026-12-05: the four stores were ptxas
# splitting the trip's first int2 or int4 into word stores; run40 stores through
# inline PTX, one STG a store, and its rows replace run12's.
case_ "H200 scatterw family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 15.7 -> 15.5%, one row (ws=big w=64 c=2 W=16 L=4) -47% -> -51%,
# outside 2x (worse).
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 15.52 -> 14.99%. 2026-12-04: scatterw.lua states its bench's
# flush before each DRAM launch (the memset; for dramc a read of the scratch):
# 14.99 -> 13.34%. 2026-12-05: run40's rows (one STG a store): 13.34 -> 6.51%,
# all within 1.31x. 2026-12-07: a request of whole sectors takes the L2 97
# bytes' time, not the partial sector's 110 (sparse_write_l2_sector_bytes, from
# this family's c=2 W=16 and c=8 W=4 rows in L2): 6.51 -> 4.61% (those rows
# +12..+18% -> -8..+13%).
gp validate validation/h200/calibration.csv --family scatterw --max-mape 4.62 --min-within-2x 1
expect_status 0

# The same random lines with each thread's 8 or 16 bytes written by 2 or 4 word
# stores (bench_scatterw S = W / 4, run40; family `splitw`). From L2 the time is
# the word stores' requests (2.0 and 4.1 times the whole store at c = 1); from
# DRAM it grows less (1.73 and 2.35 times). 2026-12-05: 58.2%, 52 of 60 within
# 2x, with the script holding the first word store's draw for the others; the
# word stores share their draws (`draws`), each taking the L2 its requests and
# DRAM each line once, (1 + sparse_write_stores_log2 log2 n) times for n
# stores: 22.1%, 56 of 60 (open: four and eight lanes a line at 4 and 16 warps
# per SM, merged by the SM, +43..+192%). 2026-12-07, raised: the translation's
# DRAM time for random lines beyond its reach (tlb_dram_*, the stores' bytes
# set less its share over 256 MiB): 22.06 -> 22.34% (the 1 GiB rows, already
# fast where the SM merges the word stores, gain it).
case_ "H200 splitw family: accuracy gate"
gp validate validation/h200/calibration.csv --family splitw --max-mape 22.35 --min-within-2x 0.93
expect_status 0

# A 16-byte record's words at a random index (bench_fields, run41): one vector load,
# F word loads of the record (one draw, `draws`), or F words of F records. A read of
# up to 16 bytes costs one 4-byte read's DRAM; the record's further word loads hit
# the L1 the first filled and wait on none of its lines; F records cost F reads.
# 2026-12-05: 8.1%, all within 1.25x (open: 256 MiB at 64 warps per SM -16..-20%).
case_ "H200 fields family: accuracy gate"
gp validate validation/h200/calibration.csv --family fields --max-mape 8.1 --min-within-2x 1
expect_status 0

# Stores through an LCG index formula (bench_perm, run13): 2^16 stores to a full
# permutation of 16 MiB to 1 GiB. Where the buffer exceeds the L2, every lane on
# its own line and the block's next warp on none of the first warp's lines,
# each store is an isolated partial-sector write, as scatterw's random ones,
# however much of the buffer the launch writes (57.6% without the rule). Today
# 16.3%, 31 of 34 within 2x (16.0% and 33 before the flush's queued launch
# shortened the 16 MiB a = 69069 rows, -49..-50% -> -52..-59%); open: the 16 MiB
# buffer the L2 holds (-12..-59%).
case_ "H200 perm family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 16.3 -> 18.2% (worse).
gp validate validation/h200/calibration.csv --family perm --max-mape 18.25 --min-within-2x 0.91
expect_status 0

# Random gathers over 64 MiB to 8 GiB (bench_tlb, run13): one warp per SM whose
# 32 lanes each read a random line waits 1189 cycles a request over 64 MiB and
# 1319 over 8 GiB, 3.97 cycles a line whose page lies beyond 71 MiB
# (request_tlb_reach_bytes, request_tlb_line_cycles: the lat rows -3..-12% ->
# -2..-3%); open: 64 warps per SM keep slowing past 1 GiB (-13..-16%) and whole
# random lines run faster than the model (+10..+14%; +13..+16% with the
# flush's write-backs). 10.8% (10.2% before them); today 11.05%: the random
# loads of a trip wait for the slowest of their lines (dram_lines_log2_cycles
# per doubling), and the 64-warp rows already too fast get faster still.
case_ "H200 tlb family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 11.0 -> 11.6% (worse). 2026-12-03: a warp's drawn lines
# in flight together count apart and queue (dram_drawn_line_cycles):
# 11.58 -> 11.61% (worse: the 64-warp whole-line rows from 128 MiB on,
# already slow, +5.9..+11.0% -> +6.2..+11.3%).
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 11.61 -> 11.89% (worse). 2026-12-04: the slowest-SM
# rule: 11.89 -> 11.32%. 2026-12-04: a drawn gather's requests wait on DRAM by
# the launch's first touches and, there, for their lanes that miss (the gfoot
# rows): 11.32 -> 11.58% (worse: gather_lat over 64 MiB -1.3 -> -9.3%, the L2
# keeping more of 64 MiB than the card does). 2026-12-04: a drawn read
# re-visits the L2 by granules, in l2_drawn_capacity_fraction of it (run29
# gfoot ncu hits): 11.58 -> 8.03% (gather_thr over 64 MiB at 64 warps -40.7 -> +0.1%).
# 2026-12-04: sets of l2_drawn_ways (40), the share 0.547: 8.03 -> 8.05% (worse).
# 2026-12-04: a drawn gather's DRAM traffic counted by the granules of its
# buffer as far as the L2 keeps it, its early first touches joining the L2's
# time (opcost.c gather_first_granules, run34/gstamp): 8.05 -> 8.13% (worse).
# 2026-12-05: a global load's issue (global_load_issue_cycles): 8.14 -> 8.30%
# (worse: gather_line over 32 MiB and more +10..+12% -> +11..+13%).
gp validate validation/h200/calibration.csv --family tlb --max-mape 8.31 --min-within-2x 1
expect_status 0

# A kernel writing or reading 4 to 96 MiB, then a kernel reading it (bench_wback,
# run11): of what a kernel reads or writes once, the next finds all up to 16
# MiB, about 40% at 32 and 40 MiB and nothing from 56 on (l2_carry_full_bytes,
# l2_carry_none_bytes: engine_l2.c gp_eng_l2_carry). The bench reads its scratch
# and waits (flush_l2{clean = true}, synchronize): the first touch only. Today
# 10.0% (9.5% without it), all within 2x;
# open: the small rows (-14..-29%: the first launch after an idle GPU) and the
# single reads beyond 40 MiB (+8..+15%: the read-only DRAM rate), the written
# lines' write-back when a reader evicts them.
case_ "H200 wback family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 10.0 -> 9.0%.
gp validate validation/h200/calibration.csv --family wback --max-mape 9.05 --min-within-2x 1
expect_status 0

# Streaming blocks with a compute phase between their loads and stores
# (bench_phase, run15): one uint4 a thread or four 4-byte words, R rounds of a
# block all-reduce (two barriers each) or of the warp shuffles alone, blocks of
# 128 to 1024 threads. The barrier phases are in the model (bar, warp within
# -6..+17%); four 4-byte stores a thread right after a barrier cost 1.7 to 2.4
# times the copy from 8 warps a block on (GP_STORE_MERGE_BURST_LINES, from
# these rows). Today 8.4%, all within 2x; open: the copies of four 4-byte words
# and the 128-thread blocks of them (+10..+22%: the L1's work beside DRAM, the
# memory knee), predicated stores after the barrier (tail_pred +19%).
case_ "H200 phase family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 8.4 -> 6.7%. 2026-12-05: a body that waits for no memory
# (the warp rows' loop of shuffles after their loads) leaves the block's exit
# wait in place: 6.44 -> 6.84% (worse: the warp rows +0.3..+3.0 points).
gp validate validation/h200/calibration.csv --family phase --max-mape 6.85 --min-within-2x 1
expect_status 0

# Loops whose gather sits behind a data-dependent guard (bench_guard, run15):
# nvcc predicates the guarded loads, so the guard costs nothing (guard and
# plain within 3 points of each other since blockcost.c predicated_branch;
# 18 to 24% apart in the model before). Today 20.2%, all within 2x (19.1%
# before the unrolled copies waited for their DRAM runs: their column walks
# and gathers each open runs of their own, 1 to 3 points on rows already
# slow); open: the 2^16-row rows without padding (+39..+65%: the card runs
# their one-sector gathers at the L2's random-line request rate, 85 a clock,
# which the model does not apply; its chain waits for them a few at a time
# instead). Today 20.45%: their random gathers wait for the slowest of their
# lines (dram_lines_log2_cycles per doubling), on rows already too slow.
case_ "H200 guard family: accuracy gate"
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2): 20.22 -> 18.11%. 2026-12-04: loads that all draw hit the L1
# by each SM's own draws, first touches by sectors (the gfoot rows): 18.11 ->
# 8.17%.
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (l2_slowest_sm_ratio, dram_slowest_sm_ratio, run7 chase): 8.17 -> 8.84% (worse).
# 2026-12-04: the slowest-SM ratios re-set from the spread rows (1.056, 1.040):
# 8.84 -> 9.17% (worse). 2026-12-04: a drawn gather's requests wait on DRAM by
# the launch's first touches (the gfoot rows): 9.17 -> 4.29%. 2026-12-04: a
# drawn read's first-touch share counts each lane's draws once (the coldlanes
# rows): 4.29 -> 4.37% (worse).
# 2026-12-04: a drawn gather's DRAM traffic counted by the granules of its
# buffer as far as the L2 keeps it, its early first touches joining the L2's
# time (opcost.c gather_first_granules, run34/gstamp): 4.37 -> 4.71% (worse).
# 2026-12-04: a block's exit waits for the slowest line of a top-level loop's
# last wait (the sweepg rows): 4.71 -> 3.61%. 2026-12-05: gpuperf.random drawn
# from an op's place among its kernel's ops, not its source line: 3.61 ->
# 4.23% (sampling noise; worse).
gp validate validation/h200/calibration.csv --family guard --max-mape 4.25 --min-within-2x 1
expect_status 0

# Rows read in two or three passes (bench_passes, run16): a pass re-reads its
# rows at the distance of the rows every held block reads meanwhile (opcost.c
# passes_distance), so 4096 rows of 16 KiB all held at once re-read from DRAM
# and 16384 rows of 4 KiB with 33 MiB held from L2 (11.6% before, its rows of
# 16 KiB held in 64..128 MiB -24..-38%). Today 7.0%, all within 2x; open: held
# rows of 16 KiB and more between 32 and 48 MiB miss the L2 55 to 85% where its
# capacity says they fit, padded by 128 bytes a row or not (-10..-36%).
case_ "H200 passes family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 7.0 -> 6.6%.
gp validate validation/h200/calibration.csv --family passes --max-mape 6.65 --min-within-2x 1
expect_status 0

# Column walks (bench_colwalk, run18): a thread per column summing a[k n + r]
# over a run-time count, unrolled by nvcc or pinned to 1..8 copies, the same
# walk with each warp's trips 128 bytes to 64 KiB apart, and a block's copy
# loop whose warps read the lines between one warp's trips. The copies in
# flight together extend one DRAM run by a line each where the trips lie
# within dram_run_span_bytes (1 KiB) of each other, and each open a run of
# their own further apart, the batch waiting for the slowest
# (dram_run_line_cycles, dram_batch_log2_cycles; blockcost.c next_trip_lines):
# 13.0% -> 8.4%, all within 2x; open: 32 warps per SM (+8..+17%, the DRAM
# knee) and the loops whose loads ptxas interleaves with their arithmetic
# (nvcc's 16 copies keeping 10 or 8 trips in flight, -12..-36%).
case_ "H200 colwalk family: accuracy gate"
gp validate validation/h200/calibration.csv --family colwalk --max-mape 8.4 --min-within-2x 1
expect_status 0

# The overlap family (bench_overlap, run17): a loop of a warp-uniform load, 4 or
# 12 dependent FFMA on it (and an rsqrtf) and an accumulation, pinned to 1..8
# copies or left to nvcc, 1, 4 and 16 warps per SM. The copies run their
# load-fed chains side by side as far as each copy's load and chains fit the
# registers (blockcost.c seg_sum_t.fresh, copy_regs): 55.4% -> 15.9%, all
# within 2x; open: ptxas runs four copies side by side in 17 registers where
# the count allows two (1 and 4 warps, 4 and 8 copies: +7..+70%), and the
# issue-bound 16-warp rows (-30..+9%).
case_ "H200 overlap family: accuracy gate"
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (l2_slowest_sm_ratio, dram_slowest_sm_ratio, run7 chase): 15.87 -> 16.02% (worse).
# 2026-12-04: a cold line that several blocks of one wave read at the same step
# is a fill in flight for each (wave_in_flight): 16.05 -> 16.11% (worse: the
# l1 rows' cold walk of x, already over, +0.1..+0.6 points).
# 2026-12-05: a global load's issue (global_load_issue_cycles): 16.11 -> 15.37%;
# a single chain on a loaded value in the load's register (blockcost.c
# copy_regs): 15.37 -> 12.26%; the key at 2.47: 12.31%.
gp validate validation/h200/calibration.csv --family overlap --max-mape 12.32 --min-within-2x 1
expect_status 0

# The misalign family (bench_misalign, run19): 16 coalesced L1-hit loads a trip
# at immediate offsets, floats, float2 and float4 aligned, shifted off the line
# boundary or as a stencil row's taps, floats spread over 2 to 32 lines, 1 to
# 64 warps per SM. A request straddling a line moves the lines' worth its lanes
# name (opcost.c l1_data_bytes), a spread one a quarter cycle a line
# (l1_line_issue_cycles 0.25): 15.7 -> 7.6% (the shifted floats +22% and the
# spread +42% at 64 warps -> -2% and +8%); open: one to four warps +6..+19%.
case_ "H200 misalign family: accuracy gate"
# 2026-12-04: the L1 data path holds a load's address arithmetic once a
# request, a request of several lines a line a clock (the gfoot rows): 7.62 ->
# 5.26%. 2026-12-07: an L1 hit whose value feeds arithmetic waits as a
# warp-uniform one's does (decided on the whole table, 7.371 -> 7.351%):
# 5.26 -> 6.33%, worse: the one- and four-warp rows, up to +19% before, now
# up to +25% (the walk's per-load costs beyond the first are too large here);
# l1_return_cycles chosen again with it (5.8 -> 4.8): 4.39%.
gp validate validation/h200/calibration.csv --family misalign --max-mape 4.4 --min-within-2x 1
expect_status 0

# The stage family (bench_stage, run20): one float a thread copied, behind a
# barrier, through a shared tile and another warp's value, and into a 5-point
# stencil from the tile, 1-D blocks of 128..1024 threads and 2-D tiles of
# 32x8..32x32, DRAM and L2. No rule of its own: 7.9%, all 50 within 1.5x; the
# worst are the L2 rows of 512 and 1024 threads (+16..+27%, as turnover's) and
# st2d 16x16 from DRAM (-18%). 2026-12-04: the L2 rows' a and out start in the
# L2 (in_l2), as the bench times them after its warm-ups, not from a cold
# first launch: 7.80 -> 4.34%.
case_ "H200 stage family: accuracy gate"
gp validate validation/h200/calibration.csv --family stage --max-mape 4.4 --min-within 1.5:1
expect_status 0

# The naive family (bench_naive, run21): the naive SGEMM, blocks of 32x8, 16x16
# and 8x32, n = 256..4096, its k loop as nvcc unrolls it (16 copies) and pinned
# to one. The block's other warps' L1 hits at one step count for the traffic,
# not the latency (they read each new line of B while its fill is in flight):
# 32.6 -> 24.3%. 2026-12-04: so do the block's life re-reads at one step (the
# n = 256 block keeps its column of B in L1), and a group's loads of A and B
# miss each on its own: 24.3 -> 20.6%. Open: one-wave grids (n = 256, 512:
# their first touches are L2 hits in the model, misses in flight on the card,
# -19..-53%) and the unrolled 32x8 rows (+11..+40%: a load's L1 cost with its
# address arithmetic). 2026-12-04: a cold line that several blocks of one wave
# read at the same step is a fill in flight for each (opcost.c
# wave_in_flight), for every warp of the block that reads it at that step:
# 20.36 -> 14.17% (n = 256 and 512 -11..-51% -> -31..+20%; worse: the
# `#pragma unroll 1` rows of 32x8 blocks, now +10..+20% at n = 256 to 2048,
# and of 16x16 at 1024 and 2048, +14%, +17%).
# 2026-12-07: an L1 hit whose value feeds arithmetic waits as a warp-uniform
# one's does: 14.17 -> 14.22%; l1_return_cycles 5.8 -> 4.8: 14.19%.
case_ "H200 naive family: accuracy gate"
gp validate validation/h200/calibration.csv --family naive --max-mape 14.19 --min-within-2x 0.96
expect_status 0

# The tpose family (bench_tpose, run22): transposes of n = 1024..16384, naive
# and through a 32x32 shared tile (blocks of 32x8, padded or not, and 32x32),
# and the tile kernel without the transpose. 6.8% with no rule of its own,
# 4.0% since the blocks of one phase wait at its barrier together and queue
# their wavefronts (blockcost.c core_time), all 25 within 1.5x; the worst is
# the tiled transpose at n = 16384 (-11%: its tile's lines 4n bytes apart
# write slower than the copy's).
case_ "H200 tpose family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 4.0 -> 4.5% (worse).
gp validate validation/h200/calibration.csv --family tpose --max-mape 4.55 --min-within 1.5:1
expect_status 0

# The tconf family (bench_tconf, run24): the tile transpose at 2, 4 and 8 blocks
# an SM with conflict-free and 2- to 32-way conflicted reads, n = 2048..8192,
# measured after the rule that the blocks of a one-phase kernel wait at its
# barrier together was written: 3.8% (12.1% with the smooth maximum before
# it), all 54 within 1.5x; the worst are the 8-block rows with 16- and 32-way
# conflicts at n = 8192 (+6..+9%).
case_ "H200 tconf family: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 3.85 -> 4.2% (worse).
gp validate validation/h200/calibration.csv --family tconf --max-mape 4.2 --min-within 1.5:1
expect_status 0

# The st3d family (bench_st3d, run23): 3-D stencils of 3 to 27 points on n^3
# floats, n = 128..512, blocks of 32x4 and 32x8. Today 2.3%, all 36 within
# 1.5x: a straight run's rows of several taps hold their 64-bit addresses
# while the taps issue (blockcost.c row_address_regs), so the 27-point run
# waits twice, as its SASS does (14 of 27 loads before the first FADD): its
# rows -9..-28% -> -11..+4%; 7.8% before. 2026-12-04: the script states the
# bench's memset flush before the launch (bench_st3d.cu, time_case cold):
# 5.42 -> 2.28%, the n = 128 rows (11 to 17 us, the launch queued behind the
# flush) +4..+15% -> -4..+3%.
case_ "H200 st3d family: accuracy gate"
# 2026-12-05: a global load's issue (global_load_issue_cycles): 2.28 -> 1.94%.
gp validate validation/h200/calibration.csv --family st3d --max-mape 1.95 --min-within 1.5:1
expect_status 0

# The scripts of the stage, naive, tpose and st3d rows refuse what their
# benches never ran, naming the script line and what they take.
case_ "stage, naive, tpose and st3d scripts: bad parameters"
gp predict --device h200-sxm scripts/validation/stage.lua -p kernel=foo
expect_status 1
expect_err "stage.lua:110: kernel must be copy, bar, smem, smem5, copy2d, smem2d or st2d, got 'foo'"
gp predict --device h200-sxm scripts/validation/stage.lua -p kernel=st2d -p n=8200
expect_status 1
expect_err "n must be a multiple of bx and by"
gp predict --device h200-sxm scripts/validation/naive.lua -p n=1000
expect_status 1
expect_err "naive.lua:15: n must be a multiple of 16, bx and 256 / bx"
gp predict --device h200-sxm scripts/validation/naive.lua -p unroll=4
expect_status 1
expect_err "unroll must be 16 or 1"
gp predict --device h200-sxm scripts/validation/tpose.lua -p pad=2
expect_status 1
expect_err "tpose.lua:22: pad must be 0 or 1"
gp predict --device h200-sxm scripts/validation/tpose.lua -p kernel=foo
expect_status 1
expect_err "kernel must be naive, t32x8, t32x32, c32x8 or t, got 'foo'"
gp predict --device h200-sxm scripts/validation/tpose.lua -p kernel=t -p by=12
expect_status 1
expect_err "tpose.lua:47: by must be 8, 16 or 32, got 12"
gp predict --device h200-sxm scripts/validation/tpose.lua -p kernel=t -p w=35
expect_status 1
expect_err "tpose.lua:50: w must be 32, 33, 34, 36, 40 or 48, got 35"
gp predict --device h200-sxm scripts/validation/st3d.lua -p n=1024
expect_status 1
expect_err "st3d.lua:19: n must be 128, 256 or 512, got 1024"
gp predict --device h200-sxm scripts/validation/st3d.lua -p set=star
expect_status 1
expect_err "set must be row3, col3z, yz9, plane9, cross7 or cube27, got 'star'"

# The evaluation set (nothing is set from it): the target is 10% and 95% of
# rows within 1.5x; the gate holds what the model reaches today (13.19%, 288 of
# 290 rows within 2x, 278 within 1.5x: the 95% is gated) so that it can only
# improve; 13.36% before a straight run's rows of several taps held their
# addresses (a rule from the calibration `st3d` rows: the 27-point stencils
# 20.3 -> 11.9%, no other row moving); 13.58% on the same 290 rows before a tile copy into shared memory
# written without `unroll` was taken as nvcc's 4-copy loop (attention 16.2 ->
# 11.2%, conv2d 12.0 -> 11.6%; register-blocked 8x8 GEMMs 5.5 -> 5.6%), with the
# eight WMMA and 4x4 register-blocked GEMM rows that rule was formed on moved to
# calibration (validation/README.md). Before: 14.15% over 298 rows, 295 within
# 2x, 282 within 1.5x; 14.11% on
# the same 298 rows before the blocks of a one-phase kernel waited at its
# barrier together (transpose 9.4 -> 10.5%: the diagonal-order tiles +16..-3%
# -> +19..+4%; conv2d 11.9 -> 12.0%: the 3x3 tiles -24..-8% -> +2..+7%, the 7x7
# +8..+14% -> +18..+29%), with the three 32x32 shared transposes that rule was
# formed on moved to calibration (validation/README.md); 14.21% over the 301
# rows before (298 within 2x, 285 within 1.5x); 14.22%
# before a block's other warps' L1 hits at one step counted for the traffic
# only (a rule from the calibration `naive` rows: gather 13.4 -> 12.6%, bfs
# 12.70 -> 12.85%); 14.14%
# before the integer ops computing an independent load's address cost their
# issue while loads are in flight (a rule from calibration rows that took the
# convolutions, whose taps compute the next address between loads, faster:
# conv_sep 4.6 -> 7.0%, conv2d 11.3 -> 11.9%, both within 10% and 25% a
# row) and random lines waited for their slowest (spmv_ell 18.9 -> 19.3%); 14.49%
# (283 within 1.5x) before a grid-stride loop kept to one copy (reduce 14.2 ->
# 9.7%, histogram 46.8 -> 40.8%) and a straddling request costed by its lines
# (14.15 -> 14.14%); 14.69%
# (281 within 1.5x) before the unrolled copies ran the arithmetic on their own
# loads side by side (n-body 19.5 -> 14.3%: the shared tiles +46..+53% ->
# -21..+5%, the naive loop -7..-1% -> -23..-18%; softmax 15.8 -> 16.0%) (14.71%
# before the L1 served the hits of every load of a group one after another,
# then 14.72%; 14.69% with a warp's L1 hits back l1_return_cycles apart and a
# group's stream misses kept behind later loads). The
# unrolled copies waiting for their DRAM runs took it from 15.06% (275 within
# 1.5x): column-major mat-vec 15.0 -> 10.7%, register-blocked GEMM 17.3 ->
# 14.3%, attention, layer norm, reduce, WMMA GEMM better; the ELL SpMV's
# column walks 18.2 -> 18.9% and three softmax rows worse. Four
# softmax and layer norm rows moved to calibration (the re-read distance of a
# pass was first tried on them; validation/README.md): the 301 left were at
# 15.10% before that rule, with them 15.15%, 302 of 305 within 2x, 277 within
# 1.5x. Before: a branch
# guarding loads and arithmetic alone is predicated (bench_guard), the ELL
# SpMV 31.7 -> 18.2%. It was 15.50% before that and 15.47% before the store
# burst after a barrier and the immediate-offset L1 rate (calibration 11.17 ->
# 10.60%), which went up by 0.03 points: the block scans' four stores a thread
# after their last barrier now cost their unmerged requests (scan 12.8 ->
# 14.7%, the scans of 256 threads +1 -> +11% as the 1024-thread ones went
# -28 -> +19%), and the convolution pipelines' taps at immediate offsets got
# faster where they were already short (-35 -> -47%).
# Random 4-byte gathers over 16 KiB to 64 MiB (bench_gfoot, run29, 66 rows): up
# to 128 KiB the L1 misses only each SM's first touch of a sector, beyond it
# keeps about a quarter of its share of the lines' sectors (opcost.c
# irm_l1_hit); a request of 32 random words takes the L1 9.7 SM cycles at 64
# warps per SM (its address arithmetic once a request). 28.8% when it came in,
# 61 of 66 within 2x; open: the 64 MiB rows (the traffic counts first touches
# by elements), the 16 MiB rows at 8 warps (+39, +51%) and the L1-resident
# rows at 32 and 64 warps (-17..-25%).
case_ "H200 gfoot family: accuracy gate"
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (l2_slowest_sm_ratio, dram_slowest_sm_ratio, run7 chase): 28.80 -> 29.27% (worse).
# 2026-12-04: the slowest-SM ratios re-set from the spread rows (1.056, 1.040):
# 29.27 -> 29.46% (worse). 2026-12-04: a drawn gather's requests wait on DRAM
# by the launch's first touches, not the lanes' average share of them
# compounded over the request (the 8-warp rows over 512 KiB to 4 MiB,
# +24..+139% -> -2..+5%; at 16 MiB +132, +64% -> +39, +51%): 29.46 ->
# 14.77%, 64 of 66 within 2x. 2026-12-04: a drawn read re-visits the L2 by
# granules, in l2_drawn_capacity_fraction of it (run29 gfoot ncu hits):
# 14.77 -> 14.18% (64 MiB at 64 warps -52 -> +17%; **worse** at 32 warps -18
# -> +29%: the traffic's first touches, counted by elements). 2026-12-04: the
# 20 gather_u rows (run31: uniform draws over 16 to 128 MiB, 32 and 64 warps)
# join at 13.3%, the rule unchanged (24.3% without it; their ncu re-visit hits
# from 40 to 128 MiB within 0.6 points of it): 14.18 -> 13.99% over 86 rows.
# 2026-12-04: they set the edge's softness (l2_drawn_ways 40, the share 0.547,
# least squares over their ncu hits): 13.99 -> 13.77% (32 MiB, 32 warps -20 ->
# +2%). 2026-12-04: the 40 gather_a rows (run33: only 1 to 16 lanes of each
# warp gather, over 1 to 32 MiB, ncu's DRAM bytes beside) join at 33.0%: the
# model counts a gather's first touches at the L2 by its elements, 1.3 to 4.8
# times the DRAM bytes ncu reads (validation/README.md): 13.7 -> 19.9% over 126
# rows.
# 2026-12-04: counted by granules as far as the L2 keeps the buffer, the
# early first touches joining the L2's time: 19.85 -> 11.66%; a block's exit
# after the slowest line of a top-level loop's last wait (the sweepg rows):
# 11.66 -> 11.78% (worse: the gather_a rows of 2 to 8 lanes through 1 and
# 4 MiB at 8 warps per SM, already over, +1 to +2 points).
gp validate validation/h200/calibration.csv --family gfoot --max-mape 11.79 --min-within-2x 0.97
expect_status 0

case_ "H200 sweepg family: accuracy gate"
# Gathers into a buffer the same launch reads in order (bench_sweepg, run37,
# 80 rows: every thread reads its own word of x or of another buffer, then 1,
# 4 or 16 random gathers of x by every lane or one lane a warp, independent or
# chained, over 1 to 64 MiB behind the flush). 2026-12-04: 17.8% against the
# model they came to; 13.4% with a gather's traffic by granules; 11.0% with the
# ordered reads crediting the gathers' first touches as the launch runs and
# bringing an SM's L1 only its own lines; 8.4% with a block's exit waiting for
# the slowest line of its loop's last wait; 7.41% with a drawn chase's traffic
# by granules.
gp validate validation/h200/calibration.csv --family sweepg --max-mape 7.42 --min-within-2x 1
expect_status 0

# The spread family (bench_spread, run30): one lane of one warp on each of k = 1
# to 132 SMs chasing pointers through 4 MiB in L2; the launch takes its slowest
# SM's time (282 cycles a hop on one SM, 298 from 33 on). It tests the rule
# that raises a launch's latencies toward the slowest SM's with the SMs it
# spans (l2_slowest_sm_ratio, set from the run7 chase cycles before it ran):
# 1.2%, 3.4% with every SM alike. 2026-12-04: 8 rows through 1 GiB behind the
# flush join; the one-SM and 132-SM rows now set the ratios (1.056, 1.040) and
# the rows between test the shape: 1.3% over 16 rows, 3.5% with every SM alike.
case_ "H200 spread family: accuracy gate"
gp validate validation/h200/calibration.csv --family spread --max-mape 1.5 --min-within 1.05:1
expect_status 0

# The coldlanes family (bench_coldlanes, run32): the first 1 to 32 lanes of one
# warp, each from a random place of one cycle of 128-byte nodes over 256 KiB to
# 64 MiB, 2048 and 8192 hops behind the memset flush: a lone lane's first lap
# finds nothing cached, a warp's step waits on DRAM until its lanes reach the
# places others started from. 12.4% when they joined (a lone lane's draws
# counted 32 times too few, draws with replacement); with each lane's draws
# counted once 4.4%, with the cycle (opcost.c cycle_share) 3.1%.
case_ "H200 coldlanes family: accuracy gate"
gp validate validation/h200/calibration.csv --family coldlanes --max-mape 3.1 --min-within 1.2:1
expect_status 0

# The lform family (bench_lform, run38 and run39): 8 coalesced L1-hit loads a
# trip at immediate offsets, behind a 64-bit add or an index's LEA a load,
# LDG.E, LDG.E.CONSTANT and LDG.E.STRONG.SM, with an FADD, an FADD and an FFMA,
# or a warp-uniform load and an FFMA beside each, 16 to 64 warps per SM:
# 13.13% when run38's 120 joined (their issue-bound rows -16..-25%); with a
# global load holding its scheduler global_load_issue_cycles (2.47, from the
# 15 issue-bound forms at 64 warps) 5.88% over 132, the loads at immediate
# offsets with an FFMA +9..+20%. 2026-12-07: an L1 hit whose value feeds
# arithmetic waits as a warp-uniform one's does: 5.88 -> 5.99% (the rows at
# immediate offsets now up to +21%); l1_return_cycles 5.8 -> 4.8: 5.76%.
case_ "H200 lform family: accuracy gate"
gp validate validation/h200/calibration.csv --family lform --max-mape 5.76 --min-within 1.3:1
expect_status 0

# The l1issue family (bench_l1issue, run42): 8 coalesced L1-hit loads a trip
# beside 1 to 12 FADDs a load (the issue slots from below the L1's line a
# clock to well above it), at immediate offsets, each at its own masked
# offset, or each beside a warp-uniform load, 16 to 64 warps per SM. No rule
# from them yet: 10.6% when they joined, the rows at immediate offsets
# +2..+25% (most at 16 warps per SM), those at masked offsets at 16 warps
# -19..-40% (ptxas runs their loads one at a time through one register pair).
# 2026-12-07: an L1 hit whose value feeds arithmetic waits as a warp-uniform
# one's does: 10.62 -> 10.70%; l1_return_cycles 5.8 -> 4.8: 10.41%.
case_ "H200 l1issue family: accuracy gate"
gp validate validation/h200/calibration.csv --family l1issue --max-mape 10.41 --min-within 1.7:1
expect_status 0

case_ "H200 evaluation set: accuracy gate"
# 2026-12-03: a block's retirement lag lengthens its core term alone
# (blockcost.c): 13.18 -> 13.04%, 278 -> 276 within 1.5x (95.2%).
# 2026-12-03: a read request of one sector of a line takes the L2
# sparse_read_l2_bytes, and the L2 meets the core term with a knee of p = 4
# (GP_KNEE_P_L2), both from the calibration scatter rows: 13.04 -> 12.91%, 276
# -> 278 within 1.5x (95.9%). 2026-12-04: a block's warps that read one line
# at a step wait for its fill, and a group's streams of different buffers miss
# each on its own (the calibration naive rows): 12.91 -> 12.85%, 278 -> 279
# within 1.5x. 2026-12-04: loads that all draw hit the L1 by each SM's own
# draws, and the L1 data path holds a load's address arithmetic once a request
# (the calibration gfoot rows): 12.85 -> 12.54%, 279 -> 278 within 1.5x (95.9%).
# 2026-12-04: a launch over many SMs waits the slowest SM's L2 and DRAM latency
# (the calibration chase cycles, run7): 12.54 -> 12.45%, 278 within 1.5x; with
# the ratios re-set from the calibration spread rows: 12.43%. 2026-12-04: a
# drawn gather's requests wait on DRAM by the launch's first touches (the
# calibration gfoot rows): 12.43 -> 12.48% (worse: BFS 13.0 -> 15.4%, CSR
# SpMV 13.1 -> 16.4%; ELL SpMV 13.0 -> 6.5%), 278 -> 277 within 1.5x.
# 2026-12-04: a drawn read's first-touch share counts each lane's draws once,
# and a chase walks a cycle (the calibration coldlanes and cold rows): 12.48 ->
# 12.55% (worse: BFS 15.4 -> 17.0%, its vertex scans of 1/64 of the vertices
# -18, -15% -> -31, -28%; pointer chase 9.3 -> 8.7%), 277 within 1.5x.
# 2026-12-04: a drawn gather's DRAM traffic counted by the granules of its
# buffer as far as the L2 keeps it, its early first touches joining the L2's
# time (opcost.c gather_first_granules, run34/gstamp), the ordered reads of a
# gather's buffer crediting its first touches as the launch runs and its L1
# hits by its SM's own draws, and a block's exit after the slowest line of a
# top-level loop's last wait (the calibration gfoot, gstamp and sweepg rows):
# 12.553 -> 12.395%, 277 within 1.5x (BFS 17.0 -> 15.9%, layer norm 14.0 ->
# 11.5%; worse: ELL SpMV 6.5 -> 7.4%). 2026-12-04: a cold line that several
# blocks of one wave read at the same step is a fill in flight for each (the
# calibration `naive` rows): 12.395 -> 12.215%, 280 within 1.5x (WMMA GEMM
# 7.8 -> 4.5%, naive GEMM 21.4 -> 17.7%, n-body 13.1 -> 12.2%, attention
# 10.2 -> 9.9%; worse: layer norm 11.5 -> 11.9%, mat-vec 9.9 -> 10.0%).
# 2026-12-05: a global load's issue (global_load_issue_cycles, the calibration
# lform rows): 12.215 -> 12.189%, 280 within 1.5x (separable convolution 6.97
# -> 6.30%, 27-point stencil 10.63 -> 10.15%; worse: softmax 16.06 -> 16.20%,
# layer norm 11.92 -> 12.00%). 2026-12-05: a single chain on a loaded value in
# the load's register (the calibration overlap rows): 12.189 -> 12.134%, 280
# within 1.5x (softmax 16.20 -> 13.51%); the key at 2.47 (run39): 12.138%.
# 2026-12-05: the eleven rows whose scripts described repeated launches where
# their bench times one launch after an untimed one moved to calibration
# (validation/README.md log): 11.409% over 279 rows (the same 279 rows 11.409%
# before; no prediction changed), 274 within 1.5x, 277 within 2x.
# 2026-12-05: the global histogram of equal bytes (2 rows, -96.2 and -96.8%),
# whose script named its data-dependent bin without `from_data`, moved to
# calibration with the script mended: 10.795% over 277 rows (the 277 left
# predict as before), 274 within 1.5x, 277 within 2x. 2026-12-05: the
# CSR SpMV's warp-per-row rows (4, -16..-31%), whose shape showed a loop of
# shuffles after loads dropping the block's exit wait, moved to calibration
# with that rule: 10.577% over 273 rows (the 273 unchanged), 270 within 1.5x,
# 273 within 2x. gpuperf.random drawn from an op's place among its kernel's
# ops, not its source line (every drawn row moves by its sampling noise; BFS
# vertex scans by up to 10 points): 10.555%, 270 within 1.5x. 2026-12-05:
# shared atomics queue by bank (from run47's `shist` rows): 10.545% (the radix
# counts of 256 digits -14.3, -9.6, -3.4% -> -13.9, -8.6, -2.1%). 2026-12-06: a
# block with a dependent load costs at least its walk with every load independent
# (blockcost.c independent_floor): 10.512%, 271 within 1.5x (the local-window
# gather -34.9 -> -26.5%, two BFS vertex scans 0.1 and 0.4 points closer).
# 2026-12-06: the re-read, block-stride and shifted-stream rules (docs/model.md):
# 10.344% over the 273; the 8 block-per-row softmax and layer norm rows, which
# led to the block-stride rule, moved to calibration: 10.166% over 265 (10.580%
# before the rules), 264 within 1.5x (radix 16.5 -> 4.7%; reduce 9.3 -> 10.5%).
# 2026-12-06: a barrier waits for the slowest line of every load of its phase,
# those whose values the phase used included (decided on the calibration
# table, 7.641 -> 7.631%, and plugin-check's barrier inserted before a store):
# 10.166 -> 10.366%, 264 within 1.5x (worse: scan 12.1 -> 15.3%, reduce 10.5
# -> 10.8%; radix 4.7 -> 4.3%). 2026-12-06: a loop's branch waits for the
# stall cycles ptxas keeps after its exit compare (decided on the calibration
# table, 7.631 -> 7.548%): 10.357% (mat-vec 10.0 -> 9.9%). 2026-12-07: a
# stream's reads beyond its writes at the DRAM's read-only rate (decided on the
# calibration table, 7.548 -> 7.472%): 10.371% (worse: pipelines 11.2 -> 12.2%,
# their reads after a flush the scripts do not state already fast; better:
# ELL SpMV 7.0 -> 6.1%, mat-vec 9.9 -> 9.5%), 264 within 1.5x. 2026-12-07:
# random lines reaching DRAM beyond the translation's reach take more DRAM
# time (decided on the calibration table, 7.472 -> 7.371%): 10.319% (gather
# 11.1 -> 9.1%). An L1 hit whose value feeds arithmetic waits as a
# warp-uniform one's does (decided on the calibration table, 7.371 ->
# 7.351%): 10.3145%; l1_return_cycles chosen again with it (5.8 -> 4.8,
# 7.351 -> 7.326%): 10.3151%. Read-only loads of an unrolled loop's later trips
# issued ahead of the earlier trips' barriers, at most GP_HOIST_LOADS (decided on
# the H100 calibration table's unstamped rows, 7.907 -> 7.693%; the H200's
# stamped rows unchanged, stamp=1): 10.3151%, unchanged (its first form, which
# also let trips of shared loads alone pass their barriers, gave 10.3018%).
gp validate validation/h200/evaluation.csv --max-mape 10.32 --min-within-2x 0.98 \
    --min-within 1.5:0.95 --json
expect_status 0
n=$(json .overall.rows)
expect_between "$n" 265 1000
case_ "README.md: the evaluation table is this validation's"
readme_table "### Evaluation ("

# The H100 tables (validation/h100/README.md): the H200 tables' kernels timed on an
# H100 SXM, predicted with devices/h100-sxm.ini, nothing in the model set from them.
# 2026-12-05: the file made from gpuperf-calibrate's H100 run on the H200's (the
# old one, the H200's base keys alone: 25.5% and 25.9%): evaluation 9.859%, 270 of
# 273 within 1.5x, all within 2x; calibration 4.2%, all 122 within 1.5x. With the
# H100 runs of bench_shist (162 rows, 9.9%) and bench_mathfn (34 rows, 22.1%: the
# long calls' latency rows written as one chain): 9.04% over 318, 312 within 1.5x.
# With 14 further benches' 1499 rows (a second H100 call): 8.118% over 1817, 1790
# within 1.5x, all within 2x. With 15 more benches' 1510 rows (a fourth call):
# 8.931% over 3327, 3272 within 1.5x, 3311 within 2x (splitw's random partial
# stores 28%, whose sparse_write_* bytes are the H200's). 2026-12-06: the integer
# pipe's share of a shared atomic (shared_atomic_int_share, set from the H200's
# shist and atom rows): 8.689% (`shist` 9.9 -> 5.6%, `atom` 9.2 -> 8.7%). The
# independent floor (blockcost.c): evaluation 9.859 -> 9.841%, calibration 8.688%.
# The re-read, block-stride and shifted-stream rules, the 8 rows moved as on the
# H200: evaluation 9.584% over 265 (9.942% before), calibration 8.487% over the
# 3327, 8.537% over 3394 with run63's 59 rows (bench_passes bstride, bench_misdram,
# timed on the H100 only) and the 8 moved. A barrier waits for every load of
# its phase: 9.582% and 8.527%. The exit compare's stall cycles
# (predicate_branch_cycles, 13 as on the H200): 9.571% and 8.396%. A stream's
# reads beyond its writes at the read-only rate (dram_read_gbps 3108, decided
# on the H200 calibration table): 9.640% (worse: mat-vec 8.8 -> 9.4%, ELL SpMV
# 6.4 -> 7.0%, pipelines 13.0 -> 13.6%) and 8.375%. 2026-12-07: bench_scatter's
# 396 rows from this card (5.4% with the H200's sparse_read_l2_bytes: 8.059% over
# 3790), and the H100's own sparse_read_l2_bytes (52.0, set from its 28 scatter
# ws=l2 rows by the H200's method): calibration 7.983% (the 3394 of before 8.298%),
# evaluation 9.613%. The H100's sparse_write_* from its scatterw and splitw rows and
# its gpuperf-calibrate sparse_read_bytes_*: 7.793% and 9.602%. The
# translation's DRAM time for random lines (tlb_dram_*, this card's own tlb
# gather_thr rows: 14 bytes a line beyond 128 MiB): 7.715% and 9.564%. This
# card's own DRAM-line values (dram_lines_log2_cycles 76.5 from its chase rows,
# dram_drawn_line_cycles 6.6 from its scatter rows): 7.594% and, raised, 9.725%
# (worse: the stencils' and transposes' multi-line DRAM requests, already fast).
# 19 further benches' 1708 rows from one more H100 call (8.88% with the H200's
# l1_miss_hold_*: 7.993% over 5498) and this card's own l1_miss_hold_* (455 and
# 1955 from its l1cap rows): calibration 7.887% over 5498, 5390 within 1.5x, 5469
# within 2x; the evaluation unchanged (9.725%). Its own l2_drawn_* (0.558 and 48,
# from its gfoot ncu sweep): 7.878%, the evaluation 9.725%. An L1 hit whose
# value feeds arithmetic waits as a warp-uniform one's does: 7.857%, 9.724%.
# l1_return_cycles 4.8 (chosen on the H200's table): 7.827%, 9.725%. A walk's
# new sectors from the distance it moves a trip: 7.802%, 9.725%. bench_mmasmem's
# 132 rows replaced by its 130 timed without their clock64 stamps, with the
# unstamped kernels' registers (benches/mmasmem_nostamp; mmasmem 20.6 -> 14.4%):
# 7.651% over 5496 (5409 within 1.5x, 5474 within 2x). bench_regblock's,
# tiles2's and tiles3's rows likewise replaced by their unstamped kernels'
# (benches/NAME_nostamp): 7.907% (worse: tiles2 9.9 -> 25.3%, tiles3 14.2 ->
# 19.1%: nvcc now issues an unrolled tile loop's later read-only loads ahead of
# the earlier trips' barriers; regblock 17.4 -> 15.5%; 5402 within 1.5x).
# That hoisting in the model (blockcost.c hoists_across_barriers, at most
# GP_HOIST_LOADS = 10 loads a thread, the scripts' const __restrict__ inputs
# as space "texture"): 7.693% (tiles2 25.3 -> 13.0%, tiles3 19.1 -> 17.1%;
# worse mmasmem 14.40 -> 14.47%; 5411 within 1.5x), evaluation 9.7246%. A drawn
# chase's re-visits beyond the L2 kept as a drawn gather's: 7.679%. A random
# store's request of whole sectors at this card's sparse_write_l2_sector_bytes
# (100, its scatterw rows in L2): 7.648%. tiles2.lua's ldloop copy loop as its
# SASS runs it (blocks of 16, 8 and 4 copies): 7.627% (5412 within 1.5x).
# tiles3.lua's scalar copies without the mma one at a time, as their SASS
# issues them: 7.554% (5420 within 1.5x; tiles3 17.1 -> 10.9%). The uniform
# and mmasmem loads in flight as their SASS keeps them (in_flight): 7.405%
# (5434 within 1.5x; uniform 14.3 -> 10.6%, mmasmem 14.5 -> 12.6%); with
# regblock.lua's copy loops too: 7.372% (5436; regblock 15.6 -> 14.2%); and
# mmasmem.lua's copy loops: 7.347% (5437; mmasmem 12.6 -> 11.5%).
case_ "H100 evaluation table: accuracy gate"
gp validate validation/h100/evaluation.csv --max-mape 9.73 --min-within-2x 1 \
    --min-within 1.5:0.98 --json
expect_status 0
n=$(json .overall.rows)
expect_between "$n" 265 1000
case_ "README.md: the H100 table is this validation's"
readme_table "### A second Hopper card: the H100 ("
case_ "H100 calibration kernels: accuracy gate"
gp validate validation/h100/calibration.csv --max-mape 7.35 --min-within-2x 0.99 \
    --min-within 1.5:0.98 --json
expect_status 0
n=$(json .overall.rows)
expect_between "$n" 5496 100000
gp validate validation/h100/calibration.csv --family shist --max-mape 5.7 --min-within-2x 1

# Cross-generation speedups: predicted against measured, 23 pairs.
case_ "cross-generation speedups: accuracy gate"
gp validate validation/cross-generation.csv --max-mape 18 --max-ratio 2 --check-order --max-order-errors 0
expect_status 0
# the README's figure for it ("**11.0% mean absolute error**")
x=$(readme_pct "### Speedups across generations" " mean absolute")
if [ -n "$x" ]; then expect_out "mean absolute speedup error $x%,"
else bad "README.md states no '**N% mean absolute' figure under 'Speedups across generations'"; fi

# Tesla's independent rows include Harris's small scans, whose times are mostly host and
# runtime costs of a 2007 driver that the device file's launch figures do not reproduce
# (-78% at 1024 elements): the gate holds today's 23.2% and 15 of 17 rows within 2x,
# short of the 15% target.
case_ "published figures, tesla (1.x)"
gp validate validation/published/tesla.csv --max-mape 24 --max-ratio 5 --min-within-2x 0.85 --check-order
expect_status 0
readme_published tesla.csv
case_ "published figures, fermi-kepler (2.x, 3.x)"
gp validate validation/published/fermi-kepler.csv --max-mape 15 --max-ratio 2 --check-order
expect_status 0
readme_published fermi-kepler.csv
case_ "published figures, ampere (8.x)"
gp validate validation/published/ampere.csv --max-mape 15 --max-ratio 2 \
    --check-order --max-order-errors 1
expect_status 0
readme_published ampere.csv

case_ "a gate that fails exits 1"
gp validate validation/h200/calibration.csv --family stream --max-mape 0.01
expect_status 1
expect_err "exceeds --max-mape 0.01%"

case_ "json rows carry predictions"
gp validate validation/h200/calibration.csv --family wave --json
expect_status 0
expect_json .rows[0].family wave
expect_json_has .rows[0].predicted_us
expect_json .overall.rows 7

# ---------------------------------------------------------------- reports
H0='device,family,name,params,script,script_params,measured_us'
F=tests/data/validate
case_ "times table: device column, params never cut, kinds"
gp validate $F/times.csv
expect_status 0
expect_out "h200-sxm*2"
expect_out "with the default grid of one element per"
expect_out "consistency rows (restate a device-file input; not in the headline):"
expect_out "headline (independent rows): 3 rows, 3 predicted"
expect_out "overall: 5 rows, 5 predicted"
expect_out "scaled       1 rows"

case_ "times table: JSON has every field, per kind and the headline"
gp validate $F/times.csv --json
expect_status 0
expect_json .rows[0].params "2^24 floats in blocks of 256 threads with the default grid of one element per thread"
expect_json .rows[0].kind independent
expect_json .rows[2].kind scaled
expect_json .rows[2].divide_by 2
expect_json .rows[3].device "h200-sxm*2"
expect_json_has .rows[3].predicted_us
expect_json .kinds.consistency.rows 1
expect_json .headline.rows 3
expect_json .overall.rows 5

case_ "NAME*N is N GPUs, as for predict"
gp predict --device h200-sxm*2 scripts/saxpy.lua -p n=2^24 --json
p2=$(json .total_us)
gp validate $F/times.csv --json
expect_json .rows[3].predicted_us "$p2"

case_ "a bad kind is a file:line error"
printf '%s,kind\nh200-sxm,f,n,p,scripts/saxpy.lua,n=2^20,5,measured\n' "$H0" >"$TMP/badkind.csv"
gp validate "$TMP/badkind.csv"
expect_status 1
expect_err "badkind.csv:2: kind 'measured': write independent, scaled or consistency"

case_ "a bad NAME*N"
printf '%s\nh200-sxm*0,f,n,p,scripts/saxpy.lua,n=2^20,5\n' "$H0" >"$TMP/badn.csv"
gp validate "$TMP/badn.csv"
expect_status 1
expect_err "badn.csv:2: device 'h200-sxm*0': write NAME or NAME*N"

case_ "speedup table: predicted against measured speedup and ordering"
gp validate $F/speedups.csv --json
expect_status 0
expect_json .form speedups
expect_json .rows[0].measured_speedup 33.333333333333336
expect_json_has .rows[0].predicted_speedup
expect_json .rows[1].order_ok false
expect_json .headline.order_errors 1
gp validate $F/speedups.csv --check-order
expect_status 1
expect_err "1 speedups predicted on the wrong side of 1x (0 allowed, --max-order-errors)"

case_ "speedup table: a header without a column"
printf 'name,script,old_device,old_params,old_measured_us,new_device,new_params,source\n' >"$TMP/sp.csv"
gp validate "$TMP/sp.csv"
expect_status 1
expect_err "sp.csv:1: the header lacks column 'new_measured_us'"

case_ "the cross-generation table reads (rows or none yet)"
gp validate validation/cross-generation.csv
expect_status 0

case_ "several tables, --set labels, per-table gates"
gp validate $F/times.csv $F/speedups.csv --set calibration --set evaluation --json
expect_status 0
expect_json .tables[0].set calibration
expect_json .tables[1].set evaluation
expect_json .tables[1].form speedups
gp validate $F/times.csv validation/published/tesla.csv
expect_status 0
expect_out "== times: $F/times.csv"
expect_out "== tesla: validation/published/tesla.csv"
expect_out "== tables (headline: independent rows)"
gp validate $F/times.csv --max-mape 5
expect_status 1
expect_err "times ($F/times.csv): mean absolute error 5."
expect_err "exceeds --max-mape 5%"

case_ "within gates"
gp validate $F/times.csv --min-within 1.05:1
expect_status 1
expect_err "2 of 3 rows within 1.05x"
gp validate $F/times.csv --min-within 1.2:1 --min-within-2x 1
expect_status 0
gp validate $F/times.csv --min-within 1.5
expect_status 2
expect_err "write FACTOR:FRACTION"
gp validate $F/times.csv --min-within-2x 95
expect_status 2
expect_err "a fraction of rows, 0..1"

# Bad tables
mkdir -p "$TMP/t"
printf 'device,family,name\nh200-sxm,a,b\n' >"$TMP/t/nocol.csv"
case_ "missing columns"
gp validate "$TMP/t/nocol.csv"
expect_status 1
expect_err "nocol.csv:1: the header lacks column 'params'"

H='device,family,name,params,script,script_params,measured_us'
printf '%s\nh200-sxm,f,n,p,scripts/saxpy.lua,n=2^20,abc\n' "$H" >"$TMP/t/badnum.csv"
case_ "measured_us not a number"
gp validate "$TMP/t/badnum.csv"
expect_status 1
expect_err "badnum.csv:2: measured_us 'abc' is not a positive number"

printf '%s\nh200-sxm,f,n,p,nowhere.lua,,5\n' "$H" >"$TMP/t/noscript.csv"
case_ "script not found"
gp validate "$TMP/t/noscript.csv"
expect_status 1
expect_err "noscript.csv:2: script 'nowhere.lua' not found"

printf '%s\nh999,f,n,p,%s/scripts/saxpy.lua,,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/nodev.csv"
case_ "unknown device"
gp validate "$TMP/t/nodev.csv"
expect_status 1
expect_err "device 'h999' not found"

printf '%s\nh200-sxm,f,n,p,%s/scripts/saxpy.lua,n=2^20 bogus,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/badp.csv"
case_ "malformed script_params"
gp validate "$TMP/t/badp.csv"
expect_status 1
expect_err "write space-separated key=value pairs"

printf '%s\nh200-sxm,f,n\n' "$H" >"$TMP/t/short.csv"
case_ "row with too few fields"
gp validate "$TMP/t/short.csv"
expect_status 1
expect_err "short.csv:2: 3 fields where the header (line 1) names 7"

printf '%s\n# a comment\n\nh200-sxm,f,n,p,%s/scripts/saxpy.lua,n=2^20,5,extra\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/long.csv"
case_ "row with a field more than the header (after a comment and a blank line)"
gp validate "$TMP/t/long.csv"
expect_status 1
expect_err "long.csv:4: 8 fields where the header (line 1) names 7"

printf '%s\nh200-sxm,f,n,"p,%s/scripts/saxpy.lua,n=2^20,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/quote.csv"
case_ "a quoted field left open"
gp validate "$TMP/t/quote.csv"
expect_status 1
expect_err "quote.csv:2: not valid CSV"
expect_err "a quoted field is not closed"

printf '%s\nh200-sxm,f,n,p"q,%s/scripts/saxpy.lua,n=2^20,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/stray.csv"
case_ "a quote inside an unquoted field"
gp validate "$TMP/t/stray.csv"
expect_status 1
expect_err "stray.csv:2: not valid CSV"

printf '%s\nh200-sxm,f,n,p,%s/scripts/saxpy.lua,n=2^20 block=4096,5\n' "$H" "$GP_SOURCE_DIR" >"$TMP/t/cannot.csv"
case_ "a row that cannot run is reported, not fatal to the others"
gp validate "$TMP/t/cannot.csv"
expect_status 1
expect_err "cannot run on NVIDIA H200 SXM"
expect_out "failed"

: >"$TMP/t/empty.csv"
case_ "empty table"
gp validate "$TMP/t/empty.csv"
expect_status 1
expect_err "empty table"

# Leave one family out: each constant set from calibration rows is refitted
# without each family in turn. Families no constant was set from must give
# the ordinary report's numbers exactly; those a constant was set from are
# refitted by its rule on its other families' rows.
# (the shared set's rows: a constant whose only family is left out is refitted
# on every other family's rows, 23 predictions of each, which takes minutes on
# the whole table)
case_ "leave one family out: calibration table"
gp validate validation/h200/calibration.csv --source "shared H200" --json
cp "$TMP/out" "$TMP/plain.json"
gp validate --leave-one-family-out validation/h200/calibration.csv --source "shared H200" --json
expect_status 0
expect_json .report leave_one_family_out
expect_json .constants[0].name GP_BLOCK_RETIRE_SKEW
expect_between "$(json .constants[0].shipped)" 0.3 0.3
expect_json .constants[0].families "stream alu"
expect_json .constants[1].name GP_MLP_INFLIGHT_BYTES_PER_THREAD
expect_json .overall.rows "$("$JSONCHECK" "$TMP/plain.json" .headline.rows)"
expect_json .overall.mape_shipped_pct "$("$JSONCHECK" "$TMP/plain.json" .headline.mape_pct)"
i=0 kept=0 refit=0
while fam=$(json ".families[$i].family" 2>/dev/null); do
    shipped=$(json ".families[$i].mape_shipped_pct")
    expect_json ".families[$i].rows" "$("$JSONCHECK" "$TMP/plain.json" ".families.$fam.rows")"
    if [ "$shipped" != "$("$JSONCHECK" "$TMP/plain.json" ".families.$fam.mape_pct")" ]; then
        bad "family $fam: shipped MAPE $shipped differs from the ordinary report"
    fi
    case " stream alu " in
    *" $fam "*)
        refit=$((refit + 1))
        expect_json ".families[$i].refitted" true
        expect_json ".families[$i].constants.GP_BLOCK_RETIRE_SKEW.how" refit
        v=$(json ".families[$i].constants.GP_BLOCK_RETIRE_SKEW.value")
        expect_between "$v" 0 1 ;;
    *)
        kept=$((kept + 1))
        expect_json ".families[$i].refitted" false
        expect_json ".families[$i].mape_left_out_pct" "$shipped"
        expect_json ".families[$i].constants.GP_BLOCK_RETIRE_SKEW.how" shipped
        expect_between "$(json ".families[$i].constants.GP_BLOCK_RETIRE_SKEW.value")" 0.3 0.3 ;;
    esac
    i=$((i + 1))
done
[ "$refit" -eq 2 ] && [ "$kept" -ge 5 ] && ok || bad "families refitted $refit, kept $kept"

case_ "leave one family out: text and limits"
gp validate --leave-one-family-out validation/h200/calibration.csv --source "shared H200" --family access
expect_status 0
expect_out "access"
expect_out "shipped (none set from it)"
expect_out "identical by construction"
gp validate --leave-one-family-out validation/h200/calibration.csv --max-mape 5
expect_status 2
expect_err "run them without --leave-one-family-out"
gp validate --leave-one-family-out validation/cross-generation.csv
expect_status 1
expect_err "needs a times table"

case_ "usage"
gp validate
expect_status 2
gp validate --set a --set b x.csv
expect_status 2
expect_err "2 --set labels for 1 tables"
gp validate x.csv --max-mape lots
expect_status 2

finish
