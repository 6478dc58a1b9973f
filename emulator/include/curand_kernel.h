// cuRAND's device API is the CUDA toolkit's own curand_kernel.h, compiled as device code. Outside
// nvcc's device pass it would also declare `extern const dim3 blockDim; extern const uint3
// threadIdx;` for host callers (curand_mtgp32_kernel.h), which clash with the emulator's
// variables, so the toolkit's headers are read as in the device pass (__CUDA_ARCH__ set to the
// emulated architecture, as nvcc's device pass sets it).
#pragma once
#ifdef __CUDA_ARCH__
#include_next <curand_kernel.h>
#else
#define __CUDA_ARCH__ (__CUDA_ARCH_LIST__ + 0)
#include_next <curand_kernel.h>
#undef __CUDA_ARCH__
#endif
