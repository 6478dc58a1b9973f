// Part of the CUDA device API: provided by <cuemu/device_functions.h>.
#pragma once
#include <cuemu/host_defines.h>
#include <cuemu/device_functions.h>
