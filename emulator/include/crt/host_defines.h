// CUDA's qualifier macros (__host__, __device__, __global__, ...): see cuemu/host_defines.h.
#pragma once
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__
#endif
#include <cuemu/host_defines.h>
