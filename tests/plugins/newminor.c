/* Built against a newer minor ABI than the host knows. */
#define TOY_NAME "newminor"
#define TOY_ABI_MINOR (GP_ABI_MINOR + 1)
#include "toy_common.h"
