// Device-side runtime API: what device code may call besides kernels' own code. Dynamic
// parallelism's launches are not emulated; cudaGraphSetConditional is (graph conditional nodes).
#pragma once
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__

#include <cuemu/host_defines.h>
#include <driver_types.h>

#if defined(__cplusplus)
extern "C" {
#endif
/* Sets a conditional node's value from device code (runtime/graph_exec.cpp). */
__host__ __device__ void cudaGraphSetConditional(cudaGraphConditionalHandle handle,
                                                 unsigned int value);
#if defined(__cplusplus)
}
#endif

#endif /* __CUDA_DEVICE_RUNTIME_API_H__ */
