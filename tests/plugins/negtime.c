/* Returns negative block times. */
#define TOY_NAME "negtime"
#define TOY_NEGATIVE_TIME
#include "toy_common.h"
