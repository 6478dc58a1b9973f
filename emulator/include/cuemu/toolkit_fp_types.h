// What cuda_fp8.h, cuda_fp6.h and cuda_fp4.h (the emulator's wrappers of the CUDA toolkit's own
// headers) need first. The toolkit's header includes its own cuda_fp16.h, cuda_bf16.h and
// device_types.h by quoted paths; the emulator's are included here, and their include guards
// keep the toolkit's copies empty.
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
