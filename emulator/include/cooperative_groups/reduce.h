// <cooperative_groups/reduce.h>: cg::reduce and its function objects.
#pragma once

#include "../cooperative_groups.h"
#include "../cuemu/cg/reduce.h"
