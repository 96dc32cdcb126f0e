local d = gpuperf.device
assert(d.name == "NVIDIA H200" and d.id == "h200-sxm" and d.arch == "hopper")
assert(d.compute_capability == 9.0 and d.cc_major == 9 and d.cc_minor == 0)
assert(d.warp_size == 32 and d.l2_bytes == 62914560 and d.dram_bandwidth_gbps == 4800)
assert(d.tensor_fp8_flops_per_clock == 4096 and d.block_launch_cycles == 300)
assert(d.max_grid_x == 2^31 - 1 and d.shared_memory_per_sm_bytes == 233472)
assert(d.no_such_field == nil and gpuperf.device_count == 1)
gpuperf.launch{
  name = d.arch .. "_fill",
  grid = d.sm_count * 4, block = d.max_threads_per_block, regs = 32,
  dynamic_smem = d.shared_memory_per_block_optin_bytes,
  work = { gpuperf.load{ footprint = d.l2_bytes }, gpuperf.fp32(d.fp32_lanes) },
}
