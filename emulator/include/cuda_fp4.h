// The 4-bit floating-point types are the CUDA toolkit's own cuda_fp4.h, read as outside nvcc's
// device pass (no __CUDA_ARCH__): its conversions are then the software forms rather than the
// sm_89+ inline PTX, and compute the same values.
#pragma once
#include <cuemu/toolkit_fp_types.h>
#ifdef __CUDA_ARCH__
#pragma push_macro("__CUDA_ARCH__")
#undef __CUDA_ARCH__
#include_next <cuda_fp4.h>
#pragma pop_macro("__CUDA_ARCH__")
#else
#include_next <cuda_fp4.h>
#endif
