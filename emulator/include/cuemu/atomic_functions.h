// CUDA's atomic functions on the CPU. Blocks run on several OS threads at once, so these are real
// atomic read-modify-writes (GCC/Clang __atomic builtins, sequentially consistent; compare-and-
// swap loops where no fetch-op exists). The _block and _system scoped variants are the same
// operations.
//
// Overloads follow CUDA's list: a call with a type CUDA does not allow does not compile.
#pragma once

#include <cuemu/host_defines.h>
#include <cuemu/progress.h>
#include <vector_types.h>

namespace cuemu::detail {

inline constexpr int atomic_order = __ATOMIC_SEQ_CST;

template <class T>
inline T atomic_load(const T* p) noexcept {
  T v;
  __atomic_load(const_cast<T*>(p), &v, atomic_order);
  return v;
}

// Applies new = f(old) atomically and returns old (bitwise compare-and-swap loop).
template <class T, class F>
inline T atomic_update(T* p, F f) noexcept {
  T old = atomic_load(p);
  T desired = f(old);
  while (!__atomic_compare_exchange(p, &old, &desired, true, atomic_order, atomic_order))
    desired = f(old);
  return polled(p, old);
}

}  // namespace cuemu::detail

#define __CUEMU_AF__ inline __device__

// The operations, each defined once for the unscoped name and its _block/_system twins.
#define __CUEMU_ATOMIC_SCOPES(DEFINE) \
  DEFINE()                            \
  DEFINE(_block)                      \
  DEFINE(_system)

// --- atomicAdd ---
#define __CUEMU_ATOMIC_ADD(S)                                                                  \
  __CUEMU_AF__ int atomicAdd##S(int* a, int v) noexcept {                                      \
    return ::cuemu::detail::polled(a, __atomic_fetch_add(a, v, ::cuemu::detail::atomic_order));                            \
  }                                                                                            \
  __CUEMU_AF__ unsigned int atomicAdd##S(unsigned int* a, unsigned int v) noexcept {           \
    return ::cuemu::detail::polled(a, __atomic_fetch_add(a, v, ::cuemu::detail::atomic_order));                            \
  }                                                                                            \
  __CUEMU_AF__ unsigned long long atomicAdd##S(unsigned long long* a,                          \
                                               unsigned long long v) noexcept {                \
    return ::cuemu::detail::polled(a, __atomic_fetch_add(a, v, ::cuemu::detail::atomic_order));                            \
  }                                                                                            \
  __CUEMU_AF__ float atomicAdd##S(float* a, float v) noexcept {                                \
    return ::cuemu::detail::atomic_update(a, [v](float o) { return o + v; });                  \
  }                                                                                            \
  __CUEMU_AF__ double atomicAdd##S(double* a, double v) noexcept {                             \
    return ::cuemu::detail::atomic_update(a, [v](double o) { return o + v; });                 \
  }                                                                                            \
  __CUEMU_AF__ float2 atomicAdd##S(float2* a, float2 v) noexcept {                             \
    float2 r;                                                                                  \
    r.x = atomicAdd##S(&a->x, v.x);                                                            \
    r.y = atomicAdd##S(&a->y, v.y);                                                            \
    return r;                                                                                  \
  }                                                                                            \
  __CUEMU_AF__ float4 atomicAdd##S(float4* a, float4 v) noexcept {                             \
    float4 r;                                                                                  \
    r.x = atomicAdd##S(&a->x, v.x);                                                            \
    r.y = atomicAdd##S(&a->y, v.y);                                                            \
    r.z = atomicAdd##S(&a->z, v.z);                                                            \
    r.w = atomicAdd##S(&a->w, v.w);                                                            \
    return r;                                                                                  \
  }
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_ADD)
#undef __CUEMU_ATOMIC_ADD

// --- atomicSub ---
#define __CUEMU_ATOMIC_SUB(S)                                                                  \
  __CUEMU_AF__ int atomicSub##S(int* a, int v) noexcept {                                      \
    return ::cuemu::detail::polled(a, __atomic_fetch_sub(a, v, ::cuemu::detail::atomic_order));                            \
  }                                                                                            \
  __CUEMU_AF__ unsigned int atomicSub##S(unsigned int* a, unsigned int v) noexcept {           \
    return ::cuemu::detail::polled(a, __atomic_fetch_sub(a, v, ::cuemu::detail::atomic_order));                            \
  }
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_SUB)
#undef __CUEMU_ATOMIC_SUB

// --- atomicExch ---
#define __CUEMU_ATOMIC_EXCH(S)                                                                 \
  __CUEMU_AF__ int atomicExch##S(int* a, int v) noexcept {                                     \
    return ::cuemu::detail::polled(a, __atomic_exchange_n(a, v, ::cuemu::detail::atomic_order));                           \
  }                                                                                            \
  __CUEMU_AF__ unsigned int atomicExch##S(unsigned int* a, unsigned int v) noexcept {          \
    return ::cuemu::detail::polled(a, __atomic_exchange_n(a, v, ::cuemu::detail::atomic_order));                           \
  }                                                                                            \
  __CUEMU_AF__ unsigned long long atomicExch##S(unsigned long long* a,                         \
                                                unsigned long long v) noexcept {               \
    return ::cuemu::detail::polled(a, __atomic_exchange_n(a, v, ::cuemu::detail::atomic_order));                           \
  }                                                                                            \
  __CUEMU_AF__ float atomicExch##S(float* a, float v) noexcept {                               \
    float old;                                                                                 \
    __atomic_exchange(a, &v, &old, ::cuemu::detail::atomic_order);                             \
    return old;                                                                                \
  }
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_EXCH)
#undef __CUEMU_ATOMIC_EXCH

// --- atomicMin / atomicMax ---
#define __CUEMU_ATOMIC_MINMAX_T(S, T)                                                          \
  __CUEMU_AF__ T atomicMin##S(T* a, T v) noexcept {                                            \
    return ::cuemu::detail::atomic_update(a, [v](T o) { return v < o ? v : o; });              \
  }                                                                                            \
  __CUEMU_AF__ T atomicMax##S(T* a, T v) noexcept {                                            \
    return ::cuemu::detail::atomic_update(a, [v](T o) { return o < v ? v : o; });              \
  }
#define __CUEMU_ATOMIC_MINMAX(S)                          \
  __CUEMU_ATOMIC_MINMAX_T(S, int)                         \
  __CUEMU_ATOMIC_MINMAX_T(S, unsigned int)                \
  __CUEMU_ATOMIC_MINMAX_T(S, long long)                   \
  __CUEMU_ATOMIC_MINMAX_T(S, unsigned long long)
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_MINMAX)
#undef __CUEMU_ATOMIC_MINMAX
#undef __CUEMU_ATOMIC_MINMAX_T

// --- atomicInc / atomicDec (CUDA's wrap-around counters) ---
//   atomicInc: old >= val ? 0 : old + 1
//   atomicDec: (old == 0 || old > val) ? val : old - 1
#define __CUEMU_ATOMIC_INCDEC(S)                                                               \
  __CUEMU_AF__ unsigned int atomicInc##S(unsigned int* a, unsigned int val) noexcept {         \
    return ::cuemu::detail::atomic_update(                                                     \
        a, [val](unsigned int o) { return o >= val ? 0u : o + 1u; });                          \
  }                                                                                            \
  __CUEMU_AF__ unsigned int atomicDec##S(unsigned int* a, unsigned int val) noexcept {         \
    return ::cuemu::detail::atomic_update(                                                     \
        a, [val](unsigned int o) { return (o == 0u || o > val) ? val : o - 1u; });             \
  }
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_INCDEC)
#undef __CUEMU_ATOMIC_INCDEC

// --- atomicCAS: returns the old value; stores val when old == compare ---
#define __CUEMU_ATOMIC_CAS_T(S, T)                                                             \
  __CUEMU_AF__ T atomicCAS##S(T* a, T compare, T val) noexcept {                               \
    __atomic_compare_exchange_n(a, &compare, val, false, ::cuemu::detail::atomic_order,        \
                                ::cuemu::detail::atomic_order);                                \
    return ::cuemu::detail::polled(a, compare);                                                                            \
  }
#define __CUEMU_ATOMIC_CAS(S)                             \
  __CUEMU_ATOMIC_CAS_T(S, int)                            \
  __CUEMU_ATOMIC_CAS_T(S, unsigned int)                   \
  __CUEMU_ATOMIC_CAS_T(S, unsigned long long)             \
  __CUEMU_ATOMIC_CAS_T(S, unsigned short int)
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_CAS)
#undef __CUEMU_ATOMIC_CAS
#undef __CUEMU_ATOMIC_CAS_T

// --- atomicAnd / atomicOr / atomicXor ---
#define __CUEMU_ATOMIC_BITS_T(S, T)                                                            \
  __CUEMU_AF__ T atomicAnd##S(T* a, T v) noexcept {                                            \
    return ::cuemu::detail::polled(a, __atomic_fetch_and(a, v, ::cuemu::detail::atomic_order));                            \
  }                                                                                            \
  __CUEMU_AF__ T atomicOr##S(T* a, T v) noexcept {                                             \
    return ::cuemu::detail::polled(a, __atomic_fetch_or(a, v, ::cuemu::detail::atomic_order));                             \
  }                                                                                            \
  __CUEMU_AF__ T atomicXor##S(T* a, T v) noexcept {                                            \
    return ::cuemu::detail::polled(a, __atomic_fetch_xor(a, v, ::cuemu::detail::atomic_order));                            \
  }
#define __CUEMU_ATOMIC_BITS(S)                            \
  __CUEMU_ATOMIC_BITS_T(S, int)                           \
  __CUEMU_ATOMIC_BITS_T(S, unsigned int)                  \
  __CUEMU_ATOMIC_BITS_T(S, long long)                     \
  __CUEMU_ATOMIC_BITS_T(S, unsigned long long)
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_BITS)
#undef __CUEMU_ATOMIC_BITS
#undef __CUEMU_ATOMIC_BITS_T

// --- 128-bit atomicCAS / atomicExch (sm_90): any trivially copyable 16-byte, 16-byte aligned T.
// No lock-free 16-byte operation is assumed: a striped lock serialises them per address.
namespace cuemu::detail {
inline void lock_16byte(const void* p, bool lock) noexcept {
  static unsigned char locks[64];
  unsigned char* l = &locks[(reinterpret_cast<__UINTPTR_TYPE__>(p) >> 4) & 63u];
  if (!lock) {
    __atomic_clear(l, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_test_and_set(l, __ATOMIC_ACQUIRE)) {
  }
}
template <class T>
inline constexpr bool is_atomic128 = sizeof(T) == 16 && alignof(T) >= 16 &&
                                     __is_trivially_copyable(T);
template <class T>
inline T cas128(T* a, const T& compare, const T& val) noexcept {
  lock_16byte(a, true);
  T old = *a;
  if (__builtin_memcmp(&old, &compare, sizeof(T)) == 0) *a = val;
  lock_16byte(a, false);
  return polled(a, old);
}
template <class T>
inline T exch128(T* a, const T& val) noexcept {
  lock_16byte(a, true);
  T old = *a;
  *a = val;
  lock_16byte(a, false);
  return polled(a, old);
}
template <bool B, class T = void>
struct enable_if128 {};
template <class T>
struct enable_if128<true, T> {
  using type = T;
};
}  // namespace cuemu::detail

#define __CUEMU_ATOMIC_128(S)                                                                  \
  template <class T>                                                                           \
  __CUEMU_AF__ typename ::cuemu::detail::enable_if128<::cuemu::detail::is_atomic128<T>, T>::type \
  atomicCAS##S(T* a, T compare, T val) noexcept {                                              \
    return ::cuemu::detail::cas128(a, compare, val);                                           \
  }                                                                                            \
  template <class T>                                                                           \
  __CUEMU_AF__ typename ::cuemu::detail::enable_if128<::cuemu::detail::is_atomic128<T>, T>::type \
  atomicExch##S(T* a, T val) noexcept {                                                        \
    return ::cuemu::detail::exch128(a, val);                                                   \
  }
__CUEMU_ATOMIC_SCOPES(__CUEMU_ATOMIC_128)
#undef __CUEMU_ATOMIC_128

#undef __CUEMU_ATOMIC_SCOPES
#undef __CUEMU_AF__
