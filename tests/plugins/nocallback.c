/* Lacks the op_cost callback. */
#define TOY_NAME "nocallback"
#define TOY_NO_OP_COST
#include "toy_common.h"
