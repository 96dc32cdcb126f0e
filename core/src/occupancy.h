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

#endif /* GP_OCCUPANCY_H */
