/* Returns an occupancy of NaN. */
#define TOY_NAME "nanocc"
#define TOY_NAN_OCCUPANCY
#include "toy_common.h"
