/* A working plugin with [arch] keys of its own. */
#define TOY_NAME "toy"
#define TOY_PARAMS
#include "toy_common.h"
