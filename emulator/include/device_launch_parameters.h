// threadIdx, blockIdx, blockDim, gridDim and warpSize. They name the calling CUDA thread: each
// worker OS thread runs one block at a time, and the scheduler updates these before it switches
// to a lane, so reading them is a thread-local load.
#pragma once
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__

#include "cuemu/host_defines.h"
#include "vector_types.h"

// Variables, not macros: host code reads fields of the same names (cudaDeviceProp::warpSize,
// cudaLaunchConfig_t::gridDim). They live in namespace cuemu, like all of the runtime's state, so
// that the two passes of a file share them (driver/passes.cpp keeps cuemu:: data as it is).
namespace cuemu {
inline thread_local uint3 threadIdx{};
inline thread_local uint3 blockIdx{};
inline thread_local dim3 blockDim{};
inline thread_local dim3 gridDim{};
}  // namespace cuemu
using cuemu::threadIdx;
using cuemu::blockIdx;
using cuemu::blockDim;
using cuemu::gridDim;
constexpr int warpSize = 32;

#endif
