/* Its generation lacks memory rules: the loader refuses it. */
#define TOY_NAME "nocallback"
#define TOY_NO_MEM
#include "toy_common.h"
