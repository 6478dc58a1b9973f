// The CUDA runtime as the emulator provides it: the runtime API, the device-side built-ins and
// intrinsics, and the C++ conveniences of NVIDIA's cuda_runtime.h.
#pragma once
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include "cuemu/host_defines.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "builtin_types.h"
#include "library_types.h"
#include "driver_functions.h"
#include "cuda_runtime_api.h"
#include "channel_descriptor.h"
#include "texture_indirect_functions.h"
#include "surface_indirect_functions.h"
#include "texture_types.h"
#include "device_launch_parameters.h"
#include "vector_functions.h"
#include "cuemu/atomic_functions.h"
#include "cuemu/device_functions.h"
#include "cuemu/launch.h"
#include "cuemu/regions.h"
#include "cuemu/shared_memory.h"
#include "cuemu/sync_functions.h"
#include "cuemu/ptx.h"

#ifdef __cplusplus

// cudaLaunchKernel with the kernel itself (not cast to void*): its parameter types are known.
template <class... P>
// (Its parameters are not named gridDim and blockDim: those would shadow the device variables,
// which -Wshadow reports in a user's build; CUDA's own headers are system headers.)
inline cudaError_t cudaLaunchKernel(void (*func)(P...), dim3 grid, dim3 block, void** args,
                                    size_t sharedMem = 0, cudaStream_t stream = 0,
                                    const char* __cuemu_file = __builtin_FILE(),
                                    int __cuemu_line = __builtin_LINE()) {
  if (!func) return cudaLaunchKernel(static_cast<const void*>(nullptr), grid, block, args,
                                     sharedMem, stream);
  ::cuemu::detail::push_call_configuration(grid, block, sharedMem, stream, __cuemu_file,
                                           __cuemu_line);
  ::cuemu::detail::call_stub_with_args(func, args, std::index_sequence_for<P...>{});
  return ::cuemu::detail::last_launch_result();
}

template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(void (*func)(P...), dim3 grid, dim3 block,
                                               void** args, size_t sharedMem = 0,
                                               cudaStream_t stream = 0,
                                               const char* __cuemu_file = __builtin_FILE(),
                                               int __cuemu_line = __builtin_LINE()) {
  if (!func) return cudaLaunchCooperativeKernel(static_cast<const void*>(nullptr), grid, block,
                                                args, sharedMem, stream);
  ::cuemu::detail::push_call_configuration(grid, block, sharedMem, stream, __cuemu_file,
                                           __cuemu_line);
  ::cuemu::detail::make_configuration_cooperative();
  ::cuemu::detail::call_stub_with_args(func, args, std::index_sequence_for<P...>{});
  return ::cuemu::detail::last_launch_result();
}

// cudaLaunchKernelEx with typed arguments (C++ form). Launch attributes are accepted; those
// that only change scheduling on a GPU (programmatic dependent launch, priorities) have no
// effect here; cudaLaunchAttributeCooperative makes it a cooperative launch.
template <class... ExpTypes, class... ActTypes>
inline cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config,
                                      void (*kernel)(ExpTypes...), ActTypes&&... args) {
  if (!config) return cudaErrorInvalidValue;
  ::cuemu::detail::push_call_configuration(config->gridDim, config->blockDim,
                                           config->dynamicSmemBytes, config->stream);
  for (unsigned i = 0; i < config->numAttrs && config->attrs; ++i)
    if (config->attrs[i].id == cudaLaunchAttributeCooperative && config->attrs[i].val.cooperative)
      ::cuemu::detail::make_configuration_cooperative();
  kernel(std::forward<ActTypes>(args)...);
  return ::cuemu::detail::last_launch_result();
}

template <class T>
inline cudaError_t cudaFuncSetAttribute(T* entry, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttribute(reinterpret_cast<const void*>(entry), attr, value);
}

template <class T>
inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, T* entry) {
  return cudaFuncGetAttributes(attr, reinterpret_cast<const void*>(entry));
}

template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, T func,
                                                                 int blockSize,
                                                                 size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, reinterpret_cast<const void*>(func), blockSize, dynamicSMemSize);
}

// The block size with the highest occupancy (CUDA's algorithm: try every multiple of the warp
// size, keep the first best).
template <class UnaryFunction, class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int* minGridSize, int* blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize,
    int blockSizeLimit = 0) {
  if (!minGridSize || !blockSize) return cudaErrorInvalidValue;
  cudaDeviceProp prop;
  int device = 0;
  cudaGetDevice(&device);
  cudaGetDeviceProperties(&prop, device);
  int limit = blockSizeLimit > 0 && blockSizeLimit < prop.maxThreadsPerBlock
                  ? blockSizeLimit
                  : prop.maxThreadsPerBlock;
  int best_blocks = 0, best_size = 0, best_occupancy = 0;
  for (int size = (limit + 31) / 32 * 32; size > 0; size -= 32) {
    const int s = size > limit ? limit : size;
    int blocks = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, func, s, static_cast<size_t>(blockSizeToDynamicSMemSize(s)));
    if (e != cudaSuccess) return e;
    if (blocks * s > best_occupancy) {
      best_occupancy = blocks * s;
      best_blocks = blocks;
      best_size = s;
    }
  }
  *blockSize = best_size;
  *minGridSize = best_blocks * prop.multiProcessorCount;
  return cudaSuccess;
}

template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func,
                                                      size_t dynamicSMemSize = 0,
                                                      int blockSizeLimit = 0) {
  return cudaOccupancyMaxPotentialBlockSizeVariableSMem(
      minGridSize, blockSize, func, [dynamicSMemSize](int) { return dynamicSMemSize; },
      blockSizeLimit);
}

// The architecture this .cu was compiled for (-arch; the driver defines the macro): a program
// emulates the highest one among its units unless CUEMU_ARCH says otherwise (runtime/device.cpp),
// so a program linked by a build system's own link step still reports its -arch.
#ifdef __CUEMU_UNIT_ARCH__
__attribute__((used, section("cuemu_unit_arch"))) static const int cuemu_unit_arch_record =
    __CUEMU_UNIT_ARCH__;
// Its floating-point mode (-ftz, -prec-div, -prec-sqrt, -fmad, --use_fast_math; the driver defines the
// macro when it is not the default), plus one: device code runs libdevice's build for it
// (runtime/math_library.cpp).
#ifndef __CUEMU_FP_MODE__
#define __CUEMU_FP_MODE__ 0
#endif
__attribute__((used, section("cuemu_unit_fp_mode"))) static const int cuemu_unit_fp_mode_record =
    __CUEMU_FP_MODE__ + 1;
#endif

#endif  // __cplusplus
#endif  // __CUDA_RUNTIME_H__
