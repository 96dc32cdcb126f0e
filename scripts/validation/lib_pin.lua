-- lib_pin.lua: dyn_smem_for_bpsm of validation/h200/bench/common.cuh, shared by
-- alias.lua and depgather.lua: the dynamic shared memory a block asks for so that
-- `bpsm` blocks fit an SM and no more (the SM's shared memory over bpsm, less the
-- block's reservation, rounded down to 1 KiB, at most the per-block opt-in); 0 for
-- bpsm = 8, which the benches leave to the warps.
return function(bpsm)
  local d = gpuperf.device
  if bpsm >= 8 then return 0 end
  return math.min(math.floor((d.shared_memory_per_sm_bytes / bpsm
                              - d.reserved_shared_memory_per_block_bytes) / 1024) * 1024,
                  d.shared_memory_per_block_optin_bytes)
end
