// <cooperative_groups.h>: the emulator's cooperative groups (see cuemu/cg/groups.h for what is
// provided and how it differs from a GPU).
#pragma once
#ifndef _COOPERATIVE_GROUPS_H_
#define _COOPERATIVE_GROUPS_H_

#include <cuda_runtime.h>

#include "cuemu/cg/groups.h"

#endif
