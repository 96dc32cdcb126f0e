-- stencil3d_7pt.lua: the 7-point 3-D stencil k_st3d_7 (validation/h200/bench/eval_grid.cuh);
-- the description is in stencil3d.lua.
require("stencil3d")(7)
