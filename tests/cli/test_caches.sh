#!/bin/sh
# The cache model from outside: re-use by distance, the L2 across launches,
# partitions and thrash (docs/model.md, "Caches"). Script: tests/data/scripts/caches.lua.
. "$(dirname "$0")/lib.sh"
S=tests/data/scripts/caches.lua
t() { gp predict --device h200-sxm $S --csv "$@"; awk -F, -v n="$NAME" '$3 == n { print $17 }' "$TMP/out"; }

case_ "a thread-per-row walk moves about the matrix below L1, not 8x"
gp predict --device h200-sxm $S -p case=rowwalk --json
expect_status 0
expect_between "$(json .launches[0].dram_bytes)" 33554432 37000000

case_ "a warp of two 16-thread rows: two 64-byte runs, DRAM bytes = the matrix"
gp predict --device h200-sxm $S -p case=rows2 --json
expect_status 0
expect_between "$(json .launches[0].l2_bytes)" 67108864 67108864
expect_between "$(json .launches[0].dram_bytes)" 67108864 70000000

case_ "chases: L1-, L2- and DRAM-sized working sets, per hop"
NAME=chase
l1=$(t -p case=chase -p bytes=16384 -p hops=2^17 -p threads=1)
dr=$(t -p case=chase -p bytes=2^30 -p hops=2^17 -p threads=1)
# cycles per hop at 1980 MHz
expect_between "$(echo "$l1" | awk '{ print $1 * 1980 / 2^17 }')" 30 40
expect_between "$(echo "$dr" | awk '{ print $1 * 1980 / 2^17 }')" 600 720
# 32 lanes on their own lines wait for their lines and their slowest lane: the
# H200's 8-byte-node chases measured 51.1 cycles per hop through 16 KiB (L1)
# and 128-byte nodes 1165.6 through 1 GiB (validation/h200/measured/run7/chase)
l1=$(t -p case=chase -p bytes=16384 -p hops=2^17)
dr=$(t -p case=chase -p bytes=2^30 -p hops=2^17)
expect_between "$(echo "$l1" | awk '{ print $1 * 1980 / 2^17 }')" 44 58
expect_between "$(echo "$dr" | awk '{ print $1 * 1980 / 2^17 }')" 1000 1230

case_ "a 1-thread block is not slower than 32 threads running the same loop in L1 or DRAM"
# 2^17 hops: a lone thread must bring every line of 16 KiB in itself, 32 lanes
# share them; over 4096 hops those first touches weigh more than the lanes' wait
for b in 16384 2^30; do
    one=$(t -p case=chase -p bytes=$b -p threads=1 -p hops=2^17)
    all=$(t -p case=chase -p bytes=$b -p threads=32 -p hops=2^17)
    expect_between "$one" 0 "$all"
done

case_ "through a cold 4 MiB 32 lanes find most lines another lane brought: one thread is slower"
# a warp's step waits on DRAM only while one of its lanes finds a new 64-byte
# granule; a lone thread's draws find their own (the H200's cold rows, one
# block through 4 MiB of 128-byte nodes, a lap of 32768 steps: 11156.2 us for
# 1 thread, 7482.6 us for 32; validation/h200/measured/run10/cold)
one=$(t -p case=chase -p bytes=4194304 -p threads=1 -p hops=2^17)
all=$(t -p case=chase -p bytes=4194304 -p threads=32 -p hops=2^17)
expect_between "$(awk -v a="$one" -v b="$all" 'BEGIN { print a / b }')" 1 1.6

case_ "a cold chase round a cycle: a lone lane's first lap finds nothing cached"
# a linked cycle visits no node twice in a lap: one lane through 256 KiB of
# 128-byte nodes in 2048 hops waits on DRAM every hop (the H200: 683 cycles a
# hop, validation/h200/measured/run32/coldlanes); drawn afresh (walk = "draws")
# a third of those hops would re-visit a node
NAME=coldwalk
cy=$(t -p case=coldwalk -p bytes=262144 -p hops=2048)
dr=$(t -p case=coldwalk -p bytes=262144 -p hops=2048 -p walk=draws)
expect_between "$(echo "$cy" | awk '{ print ($1 - 2.58) * 1980 / 2048 }')" 640 720
expect_between "$(awk -v a="$dr" -v b="$cy" 'BEGIN { print a / b }')" 0.5 0.85
# 32 lanes round one cycle of 4 MiB, 8192 hops: a step waits on DRAM until
# every lane reaches a place another started from (2776.9 us measured)
cy=$(t -p case=coldwalk -p bytes=4194304 -p hops=8192 -p lanes=32)
expect_between "$cy" 2500 3050

case_ "a chase drawn afresh past the L1 keeps C / F of its re-visits there, a cycle none"
# 2^17 hops through 512 KiB of 128-byte nodes, twice the L1: a cycle comes back
# to a line after every other one, past the L1's edge, and finds none (about an
# L2 hit a hop); draws re-visit at random, and the share of the L1 that holds
# their working set (l1_chase_full_fraction 0.836 of 256 KiB) keeps 0.42 of
# them (the H200's draws through 256 KiB: about two thirds of their re-visits
# from L1, where the cycle's edge gives 41%; validation/h200/measured/run10/cold)
NAME=coldwalk
cy=$(t -p case=coldwalk -p bytes=524288 -p hops=2^17)
dr=$(t -p case=coldwalk -p bytes=524288 -p hops=2^17 -p walk=draws)
expect_between "$(echo "$cy" | awk '{ print ($1 - 2.58) * 1980 / 2^17 }')" 260 320
expect_between "$(echo "$dr" | awk '{ print ($1 - 2.58) * 1980 / 2^17 }')" 160 220
expect_between "$(awk -v a="$dr" -v b="$cy" 'BEGIN { print a / b }')" 0.55 0.8

case_ "re-reading 64 MiB on the 60 MiB L2 gets few hits; 16 MiB hits (loads past L1)"
gp predict --device h200-sxm $S -p case=reread -p bytes=2^26 -p cache=cg --json
expect_between "$(json .launches[0].l2_hit_rate)" 0 0.1
gp predict --device h200-sxm $S -p case=reread -p bytes=2^24 -p cache=cg --json
expect_between "$(json .launches[0].l2_hit_rate)" 0.45 1
expect_between "$(json .launches[0].l2_bytes)" 33554432 33554432

case_ "the L1 of a launch without a carve-out preference keeps each SM's share of a second pass"
# 16 MiB read twice by the grid: each SM re-reads its 127 KiB, which the
# 248 KiB of L1 keep (the 8 KiB step holds 8 blocks' 1 KiB reservations), so
# the L2 sees the first reads alone; 64 MiB (508 KiB an SM) thrashes the L1
# and then the L2
gp predict --device h200-sxm $S -p case=reread -p bytes=2^24 --json
expect_between "$(json .launches[0].l2_bytes)" 16777216 16777216
gp predict --device h200-sxm $S -p case=reread -p bytes=2^26 --json
expect_between "$(json .launches[0].l2_bytes)" 134217728 134217728
expect_between "$(json .launches[0].dram_bytes)" 134217728 134217728

case_ "a chase with no carve-out preference has the L1 of the smallest carve-out, not the largest's"
# The H200 chased a random cycle of 128-byte lines through 256 KiB with one
# thread and no preference at 167.8 cycles a hop (gpuperf-calibrate, run3
# calibrate_raw.csv, random_128B), as with the smallest carve-out (178.7,
# run7 chase, lanes=1 warps=1); the largest carve-out's 28 KiB of L1 would
# leave every hop to the L2 (280 cycles)
cat >"$TMP/lines.lua" <<'LUA'
local carve = gpuperf.param("carveout", -1)
local words = 2^18 / 8
local nxt = gpuperf.buffer("next", 2^18)
gpuperf.launch{ name = "fill", grid = words / 256, block = 256, regs = 16,
  work = { gpuperf.store{nxt, bytes = 8} } }
gpuperf.launch{ name = "chase", grid = 1, block = 1, regs = 32,
  carveout = carve >= 0 and carve or nil,
  work = { gpuperf.loop(2048 + 8192, { gpuperf.load{nxt, bytes = 8, depends = true,
             index = function(t) local r = gpuperf.random(0, words - 1); return r - r % 16 end} }) } }
LUA
gp predict --device h200-sxm "$TMP/lines.lua" --json
expect_status 0
none=$(json .launches[1].latency_cycles)
expect_between "$(awk -v c="$none" 'BEGIN { print c / 10240 }')" 150 240
gp predict --device h200-sxm "$TMP/lines.lua" -p carveout=0 --json
expect_between "$(json .launches[1].latency_cycles)" "$none" "$none"
gp predict --device h200-sxm "$TMP/lines.lua" -p carveout=100 --json
expect_between "$(awk -v c="$(json .launches[1].latency_cycles)" 'BEGIN { print c / 10240 }')" 270 290

case_ "a second launch re-reading a buffer that fits the L2 is faster, not after flush_l2"
# (bytes 16 MiB: the script's default)
NAME=read1; r1=$(t -p case=twice)
NAME=read2; r2=$(t -p case=twice)
expect_between "$r2" 0 "$(echo "$r1" | awk '{ print $1 * 0.8 }')"
# after the benchmark's flush: cold again, and the first launch to touch memory waits
# flush_first_touch_us (0.94 on the H200); after a write of the scratch it also writes
# back the flushed lines its reads push out (0.564 of the 16 MiB it brings in, at
# dram_sustained_gbps 4218: 2.24 us)
NAME=read2; f2=$(t -p case=twice -p flush=2)
expect_between "$f2" "$(echo "$r1" | awk '{ print $1 + 0.94 - 1e-3 }')" "$(echo "$r1" | awk '{ print $1 + 0.94 + 1e-3 }')"
NAME=read2; d2=$(t -p case=twice -p flush=1)
expect_between "$d2" "$(echo "$f2" | awk '{ print $1 + 2.24 - 0.01 }')" "$(echo "$f2" | awk '{ print $1 + 2.24 + 0.01 }')"

case_ "two streams whose buffers together overflow the L2 thrash"
NAME=pass1
fit=$(t -p case=pair -p bytes=2^24)
over=$(t -p case=pair -p bytes=2^25)
# twice the bytes, more than twice the time: the re-reads miss
expect_between "$over" "$(echo "$fit" | awk '{ print $1 * 2.5 }')" 1e9

case_ "neighbours' re-reads: a 5-point stencil and 7x7 convolutions of a 256 MiB image move it about once"
# image in + image out = 2 x 256 MiB; the taps a few rows apart hit in L2
R=tests/data/scripts/reuse.lua
for c in stencil5 conv7 conv7loop rows cols; do
    gp predict --device h200-sxm $R -p case=$c --json
    expect_status 0
    expect_between "$(json .launches[0].dram_bytes)" 536870912 600000000
done

case_ "a stencil whose image fits the L2 moves it once; L1 keeps each block's own re-reads"
gp predict --device h200-sxm $R -p case=stencil5 -p n=2048 --json
expect_between "$(json .launches[0].dram_bytes)" 33554432 36000000
# 5 taps of a 16 MiB image read 80 MiB; a block of a row re-reads its own
# row's taps in L1, the rows above and below reach L2: 3 rows' worth
expect_between "$(json .launches[0].l2_bytes)" 16777216 55000000
expect_between "$(json .launches[0].l2_hit_rate)" 0.25 1

case_ "a 7x7 convolution's blocks re-read their own windows in L1: L2 sees a few images, not 49"
gp predict --device h200-sxm $R -p case=conv7 --json
expect_status 0
# 49 taps of a 256 MiB image are 12.5 GiB of requests; about 15 GB reached
# L2 when only the footprint's distance judged the L1
expect_between "$(json .launches[0].l2_bytes)" 268435456 2000000000

case_ "a thread re-reading its own pixel (two passes) is no neighbour's re-read: still judged by the footprint"
gp predict --device h200-sxm $R -p case=reread --json
expect_between "$(json .launches[0].l2_hit_rate)" 0 0.05

case_ "four scalar stores per thread (out[4t + i]) write the array once to DRAM, not 4x"
# scripts/validation/sectors.lua: 256 MiB in, 256 MiB out, launch 0 is the L2 flush
V=scripts/validation/sectors.lua
gp predict --device h200-sxm $V -p case=store_scalar -p K=4 --json
expect_status 0
expect_between "$(json .launches[1].dram_bytes)" 268435456 270000000
gp predict --device h200-sxm $V -p case=copy_scalar -p K=4 --json
expect_between "$(awk -v a="$(json .launches[1].dram_bytes)" -v b="$(json .launches[1].writeback_bytes)" 'BEGIN { print a - b }')" 536870912 540000000
gp predict --device h200-sxm $V -p case=store_scalar -p K=8 --json
expect_between "$(json .launches[1].dram_bytes)" 268435456 270000000

case_ "the store path: 4 stores within 4 lines merge (as fast as one float4); 8 over 8 lines do not"
NAME=store_scalar
sv() { gp predict --device h200-sxm $V --csv "$@"; awk -F, -v n="$NAME" '$3 == n { print $17 }' "$TMP/out"; }
k4=$(sv -p case=store_scalar -p K=4)
NAME=store_vector; v4=$(sv -p case=store_vector -p K=4)
NAME=store_scalar; k8=$(sv -p case=store_scalar -p K=8)
expect_between "$k4" "$v4" "$(echo "$v4" | awk '{ print $1 * 1.15 }')"
# 8 instructions x (32 sectors + 8 lines) against 4 x 16 sectors merged into 16: about 8x
expect_between "$k8" "$(echo "$k4" | awk '{ print $1 * 6 }')" "$(echo "$k4" | awk '{ print $1 * 10 }')"

U=scripts/validation/reuse.lua
case_ "a thread's own words re-read by an outer loop: within the L1 they hit, beyond it they thrash gradually"
# 8 blocks of 256 threads re-reading 32 words each: 256 KiB per SM, past the
# 124 KiB L1 of a 132 KiB carve-out, within the 248 KiB of an 8 KiB one; the
# array (135 MiB) comes from DRAM once either way (bench_reuse own_d32;
# launch 0 is the L2 flush before it)
gp predict --device h200-sxm $U -p kind=own -p d=32 -p blocks=8 -p carveout=8 -p pct=3 --json
expect_status 0
fits=$(json .launches[1].time_us)
expect_between "$(awk -v a="$(json .launches[1].dram_bytes)" -v b="$(json .launches[1].writeback_bytes)" 'BEGIN { print a - b }')" 138412032 145000000
expect_between "$(json .launches[1].l2_bytes)" 0 600000000
gp predict --device h200-sxm $U -p kind=own -p d=32 -p blocks=8 -p carveout=132 -p pct=57 --json
over=$(json .launches[1].time_us)
expect_between "$(awk -v a="$(json .launches[1].dram_bytes)" -v b="$(json .launches[1].writeback_bytes)" 'BEGIN { print a - b }')" 138412032 145000000
expect_between "$(json .launches[1].l2_bytes)" 1500000000 3000000000
# (measured 442.2 against 280.4 us, 1.58x; the model gives 1.18x since the
# L2's sharp knee, GP_KNEE_P_L2, where the broad one gave 1.39x)
expect_between "$over" "$(echo "$fits" | awk '{ print $1 * 1.15 }')" "$(echo "$fits" | awk '{ print $1 * 2.5 }')"

case_ "the plain C = A * B walk: the block's warps share each row of B in L1, the matrices come from DRAM once"
gp predict --device h200-sxm $U -p kind=tile -p n=1024 --json
expect_status 0
expect_between "$(awk -v a="$(json .launches[1].dram_bytes)" -v b="$(json .launches[1].writeback_bytes)" 'BEGIN { print a - b }')" 8388608 13000000
expect_between "$(json .launches[1].l2_bytes)" 0 1000000000

case_ "a gather folded into 16 KiB of a 16 MiB buffer stays in L1"
gp predict --device h200-sxm scripts/validation/chase.lua -p kind=gather -p m=4 -p ws=16384 --json
expect_status 0
expect_between "$(json .launches[0].l2_bytes)" 0 20000000

case_ "a warp-uniform walk folded into 16 KiB with a stride of a line hits L1 after its first lap"
# x[(j * 32) & 4095]: 128 floats on 128 lines, 4224 trips: all but the
# first lap's 128 come from L1; one L2 round trip a trip would be 4x slower
L=scripts/validation/loopchain.lua
gp predict --device h200-sxm $L -p vec=1 -p ldm=nc -p body=k0 -p fp=l1 -p stride=32 -p reps=1 --json
expect_status 0
near=$(json .launches[0].time_us)
expect_between "$(json .launches[0].l2_bytes)" 0 1000000
gp predict --device h200-sxm $L -p vec=1 -p ldm=nc -p body=k0 -p fp=first -p stride=32 -p reps=1 --json
expect_between "$(json .launches[0].time_us)" "$(echo "$near" | awk '{ print $1 * 3 }')" 1e9

case_ "gathers over 16 MiB the L2 holds: DRAM reads the buffer's granules once, whatever the draws"
# bench_gfoot: 8 warps per SM, 4 gathers a trip for 64 trips, 32 or 8 lanes
# each drawing a word of 16 MiB: 4.3M and 1.1M draws over 262,144 64-byte
# granules. ncu reads 16.8 MB from DRAM (run29, run33 ncu_gfoot.csv); counted
# by the draws' elements the model read 329 and 170 MB
G=scripts/validation/gfoot.lua
for a in 32 8; do
    gp predict --device h200-sxm $G -p fp=16384 -p w=8 -p L=4 -p trips=64 -p regs=20 -p active=$a --json
    expect_status 0
    expect_between "$(awk -v a="$(json .launches[1].dram_bytes)" -v b="$(json .launches[1].writeback_bytes)" 'BEGIN { print a - b }')" 16777216 23500000
done

case_ "gathers behind the ordered read of their own buffer find little of it in L1 or L2"
# bench_sweepg (run37): every thread reads x[g], then one random word of x a
# lane, 16 MiB: 37.2 us, against 38.8 when the ordered read is of another
# buffer. The ordered reads move through x with the blocks; counted as done
# before the gathers (and in the SMs' L1s together) they made the gathers
# twice as fast as after the other buffer's read
S=scripts/validation/sweepg.lua
gp predict --device h200-sxm $S -p n=2^22 -p k=1 -p a=32 -p sweep=1 -p regs=20 --json
expect_status 0
own=$(json .launches[1].time_us)
gp predict --device h200-sxm $S -p n=2^22 -p k=1 -p a=32 -p sweep=0 -p regs=15 --json
expect_status 0
other=$(json .launches[1].time_us)
expect_between "$(awk -v a="$own" -v b="$other" 'BEGIN { print a / b }')" 0.85 1.02

case_ "a block ends with its slowest warp's last gather"
# bench_sweepg (run37): one lane of each warp reads one random word of 16 MiB
# after a read of its own: 25.6 us for 16384 blocks (20.1 with one warp's
# chain a block, the slowest of the block's 8 lines left out)
gp predict --device h200-sxm $S -p n=2^22 -p k=1 -p a=1 -p sweep=0 -p regs=14 --json
expect_status 0
expect_between "$(json .total_us)" 21.5 29.5

case_ "blocks of one wave that read a cold line together each wait for its fill"
# bench_naive (run21): the naive SGEMM at n = 256, `#pragma unroll 1`, one
# wave of 256 blocks whose column reads one line of B a step together:
# 87.97 us, 653 cycles a step. The other blocks' reads counted as L2 hits for
# the latency gave 47.2 us (now 104.9: a little over, the lockstep of the
# wave's blocks is not perfect); the grid of n = 4096 (62 waves, B in L2 after
# the first) keeps its time
N=scripts/validation/naive.lua
gp predict --device h200-sxm $N -p n=256 -p bx=32 -p unroll=1 -p regs=16 --json
expect_status 0
expect_between "$(json .total_us)" 60 110
gp predict --device h200-sxm $N -p n=4096 -p bx=32 -p unroll=1 -p regs=16 --json
expect_status 0
expect_between "$(json .total_us)" 100000 110000

case_ "random one-sector gathers from 256 MiB: the L2 holds a quarter of the lines they land on"
# 2^21 lines of which the 60 MiB L2 holds 491520: about 23% of the 69.2M
# reads hit, not the 94% of the re-reads that counting a sector a line
# (67 MB) gave (1.6 GB from DRAM); each miss costs sparse_read_bytes_256b_apart
# and the translation's share over 256 MiB (tlb_dram_line_bytes x (1 - reach /
# 256 MiB): 5.25 bytes on the H200), about 5.2 GB
S=scripts/validation/scatter.lua
# (the script's first entry is the memset flush its bench makes, the second
# the gathers)
gp predict --device h200-sxm $S -p ws=dram -p w=64 -p a=32 -p c=1 -p L=1 -p trips=256 --json
expect_status 0
expect_between "$(json .launches[1].dram_bytes)" 3700000000 5300000000
one=$(json .launches[1].time_us)
# the four sectors of one drawn line per four lanes cost what reads 32
# bytes apart cost (sparse_read_bytes_32b_apart), not four random reads
gp predict --device h200-sxm $S -p ws=dram -p w=64 -p a=32 -p c=4 -p spread=1 -p L=1 -p trips=256 --json
expect_status 0
expect_between "$(json .launches[1].time_us)" 0 "$(echo "$one" | awk '{ print $1 * 0.6 }')"

case_ "a kernel streaming 48 MiB once leaves little of it for the next; 16 MiB stays; a buffer re-read in the kernel stays"
W=scripts/validation/wback.lua
gp predict --device h200-sxm $W -p mode=rd_rd -p mib=16 --json
expect_status 0
expect_between "$(json .launches[2].l2_warm_bytes)" 16000000 16777216
gp predict --device h200-sxm $W -p mode=rd_rd -p mib=48 --json
# l2_carry_*_bytes: (51.5 - 48) / 36 of 48 MiB, about 4.7 MiB
expect_between "$(json .launches[2].l2_warm_bytes)" 4000000 6000000
# 4 taps a thread over a 16 MiB buffer (35 MB read: re-read in the kernel) and
# 8.6 MB of output
gp predict --device h200-sxm scripts/validation/mlp.lua -p ws=l2 -p n=4 -p reps=2 --json
expect_status 0
expect_between "$(json .launches[1].l2_warm_bytes)" 16777216 30000000

finish
