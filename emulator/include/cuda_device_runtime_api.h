// Device-side runtime API: what device code may call besides kernels' own code. Dynamic
// parallelism (CUDA 12's, "CDP2"): <<<...>>> in device code, device-side streams (non-blocking
// only), cudaStreamTailLaunch, cudaStreamFireAndForget, cudaMemcpyAsync/cudaMemsetAsync,
// cudaMalloc/cudaFree from the device heap, events for ordering; the runtime functions of the
// same names serve both sides (src/runtime/device_runtime.cpp). cudaGraphSetConditional sets a
// graph conditional node's value.
#pragma once
#ifndef __CUDA_DEVICE_RUNTIME_API_H__
#define __CUDA_DEVICE_RUNTIME_API_H__

#include <cuemu/host_defines.h>
#include <driver_types.h>

/* The device runtime's special streams. */
#define cudaStreamTailLaunch ((cudaStream_t)0x3)    /* after the launching grid and its work */
#define cudaStreamFireAndForget ((cudaStream_t)0x4) /* independent of the launching thread */

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
