#!/bin/sh
# Latency chains and memory-level parallelism from the command line: a chain
# of dependent loads is slower than the same loads independent; a pointer
# chase through 1 GiB waits the DRAM latency per hop; a loop of independent
# loads overlaps its iterations (a warp-per-row mat-vec), a chase does not;
# one thread is not slower than 32 doing the same loop (but where the 32
# share a cold buffer's first touches); a block's `blockDim.x` pass over its
# row keeps one copy, and its second pass waits as L1 hits; a shifted
# stream fetches the aligned stream's DRAM bytes; a loop that re-reads what
# its first trip brought is never faster than that trip alone.
. "$(dirname "$0")/lib.sh"

S="$TMP/s"
mkdir -p "$S"

# expect_ratio FIELD SCRIPT NUM DEN LO HI [BOTH]: FIELD of SCRIPT's prediction
# on the H200 (or the device RATIO_DEVICE names) with -p NUM, over the same
# with -p DEN, lies within [LO, HI]; BOTH, a further key=value, goes to both
# predictions
expect_ratio() {
    gp predict --device "${RATIO_DEVICE:-h200-sxm}" --json "$2" -p "$4" ${7:+-p "$7"}
    expect_status 0
    ratio_den=$(json "$1")
    gp predict --device "${RATIO_DEVICE:-h200-sxm}" --json "$2" -p "$3" ${7:+-p "$7"}
    expect_status 0
    expect_between "$(awk -v a="$(json "$1")" -v b="$ratio_den" 'BEGIN { print a / b }')" "$5" "$6"
}
cat >"$S/chase.lua" <<'LUA'
local bytes = gpuperf.param("bytes", 2^30)
local threads = gpuperf.param("threads", 32)
local dep = gpuperf.param("dep", 1)
local nxt = gpuperf.buffer("next", bytes)
local out = gpuperf.buffer("out", 4 * 32)
gpuperf.launch{ name = "chase", grid = 1, block = threads, regs = 32,
  work = { gpuperf.loop(10000, { gpuperf.load{nxt, depends = dep == 1, pattern = "random"} }),
           gpuperf.store{out} } }
LUA
cat >"$S/chain.lua" <<'LUA'
local dep = gpuperf.param("dep", 1)
local a = gpuperf.buffer("a", 2^30)
gpuperf.launch{ name = "chain", grid = 1, block = 32, regs = 32,
  work = { gpuperf.load{a, pattern = "random"},
           gpuperf.load{a, depends = dep == 1, pattern = "random"},
           gpuperf.load{a, depends = dep == 1, pattern = "random"},
           gpuperf.load{a, depends = dep == 1, pattern = "random"} } }
LUA

case_ "four dependent loads wait about four times as long as four independent ones"
gp predict --device h200-sxm --json "$S/chain.lua" -p dep=1
expect_status 0
dep=$(json .launches[0].latency_cycles)
gp predict --device h200-sxm --json "$S/chain.lua" -p dep=0
ind=$(json .launches[0].latency_cycles)
expect_between "$(awk -v a="$dep" -v b="$ind" 'BEGIN { print a / b }')" 3.5 4.5

case_ "a 1-thread chase through 1 GiB waits the DRAM latency (680 cycles) per hop"
gp predict --device h200-sxm --json "$S/chase.lua" -p threads=1
expect_status 0
expect_between "$(awk -v c="$(json .launches[0].latency_cycles)" 'BEGIN { print c / 10000 }')" 660 720

case_ "32 lanes chasing through 1 GiB wait for their slowest lane (measured 1165.6 cycles a hop)"
gp predict --device h200-sxm --json "$S/chase.lua"
expect_status 0
expect_between "$(awk -v c="$(json .launches[0].latency_cycles)" 'BEGIN { print c / 10000 }')" 1050 1230
chase=$(json .launches[0].time_us)

case_ "the same loads independent overlap across iterations"
gp predict --device h200-sxm --json "$S/chase.lua" -p dep=0
expect_between "$(awk -v a="$(json .launches[0].time_us)" -v b="$chase" 'BEGIN { print a / b }')" 0 0.2

case_ "one thread is never slower than 32 doing the same chase"
gp predict --device h200-sxm --json "$S/chase.lua" -p threads=1
expect_between "$(awk -v a="$(json .launches[0].time_us)" -v b="$chase" 'BEGIN { print a / b }')" 0 1

cat >"$S/matvec.lua" <<'LUA'
local rows, cols = gpuperf.param("rows", 1024), 8192
local regs = gpuperf.param("regs", 32)
local A = gpuperf.buffer("A", 4 * rows * cols)
local x = gpuperf.buffer("x", 4 * cols)
local y = gpuperf.buffer("y", 4 * rows)
gpuperf.launch{ name = "matvec", grid = rows * 32 / 256, block = 256, regs = regs,
  work = { gpuperf.loop{cols / 32, var = "k", body = {
             gpuperf.load{A, index = function(t) return math.floor(t.gx / 32) * cols + t.k * 32 + t.lane end},
             gpuperf.load{x, index = function(t) return t.k * 32 + t.lane end},
             gpuperf.fp32(1) }},
           gpuperf.store{y, index = function(t) return math.floor(t.gx / 32) end} } }
LUA

case_ "a warp-per-row mat-vec overlaps the loads of unrolled iterations"
gp predict --device h200-sxm --json "$S/matvec.lua"
expect_status 0
wide=$(json .launches[0].time_us)
gp predict --device h200-sxm --json "$S/matvec.lua" -p regs=14
expect_between "$(awk -v a="$wide" -v b="$(json .launches[0].time_us)" 'BEGIN { print a / b }')" 0 0.25

# A grid-stride sum, `for (i = gid; i < n; i += gridDim.x * blockDim.x)`:
# nvcc cannot count its trips and keeps one load a trip. Described as a user
# would (n / threads trips, not a whole number, no unroll), it predicts as
# the same loop pinned to one copy; a counted loop of a whole number of
# trips with the same addresses (a column walk) is unrolled and faster.
cat >"$S/gstride.lua" <<'LUA'
local n = gpuperf.param("n", 2^24)
local pin = gpuperf.param("pin", 0)
local whole = gpuperf.param("whole", 0)
local x = gpuperf.buffer("x", 4 * n)
local out = gpuperf.buffer("out", 4)
local T = gpuperf.device.sm_count * 2048
local trips = whole == 1 and math.floor(n / T) or n / T
gpuperf.launch{ name = "sum", grid = T / 256, block = 256, regs = 16,
  work = { gpuperf.loop{trips, var = "k", unroll = pin == 1 and 1 or nil, body = {
             gpuperf.load{x, index = function(t) return math.min(t.gx + t.k * T, n - 1) end},
             gpuperf.int(4) }},
           gpuperf.atomic{out, scope = "same", count = 1 / 256} } }
LUA

case_ "a grid-stride loop (trips not whole, stepping by the grid's threads) runs one copy"
gp predict --device h200-sxm --json "$S/gstride.lua"
expect_status 0
natural=$(json .launches[0].time_us)
gp predict --device h200-sxm --json "$S/gstride.lua" -p pin=1
pinned=$(json .launches[0].time_us)
expect_between "$(awk -v a="$natural" -v b="$pinned" 'BEGIN { print a / b }')" 0.999 1.001
gp predict --device h200-sxm --json "$S/gstride.lua" -p whole=1
expect_between "$(awk -v a="$(json .launches[0].time_us)" -v b="$pinned" 'BEGIN { print a / b }')" 0 0.9

# A chase whose next address is a gpuperf.random index re-drawn at every
# iteration of a loop without a counter: the lanes cover the buffer over
# the loop, not one line. A first launch writes the buffer (the L2 keeps
# what fits), as a benchmark's set-up does.
cat >"$S/ichase.lua" <<'LUA'
local bytes = gpuperf.param("bytes", 2^30)
local threads = gpuperf.param("threads", 32)
local warm = gpuperf.param("warm", 1)
local n = bytes / 4
local nxt = gpuperf.buffer("next", bytes)
local out = gpuperf.buffer("out", 4 * 32)
if warm == 1 then
  gpuperf.launch{ name = "fill", grid = math.ceil(n / 256), block = 256, regs = 16,
    work = { gpuperf.store{nxt} } }
end
gpuperf.launch{ name = "chase", grid = 1, block = threads, regs = 32,
  work = { gpuperf.loop(100000, { gpuperf.load{nxt, depends = true,
             index = function(t) return gpuperf.random(0, n - 1) end} }),
           gpuperf.store{out, index = function(t) return t.x end} } }
LUA

# The same chase written with the shorthand pattern = "random" (no index
# function, no lane sample): the same rule, per-thread first touches.
sed 's/index = function(t) return gpuperf.random(0, n - 1) end/pattern = "random"/' \
  "$S/ichase.lua" >"$S/pchase.lua"

for form in random-index:ichase pattern-random:pchase; do
  what=${form%%:*}
  script="$S/${form##*:}.lua"
  # one thread: the level's latency per step; 32 lanes each on its own line (4-byte
  # words at scattered offsets) wait for their lines and their slowest lane, as
  # the H200 measured with 8-byte nodes (validation/h200/measured/run7/chase,
  # one warp per SM, 32 lanes: 51.1 cycles per hop through 16 KiB, 345.9
  # through 4 MiB; 128-byte nodes 1165.6 through 1 GiB)
  for th in 1:30:36:265:295:620:720 32:44:58:330:365:1000:1230; do
    set -- $(echo "$th" | tr : ' ')
    th=$1
    case_ "$th-thread $what chase through 16 KiB: the L1 latency (32 cycles) per step, 51.1 for 32 lanes"
    gp predict --device h200-sxm --json "$script" -p bytes=16384 -p threads=$th
    expect_status 0
    expect_between "$(awk -v c="$(json .launches[1].latency_cycles)" 'BEGIN { print c / 100000 }')" $2 $3

    case_ "$th-thread $what chase through 4 MiB: the L2 latency (279.6 cycles) per step, 345.9 for 32 lanes"
    gp predict --device h200-sxm --json "$script" -p bytes=4194304 -p threads=$th
    expect_status 0
    expect_between "$(awk -v c="$(json .launches[1].latency_cycles)" 'BEGIN { print c / 100000 }')" $4 $5

    case_ "$th-thread $what chase through 1 GiB: the DRAM latency (667.8 cycles, random) per step, 1165.6 for 32 lanes"
    gp predict --device h200-sxm --json "$script" -p bytes=1073741824 -p threads=$th
    expect_status 0
    expect_between "$(awk -v c="$(json .launches[1].latency_cycles)" 'BEGIN { print c / 100000 }')" $6 $7
  done

  for b in 16384 4194304 67108864 1073741824; do
    for w in 0 1; do
      # except through a cold 4 MiB: there the 32 lanes find most lines
      # another lane brought, a lone thread its own (validation/h200/measured/
      # run10/cold: 4 MiB, a lap of 32768 steps, 1.49 times as long for 1
      # thread as for 32)
      lo=0 hi=1 rel="not slower than"
      if [ "$b" = 4194304 ] && [ "$w" = 0 ]; then lo=1 hi=1.6 rel="slower than"; fi
      case_ "a 1-thread $what chase through $b bytes (warm=$w) is $rel 32 threads"
      gp predict --device h200-sxm --json "$script" -p bytes=$b -p threads=32 -p warm=$w
      expect_status 0
      t32=$(json .launches[$w].time_us)
      gp predict --device h200-sxm --json "$script" -p bytes=$b -p threads=1 -p warm=$w
      expect_status 0
      expect_between "$(awk -v a="$(json .launches[$w].time_us)" -v b="$t32" 'BEGIN { print a / b }')" $lo $hi
    done
  done
done

# A warp's gathers then a reduction of five shuffles: as a loop or written
# out straight the same time, and never faster than the gathers alone (the
# block's last warp leaves after its slowest line whatever arithmetic
# follows; a loop of arithmetic once dropped that wait, 22% faster).
cat >"$S/reduce.lua" <<'LUA'
local form = gpuperf.param("form", "loop")
local rows = 2^20
local v = gpuperf.buffer("v", 4 * 16 * rows)
local c = gpuperf.buffer("c", 4 * 16 * rows)
local x = gpuperf.buffer("x", 4 * 2^20)
local y = gpuperf.buffer("y", 4 * rows)
local function row(t) return t.bx * 8 + t.warp end
local function e(t) if t.lane < 16 then return row(t) * 16 + t.lane end end
local work = { gpuperf.loop{1, var = "k", body = {
  gpuperf.load{v, space = "texture", index = e},
  gpuperf.load{c, space = "texture", index = e},
  gpuperf.load{x, space = "texture", depends = true, index = function(t)
    if t.lane < 16 then return gpuperf.random(0, 2^20 - 1) end end},
  gpuperf.fp32(1) }} }
if form == "loop" then
  work[#work + 1] = gpuperf.loop(5, { gpuperf.shfl(1), gpuperf.fp32(1) })
elseif form == "straight" then
  work[#work + 1] = gpuperf.shfl(5)
  work[#work + 1] = gpuperf.fp32(5)
end
work[#work + 1] = gpuperf.store{y, index = function(t) if t.lane == 0 then return row(t) end end}
gpuperf.launch{ name = "reduce", grid = rows / 8, block = 256, regs = 32, work = work }
LUA

case_ "a loop of shuffles after the loads costs what the same shuffles written out do, and more than none"
gp predict --device h200-sxm --json "$S/reduce.lua" -p form=loop
expect_status 0
tl=$(json .launches[0].time_us)
gp predict --device h200-sxm --json "$S/reduce.lua" -p form=straight
expect_status 0
ts=$(json .launches[0].time_us)
gp predict --device h200-sxm --json "$S/reduce.lua" -p form=none
expect_status 0
tn=$(json .launches[0].time_us)
expect_between "$(awk -v a="$tl" -v b="$ts" 'BEGIN { print a / b }')" 0.95 1.05
expect_between "$(awk -v a="$tl" -v b="$tn" 'BEGIN { print a / b }')" 1 1.5

# A shared atomic whose old value is used, in a loop unrolled 4 times: the
# copies issue their atomics together and wait once (run47/shist: 8 warps
# per SM, 28.5 cycles an atomic a warp, where a round trip each is 68), so
# the loop's chain is well under four round trips per four trips, and the
# loop pinned to one copy waits each one in turn.
cat >"$S/satom.lua" <<'LUA'
local unroll = gpuperf.param("unroll", 4)
gpuperf.launch{ name = "satom", grid = 132, block = 256, regs = 16, dynamic_smem = 4 * 256,
  work = { gpuperf.loop{512, var = "j", unroll = unroll, body = {
    gpuperf.int(2),
    gpuperf.atomic{space = "shared", update = "inc", result = true, from_data = true,
                   index = function(t) return (t.lane + t.j) % 256 end},
    gpuperf.int(1) }} } }
LUA

case_ "an unrolled loop's shared atomics with results wait together, not one round trip each"
expect_ratio .launches[0].latency_cycles "$S/satom.lua" unroll=4 unroll=1 0.2 0.6

cat >"$S/tilecopy.lua" <<'LUA'
-- a block of 256 copies 2 loads a thread of a 64-row band into shared memory
-- each step, then reads it between two barriers
local dep = gpuperf.param("dep", 0)
local n = 512
local A = gpuperf.buffer("A", 4 * n * n)
local function tid(t) return t.y * 16 + t.x end
local body = {
  gpuperf.load{A, space = "texture", depends = dep == 1, index = function(t)
    local i = tid(t) + 256 * t.a
    return (t.by * 64 + math.floor(i / 8)) * n + t.s * 8 + i % 8 end},
  gpuperf.int(3),
  gpuperf.shared_store{index = function(t) local i = tid(t) + 256 * t.a
    return (i % 8) * 64 + math.floor(i / 8) end},
}
local step = { gpuperf.loop{2, var = "a", unroll = 2, body = body}, gpuperf.barrier(),
  gpuperf.shared_load{index = function(t) return tid(t) % 64 end}, gpuperf.barrier() }
gpuperf.flush_l2()
gpuperf.launch{ name = "tilecopy", grid = {n / 64, n / 64}, block = {16, 16}, regs = 32,
  smem = 4096, work = { gpuperf.int(8), gpuperf.loop{n / 8, var = "s", body = step} } }
LUA

case_ "a copy whose loads each wait for the one before is never faster than the copy batched"
expect_ratio .launches[1].time_us "$S/tilecopy.lua" dep=1 dep=0 1 100
case_ "... nor moves fewer bytes from L2: each step reads new sectors of its lines"
expect_ratio .launches[1].l2_bytes "$S/tilecopy.lua" dep=1 dep=0 1 100

cat >"$S/rereads.lua" <<'LUA'
-- a 16-trip loop that reads the same elements every trip (no index
-- function), 4 or 8 FFMA a trip, then a store; extra = 1: 4 FFMA more
local extra = gpuperf.param("extra", 0)
local n = 1056 * 64
local A = gpuperf.buffer("A", 4 * n)
local O = gpuperf.buffer("O", 4 * n)
local body = { gpuperf.load{A} }
if extra == 1 then body[#body + 1] = gpuperf.fp32(4) end
body[#body + 1] = gpuperf.fp32(4)
gpuperf.launch{ name = "k", grid = 1056, block = 64, regs = 128, dynamic_smem = 16384,
  work = { gpuperf.loop{16, var = "j", body = body}, gpuperf.store{O} } }
LUA

case_ "a loop body with more arithmetic is never faster: the exit waits for the last trips' lines, which re-read the first's"
expect_ratio .launches[0].block_cycles "$S/rereads.lua" extra=1 extra=0 1 100

cat >"$S/rowpass.lua" <<'LUA'
-- a block of 256 per row of 4096 floats: with p = 2, sum the row (a loop
-- stepping by the block's threads) and a block sum first; then scale the
-- row and store it; u: the loops' `unroll` (0: left to the model)
local u = gpuperf.param("u", 0)
local p = gpuperf.param("p", 2)
local rows, cols = 4096, 4096
local x = gpuperf.buffer("x", 4 * rows * cols)
local y = gpuperf.buffer("y", 4 * rows * cols)
local function at(var) return function(t) return t.bx * cols + t.x + 256 * t[var] end end
local unroll = u > 0 and u or nil
local work = {}
if p == 2 then
  work = { gpuperf.loop{cols / 256, var = "a", unroll = unroll, body = {
             gpuperf.load{x, space = "texture", index = at("a")}, gpuperf.fp32(1) }},
           gpuperf.shfl(5), gpuperf.fp32(5), gpuperf.barrier(),
           gpuperf.shared_store{index = function(t) if t.lane == 0 then return t.warp end end},
           gpuperf.barrier(),
           gpuperf.shared_load{index = function(t) if t.lane < 8 then return t.lane end end} }
end
work[#work + 1] = gpuperf.loop{cols / 256, var = "b", unroll = unroll, body = {
  gpuperf.load{x, space = "texture", index = at("b")}, gpuperf.fp32(2),
  gpuperf.store{y, index = at("b")} }}
gpuperf.flush_l2()
gpuperf.launch{ name = "rows", grid = rows, block = 256, regs = 19, smem = 32, work = work }
LUA

case_ "a loop stepping by the block's threads through its own row keeps one copy (c += blockDim.x)"
expect_ratio .launches[1].time_us "$S/rowpass.lua" u=0 u=1 0.999 1.001
case_ "... and is slower than the same loop unrolled 4 times (a constant stride)"
expect_ratio .launches[1].time_us "$S/rowpass.lua" u=1 u=4 1.05 100
case_ "a second pass over the row that the warp's done loads brought waits as L1 hits, not as a pass from DRAM"
expect_ratio .launches[1].time_us "$S/rowpass.lua" p=2 p=1 1 1.25 u=1

cat >"$S/shifted.lua" <<'LUA'
-- out[i] = in[i + off] over 64 MiB
local off = gpuperf.param("off", 0)
local n = 2^24
local src = gpuperf.buffer("in", 4 * (n + 64))
local dst = gpuperf.buffer("out", 4 * n)
gpuperf.launch{ name = "copy", grid = n / 256, block = 256, regs = 10,
  work = { gpuperf.load{src, offset = off, footprint = 4 * n}, gpuperf.store{dst} } }
LUA

case_ "a stream shifted off the granules fetches from DRAM what the aligned one does"
for o in 1 8 24; do
    expect_ratio .launches[0].dram_bytes "$S/shifted.lua" off=$o off=0 0.999 1.001
done

cat >"$S/narrow.lua" <<'LUA'
-- y[i] = x[i] for `bytes`-wide elements over 16 Mi threads, or the same
-- with a warp-uniform load of x first (`first = 1`)
local bytes = gpuperf.param("bytes", 4)
local first = gpuperf.param("first", 0)
local n = 2^24
local x = gpuperf.buffer("x", bytes * n)
local y = gpuperf.buffer("y", bytes * n)
local work = {}
if first == 1 then work[1] = gpuperf.load{x, bytes = bytes, pattern = "broadcast"} end
work[#work + 1] = gpuperf.load{x, bytes = bytes}
work[#work + 1] = gpuperf.store{y, bytes = bytes}
gpuperf.launch{ name = "copy", grid = n / 256, block = 256, regs = 10, work = work }
LUA

case_ "a stream of bytes moves its footprint from DRAM once, not a 64-byte granule a warp"
expect_ratio .launches[0].dram_bytes "$S/narrow.lua" bytes=1 bytes=4 0.249 0.251
case_ "a warp-uniform load of the buffer first brings a sector a request, not the buffer"
expect_ratio .launches[0].dram_bytes "$S/narrow.lua" first=1 first=0 1 1.2 bytes=4
expect_ratio .launches[0].time_us "$S/narrow.lua" first=1 first=0 1 1.5 bytes=4

cat >"$S/reread.lua" <<'LUA'
-- every thread loads its element of x (`kb` KiB read by the grid, in
-- consecutive elements, or every warp one element where kb < 0) and adds
-- it, `trips` times over: the trips after the first re-read what the first
-- brought
local pattern = "unit"
local trips = gpuperf.param("trips", 1)
local kb = gpuperf.param("kb", 64)
if kb < 0 then pattern, kb = "broadcast", -kb end
local x = gpuperf.buffer("x", 4 * 132 * 256)
local y = gpuperf.buffer("y", 4 * 132 * 256)
gpuperf.launch{ name = "reread", grid = 132, block = 256, regs = 32,
  work = { gpuperf.loop{trips, body = { gpuperf.load{x, pattern = pattern, footprint = kb * 1024},
                                         gpuperf.fp32(1) }},
           gpuperf.store{y} } }
LUA

case_ "a loop that re-reads its first trip's data waits for that trip's misses in full"
for RATIO_DEVICE in h200-sxm a100-sxm4-40gb geforce-gtx-580; do
    for kb in 64 132 -64 -132; do
        expect_ratio .launches[0].time_us "$S/reread.lua" trips=2 trips=1 1 100 "kb=$kb"
        expect_ratio .launches[0].time_us "$S/reread.lua" trips=8 trips=2 1 100 "kb=$kb"
    done
done
RATIO_DEVICE=h200-sxm

cat >"$S/barrier.lua" <<'LUA'
-- every thread loads its element, adds to it and stores it; `bar` puts a
-- barrier before the store (1), before the add (2) or nowhere (0). `v`:
-- the kernel's global_cache and the threads of a block, as "cg:256"
local bar = gpuperf.param("bar", 0)
local v = gpuperf.param("v", "default:64")
local gc, block = v:match("^(%a+):(%d+)$")
block = tonumber(block)
local x = gpuperf.buffer("x", 4 * 1056 * block)
local y = gpuperf.buffer("y", 4 * 1056 * block)
local w = { gpuperf.load{x} }
if bar == 2 then w[#w + 1] = gpuperf.barrier() end
w[#w + 1] = gpuperf.fp32(2)
if bar == 1 then w[#w + 1] = gpuperf.barrier() end
w[#w + 1] = gpuperf.store{y}
gpuperf.launch{ name = "copy", grid = 1056, block = block, regs = 32, smem = 16384,
                global_cache = gc, work = w }
LUA

case_ "a barrier never makes a block faster: it waits for the slowest line of the loads its phase used"
for RATIO_DEVICE in h200-sxm a100-sxm4-40gb geforce-gtx-580; do
    for gc in default cg; do
        for block in 64 256; do
            expect_ratio .launches[0].block_cycles "$S/barrier.lua" bar=1 bar=0 1 100 "v=$gc:$block"
            expect_ratio .launches[0].block_cycles "$S/barrier.lua" bar=2 bar=0 1 100 "v=$gc:$block"
        done
    done
done
RATIO_DEVICE=h200-sxm

finish
