-- lib_rows.lua: row-wise kernels shared by softmax.lua, layernorm.lua and attention.lua
-- (validation/h200/bench/eval_dense.cuh: warp_sum, warp_max, block_reduce,
-- k_softmax_block, k_softmax_warp, k_ln_block, k_ln_warp). Loads from
-- const __restrict__ pointers are LDG.E.CONSTANT in the SASS: space = "texture".
local M = {}

-- warp_sum / warp_max: five __shfl_xor_sync steps, an add (or fmaxf) each.
function M.warp_reduce()
  return { gpuperf.shfl(5), gpuperf.fp32(5) }
end

-- block_reduce (blockDim.x = 256, 8 warps): warp reduce, barrier, lane 0 writes sh[w],
-- barrier, lanes < 8 read sh[lane], warp reduce again.
function M.block_reduce()
  return {
    M.warp_reduce(),
    gpuperf.int(3),                                  -- lane, w, nw
    gpuperf.barrier(),
    gpuperf.shared_store{index = function(t) if t.lane == 0 then return t.warp end end},
    gpuperf.barrier(),
    gpuperf.shared_load{index = function(t) if t.lane < 8 then return t.lane end end},
    M.warp_reduce(),
  }
end

-- A strided pass over one row: c = first + step * s, s = 0 .. cols / step - 1;
-- lane_of(t) gives the first column, row_of(t) the row, body(idx, col) the ops of one
-- element (idx(t) its index in the matrix, col(t) its column).
function M.row_pass(var, cols, step, lane_of, row_of, body)
  local function idx(t)
    local c = lane_of(t) + step * t[var]
    if c < cols then return row_of(t) * cols + c end
  end
  local function col(t)
    local c = lane_of(t) + step * t[var]
    if c < cols then return c end
  end
  return gpuperf.loop{cols / step, var = var, body = body(idx, col)}
end

-- softmax, warp per row: row = gid / 32, lanes stride 32 (k_softmax_warp, 31 registers).
function M.softmax_warp(name, inp, out, rows, cols)
  local block = 256
  local lane = function(t) return t.lane end
  local row = function(t) return t.bx * 8 + t.warp end
  return gpuperf.launch{
    name = name, grid = math.ceil(rows * 32 / block), block = block, regs = 31,
    work = {
      gpuperf.int(6),                -- row, lane, the bounds test, the row base addresses
      M.row_pass("c1", cols, 32, lane, row, function(idx)
        return { gpuperf.load{inp, space = "texture", index = idx},
                 gpuperf.fp32(1) } end),                    -- m = fmaxf(m, x[c])
      M.warp_reduce(),
      M.row_pass("c2", cols, 32, lane, row, function(idx)
        return { gpuperf.load{inp, space = "texture", index = idx},
                 gpuperf.fp32(3), gpuperf.sfu(1) } end),    -- s += __expf(x - m)
      M.warp_reduce(),
      gpuperf.fdiv(1),                                       -- inv = 1.0f / s
      M.row_pass("c3", cols, 32, lane, row, function(idx)
        return { gpuperf.load{inp, space = "texture", index = idx},
                 gpuperf.fp32(3), gpuperf.sfu(1),            -- __expf(x - m) * inv
                 gpuperf.store{out, index = idx} } end),
    },
  }
end

-- softmax, row per block of 256 (k_softmax_block, 14 registers, 128 bytes of shared memory).
function M.softmax_block(name, inp, out, rows, cols)
  local lane = function(t) return t.x end
  local row = function(t) return t.bx end
  return gpuperf.launch{
    name = name, grid = rows, block = 256, regs = 14, smem = 128,
    work = {
      gpuperf.int(4),                -- the row base addresses
      M.row_pass("c1", cols, 256, lane, row, function(idx)
        return { gpuperf.load{inp, space = "texture", index = idx}, gpuperf.fp32(1) } end),
      M.block_reduce(),
      M.row_pass("c2", cols, 256, lane, row, function(idx)
        return { gpuperf.load{inp, space = "texture", index = idx},
                 gpuperf.fp32(3), gpuperf.sfu(1) } end),
      M.block_reduce(),
      gpuperf.fdiv(1),
      M.row_pass("c3", cols, 256, lane, row, function(idx)
        return { gpuperf.load{inp, space = "texture", index = idx},
                 gpuperf.fp32(3), gpuperf.sfu(1),
                 gpuperf.store{out, index = idx} } end),
    },
  }
end

-- layer norm: mean, variance of x - mean (a second read), y = (x - mean) * rstd * g[c] + b[c].
local function ln_work(inp, out, g, b, cols, step, lane, row, reduce)
  return {
    gpuperf.int(4),
    M.row_pass("c1", cols, step, lane, row, function(idx)
      return { gpuperf.load{inp, space = "texture", index = idx}, gpuperf.fp32(1) } end),
    reduce(),
    gpuperf.conv(1), gpuperf.fdiv(1),                        -- mean = sum / cols
    M.row_pass("c2", cols, step, lane, row, function(idx)
      return { gpuperf.load{inp, space = "texture", index = idx}, gpuperf.fp32(2) } end),
    reduce(),
    gpuperf.fdiv(1), gpuperf.fp32(1), gpuperf.sfu(1),         -- rsqrtf(v / cols + 1e-5f)
    M.row_pass("c3", cols, step, lane, row, function(idx, col)
      return { gpuperf.load{inp, space = "texture", index = idx},
               gpuperf.load{g, space = "texture", index = col},
               gpuperf.load{b, space = "texture", index = col},
               gpuperf.fp32(3),                              -- sub, mul, fma
               gpuperf.store{out, index = idx} } end),
  }
end

function M.layernorm_warp(name, inp, out, g, b, rows, cols)
  return gpuperf.launch{
    name = name, grid = math.ceil(rows * 32 / 256), block = 256, regs = 32,
    work = ln_work(inp, out, g, b, cols, 32, function(t) return t.lane end,
                   function(t) return t.bx * 8 + t.warp end, M.warp_reduce),
  }
end

function M.layernorm_block(name, inp, out, g, b, rows, cols)
  return gpuperf.launch{
    name = name, grid = rows, block = 256, regs = 20, smem = 128,
    work = ln_work(inp, out, g, b, cols, 256, function(t) return t.x end,
                   function(t) return t.bx end, M.block_reduce),
  }
end

return M
