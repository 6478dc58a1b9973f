// cuda_bf16.h as the emulator provides it: __half, __half2, __nv_bfloat16, __nv_bfloat162 and
// their intrinsics, bit-exact with an H200 (see emulator/tests/fp16).
#pragma once
#include <cuda_runtime.h>
#include <cuemu/fp16/all.h>
