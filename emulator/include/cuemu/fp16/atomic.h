// atomicAdd on the 16-bit types and their pairs (compare-and-swap loops on the 2- or 4-byte
// word, like the GPU's red/atom.add.noftz.f16/bf16), with the _block/_system twins.
#pragma once

#include <cuemu/atomic_functions.h>
#include <cuemu/fp16/ops.h>

#define __CUEMU_FP16_ATOMIC(S)                                                                \
  inline __device__ __half atomicAdd##S(__half* a, __half v) noexcept {                            \
    return ::cuemu::detail::atomic_update(a, [v](__half o) { return __hadd(o, v); });         \
  }                                                                                           \
  inline __device__ __half2 atomicAdd##S(__half2* a, __half2 v) noexcept {                    \
    return ::cuemu::detail::atomic_update(a, [v](__half2 o) { return __hadd2(o, v); });       \
  }                                                                                           \
  inline __device__ __nv_bfloat16 atomicAdd##S(__nv_bfloat16* a, __nv_bfloat16 v) noexcept {  \
    return ::cuemu::detail::atomic_update(a, [v](__nv_bfloat16 o) { return __hadd(o, v); });  \
  }                                                                                           \
  inline __device__ __nv_bfloat162 atomicAdd##S(__nv_bfloat162* a, __nv_bfloat162 v) noexcept { \
    return ::cuemu::detail::atomic_update(a,                                                  \
                                          [v](__nv_bfloat162 o) { return __hadd2(o, v); });   \
  }
__CUEMU_FP16_ATOMIC()
__CUEMU_FP16_ATOMIC(_block)
__CUEMU_FP16_ATOMIC(_system)
#undef __CUEMU_FP16_ATOMIC
