/* The entry point returns no descriptor. */
#define TOY_NAME "nulldesc"
#define TOY_NULL_DESCRIPTOR
#include "toy_common.h"
