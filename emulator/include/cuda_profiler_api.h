// Profiler control. There is no profiler in the emulator: both calls succeed and do nothing.
#pragma once
#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__

#include <cuemu/host_defines.h>
#include <driver_types.h>

#if defined(__cplusplus)
extern "C" {
#endif
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#if defined(__cplusplus)
}
#endif

#endif /* __CUDA_PROFILER_API_H__ */
