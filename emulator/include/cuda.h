/* The CUDA driver API header, as the emulator provides it: the version, the result codes and the
 * handle types, so that runtime-API programs that include <cuda.h> for its types or CUDA_VERSION
 * build. The driver API's functions (cuInit, cuModuleLoad, cuLaunchKernel, ...) are not emulated
 * and not declared: a program that calls one stops at compile time naming it. */
#ifndef __cuda_cuda_h__
#define __cuda_cuda_h__

#include <stddef.h>
#include <stdint.h>

#include "driver_types.h"

#define CUDA_VERSION 13000
#define CUDAAPI

#ifdef __cplusplus
extern "C" {
#endif

typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef struct CUctx_st* CUcontext;
typedef struct CUmod_st* CUmodule;
typedef struct CUfunc_st* CUfunction;
typedef struct CUstream_st* CUstream;  /* the same handles as cudaStream_t and cudaEvent_t */
typedef struct CUevent_st* CUevent;

/* The result codes shared with the runtime API's values. */
typedef enum cudaError_enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_NOT_INITIALIZED = 3,
  CUDA_ERROR_DEINITIALIZED = 4,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_INVALID_DEVICE = 101,
  CUDA_ERROR_INVALID_CONTEXT = 201,
  CUDA_ERROR_INVALID_HANDLE = 400,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
  CUDA_ERROR_ILLEGAL_ADDRESS = 700,
  CUDA_ERROR_LAUNCH_FAILED = 719,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_UNKNOWN = 999
} CUresult;

#ifdef __cplusplus
}
#endif

#endif /* __cuda_cuda_h__ */
