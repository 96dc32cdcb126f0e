-- Loops whose copies the source pins (#pragma unroll N), and one left to the model.
gpuperf.launch{
  name = "unroll", grid = 1, block = 32, regs = 16,
  work = {
    gpuperf.loop{64, unroll = 1, body = { gpuperf.fp32(1) }},
    gpuperf.loop{64, var = "k", unroll = 4, body = { gpuperf.fp32(1) }},
    gpuperf.loop(64, { gpuperf.fp32(1) }),
  },
}
