local n = 256
local A = gpuperf.buffer("A", 4 * n * n)
gpuperf.launch{ name = "sgemm", grid = {n / 16, n / 16}, block = {16, 16}, regs = 32,
  work = { gpuperf.loop{n / 16, var = "k", body = {
    gpuperf.load{A, index = function(t) return t.gy * n + t.k * 16 + t.x end},
    gpuperf.load{A, index = function(t) return (t.k * 16 + t.y) * n + t.gx end},
    gpuperf.fp32(16) }}, gpuperf.store{A, index = function(t) return t.gy * n + t.gx end} } }
