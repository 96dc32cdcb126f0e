/*
 * occupancy.h - blocks of a launch per SM, from the device's resources and
 * its generation's allocation rules (gp_alloc_rules_t).
 */
#ifndef GP_OCCUPANCY_H
#define GP_OCCUPANCY_H

#include "gpuperf/plugin.h"

/*
 * Occupancy of `launch` on `dev` under `rules`: limits from warps, blocks,
 * registers, shared memory and barriers, and every reason a launch cannot
 * run. Returns 0 (an impossible launch is a result: blocks_per_sm 0 and the
 * limiter with out->detail), -1 with err for rules or a launch that make no
 * sense.
 */
int gp_occupancy_compute(const gp_device_t *dev, const gp_launch_t *launch,
                         const gp_alloc_rules_t *rules, gp_occupancy_t *out, char *err,
                         size_t errlen);

/*
 * The blocks an SM holds of `launch`, where the card's driver departs from
 * the calculator (gp_device_t.smemless_free_of_carveout): `occ`, as
 * gp_occupancy_compute left it, raised to the other limits for a launch
 * whose blocks use no shared memory but whose carve-out preference bound
 * them. The prediction runs what the SM holds; `gpuperf occupancy` keeps
 * NVIDIA's answer.
 */
void gp_occupancy_held(const gp_device_t *dev, const gp_launch_t *launch, gp_occupancy_t *occ);

#endif /* GP_OCCUPANCY_H */
