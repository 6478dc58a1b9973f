// Part of the CUDA device API: provided by <cuemu/atomic_functions.h>.
#pragma once
#include <cuemu/host_defines.h>
#include <cuemu/atomic_functions.h>
