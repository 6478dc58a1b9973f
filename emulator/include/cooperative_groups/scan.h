// <cooperative_groups/scan.h>: cg::inclusive_scan and cg::exclusive_scan.
#pragma once

#include "../cooperative_groups.h"
#include "../cuemu/cg/scan.h"
