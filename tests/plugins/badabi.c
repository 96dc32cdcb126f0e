/* Built against a future major ABI. */
#define TOY_NAME "badabi"
#define TOY_ABI_MAJOR 99
#include "toy_common.h"
