-- stencil3d_27pt.lua: the 27-point 3-D stencil k_st3d_27 (validation/h200/bench/eval_grid.cuh);
-- the description is in stencil3d.lua.
require("stencil3d")(27)
