-- lib_stamp.lua: the `stamp` parameter of tiles2.lua, tiles3.lua and mmasmem.lua, and
-- the space their global loads take. Every global input of bench_tiles2, bench_tiles3
-- and bench_mmasmem is `const __restrict__`: LDG.E.CONSTANT, space "texture", whose
-- loads nvcc may issue ahead of an earlier trip's barriers. A clock read with a "memory"
-- clobber keeps them in their trip, as it keeps a coherent load: stamp=1 (the benches'
-- instances before 2026-12-07, which read clock64 in every trip) writes them as
-- "global". Returns the space, and whether the kernel is stamped.
return function()
  local stamp = gpuperf.param("stamp", 0, "1: the kernel reads clock64 in every trip (asm volatile, \"memory\" clobber), as the bench's instances before 2026-12-07 did")
  return stamp == 1 and "global" or "texture", stamp == 1
end
