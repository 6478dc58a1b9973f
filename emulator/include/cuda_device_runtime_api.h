// Device-side runtime API (dynamic parallelism). Not emulated: this header exists so that code
// including it compiles; the device runtime functions are not provided.
#pragma once
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__

#include <cuemu/host_defines.h>
#include <driver_types.h>

#endif /* __CUDA_DEVICE_RUNTIME_API_H__ */
