// The built-in types of the CUDA runtime (driver types and vector types).
#pragma once
#ifndef __BUILTIN_TYPES_H__
#define __BUILTIN_TYPES_H__

#include <cuemu/host_defines.h>
#include <driver_types.h>
#include <vector_types.h>

#endif /* __BUILTIN_TYPES_H__ */
