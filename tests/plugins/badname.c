/* A descriptor whose name is not a valid plugin name. */
#define TOY_NAME "Bad Name"
#include "toy_common.h"
