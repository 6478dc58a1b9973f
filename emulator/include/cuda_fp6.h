// The 6-bit floating-point types are the CUDA toolkit's own cuda_fp6.h, read as outside nvcc's
// device pass (no __CUDA_ARCH__): its conversions are then the software forms rather than the
// sm_89+ inline PTX, and compute the same values.
// The toolkit's header includes its own cuda_fp16.h, cuda_bf16.h and device_types.h by quoted
// paths; the emulator's are included first and their include guards keep the toolkit's out.
#pragma once
#include <device_types.h>
#include <vector_types.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__
#endif
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__
#endif
#ifdef __CUDA_ARCH__
#pragma push_macro("__CUDA_ARCH__")
#undef __CUDA_ARCH__
#include_next <cuda_fp6.h>
#pragma pop_macro("__CUDA_ARCH__")
#else
#include_next <cuda_fp6.h>
#endif
