-- bfs.lua: one BFS level expansion of the H200 evaluation set
-- (validation/h200/bench/eval_sparse.cuh): n vertices with d random out-neighbours each
-- (col[v * d + j], random), a frontier of the vertices with hash(v) % frac == 0 (about
-- n / frac, listed in increasing order in front[]), level[v] = 0 there and -1 elsewhere.
--   queue_thread: k_bfs_thread, a thread per frontier vertex;
--   queue_warp:   k_bfs_warp, a warp per frontier vertex (lane j takes neighbour j);
--   scan:         k_bfs_scan, a thread per vertex, frontier vertices expand.
-- A neighbour u with level[u] == -1 is claimed (atomicCAS(&level[u], -1, 1)) and
-- appended to next[] at atomicAdd(count, 1) (queue kernels), or marked level[u] = 1 (scan).
-- front and col are const __restrict__ (ld.global.nc: space "texture"); level is not.
local n     = gpuperf.param("n", 2^20, "vertices")
local d     = gpuperf.param("d", 16, "out-degree")
local frac  = gpuperf.param("frac", 64, "1 / the frontier's share of the vertices")
local fsize = gpuperf.param("fsize", 0, "frontier size (0: n / frac)")
local kind  = gpuperf.param("kind", "queue_thread", "queue_thread | queue_warp | scan")
if fsize == 0 then fsize = math.floor(n / frac) end
local col   = gpuperf.buffer("col", 4 * n * d)
local level = gpuperf.buffer("level", 4 * n)
local front = gpuperf.buffer("front", 4 * n)
local nxt   = gpuperf.buffer("next", 4 * n)
local count = gpuperf.buffer("count", 4)
local tex = "texture"

-- The share of the edges whose target is still unvisited when it is read: the level
-- discovers (n - fsize) (1 - exp(-fsize d / n)) new vertices out of fsize * d edges
-- (targets uniform at random), and a target is read as -1 about that often.
local discovered = (n - fsize) * (1 - math.exp(-fsize * d / n))
local p_new = discovered / (fsize * d)
local function chance(p) return gpuperf.random(0, 999999) < p * 1e6 end
-- front[i] is the i-th frontier vertex: about i * n / fsize
local function vertex(i) return math.min(math.floor(i * n / fsize), n - 1) end

-- the work on neighbour slot j of vertex v (index functions get (t) and return v, j)
local function expand(vj, queue)
  local function u(t) local vv, j = vj(t); if vv then return gpuperf.random(0, n - 1) end end
  local function claim(t) local vv = vj(t); if vv and chance(p_new) then return gpuperf.random(0, n - 1) end end
  local w = {
    gpuperf.int(2),                                     -- v * d + j, its 64-bit address
    gpuperf.load{col, space = tex, index = function(t)
      local vv, j = vj(t); if vv then return vv * d + j end end},
    gpuperf.int(1),                                     -- the address of level[u]
    gpuperf.load{level, depends = true, index = u},     -- level[u] == -1 ?
    gpuperf.int(1), gpuperf.branch(1),
  }
  if queue then
    w[#w + 1] = gpuperf.atomic{level, index = claim}    -- atomicCAS(&level[u], -1, 1)
    w[#w + 1] = gpuperf.branch(1)
    w[#w + 1] = gpuperf.atomic{count, index = function(t)   -- atomicAdd(count, 1)
      if vj(t) and chance(p_new) then return 0 end end}
    w[#w + 1] = gpuperf.store{nxt, index = function(t)      -- next[pos] = u
      if vj(t) and chance(p_new) then return gpuperf.random(0, math.ceil(discovered) - 1) end end}
  else
    w[#w + 1] = gpuperf.store{level, index = claim}     -- level[u] = 1
  end
  return w
end

if kind == "queue_thread" then
  local function vj(t) if t.gx < fsize then return vertex(t.gx), t.j end end
  gpuperf.launch{
    name = "bfs_thread", grid = math.ceil(fsize / 256), block = 256, regs = 26,
    work = {
      gpuperf.int(2),                                   -- i, i < fsize
      gpuperf.load{front, space = tex, index = function(t) if t.gx < fsize then return t.gx end end},
      gpuperf.loop{d, var = "j", body = expand(vj, true)},
    },
  }
elseif kind == "queue_warp" then
  local function wi(t) return t.bx * 8 + t.warp end
  local function vj(t)
    local i, j = wi(t), t.k * 32 + t.lane
    if i < fsize and j < d then return vertex(i), j end
  end
  gpuperf.launch{
    name = "bfs_warp", grid = math.ceil(fsize * 32 / 256), block = 256, regs = 22,
    work = {
      gpuperf.int(3),                                   -- i, lane, i < fsize
      gpuperf.load{front, space = tex, index = function(t)
        if wi(t) < fsize then return wi(t) end end},  -- one word for the warp
      gpuperf.loop{math.ceil(d / 32), var = "k", body = expand(vj, true)},   -- j = lane; j < d; j += 32
    },
  }
elseif kind == "scan" then
  -- if (level[v] == 0): a lane is a frontier vertex with probability fsize / n; a warp
  -- with none skips the loop, so the loop's average trips per warp are d * P(any).
  local p_lane = fsize / n
  local p_warp = 1 - (1 - p_lane) ^ 32
  local function vj(t) if chance(p_lane / p_warp) then return t.gx, t.j end end
  gpuperf.launch{
    name = "bfs_scan", grid = math.ceil(n / 256), block = 256, regs = 28,
    work = {
      gpuperf.int(2),                                   -- v, v < n
      gpuperf.load{level, index = function(t) return t.gx end},
      gpuperf.int(1), gpuperf.branch(1),
      gpuperf.loop{d * p_warp, var = "j", body = expand(vj, false)},
    },
  }
else
  error("kind must be queue_thread, queue_warp or scan, got '" .. kind .. "'")
end
