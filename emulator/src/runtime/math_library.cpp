// The C library's math functions, as CUDA gives them to device code: a call from a CUDA thread
// runs NVIDIA's libdevice algorithm (compiled for the CPU at build time, cuemu/libdevice.h), a
// call from host code runs the C library's own function, as nvcc's host compiler would.
//
// An emulated program is linked with this runtime before the C library, so its calls of sinf,
// pow, ... (from kernels, __device__ and __host__ __device__ functions, CCCL, the program's own
// host code) reach the definitions here; the driver compiles CUDA sources with -fno-builtin for
// these names, so that g++ does not fold a call on constants with its own (correctly rounded)
// arithmetic. The C library's function is found once by name in libm itself.
//
// libdevice's object calls a few C library functions too (floorf, fmaf, ... where a CPU without
// SSE4.1 or FMA has no instruction); its build renames them __cuemu_host_NAME, defined here.
#include <dlfcn.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

#include <cuemu/launch.h>
#include <cuemu/libdevice.h>

// libdevice's build that device code runs (src/libdevice/variants.py): bit 0 -ftz=true, bit 1
// -prec-div=false, bit 2 -prec-sqrt=false, bit 4 -fmad=false; 15 --use_fast_math.
extern "C" int __cuemu_device_fp_mode = 0;

namespace cuemu::detail {
namespace {

void* libm() noexcept {
  static void* handle = [] {
    void* h = dlopen("libm.so.6", RTLD_LAZY);
    if (!h) {
      std::fprintf(stderr, "cuemu: cannot load the C math library (libm.so.6): %s\n", dlerror());
      std::abort();
    }
    return h;
  }();
  return handle;
}

template <class F>
F host_function(const char* name) noexcept {
  void* f = dlsym(libm(), name);
  if (!f) {
    std::fprintf(stderr, "cuemu: the C math library has no %s\n", name);
    std::abort();
  }
  return reinterpret_cast<F>(f);
}

// In a CUDA thread: a block is running on this worker thread.
inline bool in_device_code() noexcept { return t_current_executor != nullptr; }

// The records of cuda_runtime.h: each .cu's floating-point mode plus one (padding reads 0).
extern "C" const int __start_cuemu_unit_fp_mode[] __attribute__((weak));
extern "C" const int __stop_cuemu_unit_fp_mode[] __attribute__((weak));

// The program's mode: its units' (nvcc's flags apply per unit; here libdevice's build is chosen
// for the whole program, the highest mode where units differ, said once on stderr).
__attribute__((constructor)) void read_units_fp_mode() {
  if (!__start_cuemu_unit_fp_mode || !__stop_cuemu_unit_fp_mode) return;
  int mode = -1;
  bool mixed = false;
  for (const int* r = __start_cuemu_unit_fp_mode; r < __stop_cuemu_unit_fp_mode; ++r) {
    if (*r < 1 || *r > 32) continue;
    if (mode >= 0 && *r - 1 != mode) mixed = true;
    if (*r - 1 > mode) mode = *r - 1;
  }
  if (mode < 0) return;
  if (mixed)
    std::fprintf(stderr,
                 "cuemu: the program's .cu files were compiled with different -ftz/-prec-div/"
                 "-prec-sqrt/-fmad/--use_fast_math; device code computes as the last of them listed in "
                 "cuemu's README (mode %d)\n", mode);
  __cuemu_device_fp_mode = mode;
}

// --use_fast_math: device code's sinf, expf, powf, ... are CUDA's intrinsics (__sinf, __expf,
// __powf, ...), as nvcc compiles them (the CUDA C++ Programming Guide's list).
inline bool fast_math() noexcept { return __cuemu_device_fp_mode == 15; }
using f_f = float (*)(float) noexcept;
constexpr f_f fast_f_f(const char* n) noexcept {
  return __builtin_strcmp(n, "sinf") == 0     ? __nv_fast_sinf
         : __builtin_strcmp(n, "cosf") == 0   ? __nv_fast_cosf
         : __builtin_strcmp(n, "tanf") == 0   ? __nv_fast_tanf
         : __builtin_strcmp(n, "expf") == 0   ? __nv_fast_expf
         : __builtin_strcmp(n, "exp10f") == 0 ? __nv_fast_exp10f
         : __builtin_strcmp(n, "logf") == 0   ? __nv_fast_logf
         : __builtin_strcmp(n, "log2f") == 0  ? __nv_fast_log2f
         : __builtin_strcmp(n, "log10f") == 0 ? __nv_fast_log10f
         : __builtin_strcmp(n, "tanhf") == 0  ? __nv_fast_tanhf
                                              : nullptr;
}

// Two NaN operands: which one the H200 returns (quieted) depends on how its compiler ordered the
// operands of libdevice's final addition, not on libdevice's text: atan2 returns the first, pow,
// fmod and remquo the second in the math probe's kernel (tests/math/h200.txt.gz), while pow and
// fmod return the first in tests/math/sampled's; the probe's pick is kept. The others as
// libdevice computes.
enum class nan_pick { libdevice, first, second };
inline double pick_nan(nan_pick p, double x, double y, double r) noexcept {
  if (p == nan_pick::libdevice || x == x || y == y) return r;
  return quiet_nan(p == nan_pick::first ? x : y);
}
constexpr nan_pick two_nans(const char* name) noexcept {
  return __builtin_strcmp(name, "atan2") == 0 ? nan_pick::first
         : __builtin_strcmp(name, "pow") == 0 || __builtin_strcmp(name, "fmod") == 0 ||
                 __builtin_strcmp(name, "remquo") == 0
             ? nan_pick::second
             : nan_pick::libdevice;
}

}  // namespace
}  // namespace cuemu::detail

#define CUEMU_HOST(n, R, ...)                                                                     \
  static auto* const host = ::cuemu::detail::host_function<R (*)(__VA_ARGS__)>(#n)

#define CUEMU_DEFINE_F_F(n)                                                                       \
  extern "C" float n(float x) noexcept {                                                         \
    if (::cuemu::detail::in_device_code()) {                                                     \
      constexpr auto fast = ::cuemu::detail::fast_f_f(#n);                                       \
      if constexpr (fast != nullptr)                                                             \
        if (::cuemu::detail::fast_math()) return fast(x);                                        \
      return __nv_##n(x);                                                                        \
    }                                                                                             \
    CUEMU_HOST(n, float, float);                                                                  \
    return host(x);                                                                               \
  }                                                                                               \
  extern "C" float __cuemu_host_##n(float x) noexcept {                                          \
    CUEMU_HOST(n, float, float);                                                                  \
    return host(x);                                                                               \
  }
#define CUEMU_DEFINE_D_D(n)                                                                       \
  extern "C" double n(double x) noexcept {                                                       \
    if (::cuemu::detail::in_device_code()) return __nv_##n(x);                                   \
    CUEMU_HOST(n, double, double);                                                                \
    return host(x);                                                                               \
  }                                                                                               \
  extern "C" double __cuemu_host_##n(double x) noexcept {                                        \
    CUEMU_HOST(n, double, double);                                                                \
    return host(x);                                                                               \
  }
#define CUEMU_DEFINE_F_FF(n)                                                                      \
  extern "C" float n(float x, float y) noexcept {                                                \
    if (::cuemu::detail::in_device_code()) {                                                     \
      if constexpr (__builtin_strcmp(#n, "powf") == 0)                                           \
        if (::cuemu::detail::fast_math()) return __nv_fast_powf(x, y);                           \
      return __nv_##n(x, y);                                                                     \
    }                                                                                             \
    CUEMU_HOST(n, float, float, float);                                                           \
    return host(x, y);                                                                            \
  }
#define CUEMU_DEFINE_D_DD(n)                                                                      \
  extern "C" double n(double x, double y) noexcept {                                             \
    if (::cuemu::detail::in_device_code()) {                                                     \
      constexpr auto pick = ::cuemu::detail::two_nans(#n);                                       \
      return ::cuemu::detail::pick_nan(pick, x, y, __nv_##n(x, y));                              \
    }                                                                                             \
    CUEMU_HOST(n, double, double, double);                                                        \
    return host(x, y);                                                                            \
  }
#define CUEMU_DEFINE_F_FFF(n)                                                                     \
  extern "C" float n(float x, float y, float z) noexcept {                                       \
    if (::cuemu::detail::in_device_code()) return __nv_##n(x, y, z);                             \
    CUEMU_HOST(n, float, float, float, float);                                                    \
    return host(x, y, z);                                                                         \
  }                                                                                               \
  extern "C" float __cuemu_host_##n(float x, float y, float z) noexcept {                        \
    CUEMU_HOST(n, float, float, float, float);                                                    \
    return host(x, y, z);                                                                         \
  }
CUEMU_LIBM_F_F(CUEMU_DEFINE_F_F)
CUEMU_LIBM_D_D(CUEMU_DEFINE_D_D)
CUEMU_LIBM_F_FF(CUEMU_DEFINE_F_FF)
CUEMU_LIBM_D_DD(CUEMU_DEFINE_D_DD)
// fma's value is exact either way, but not its NaN operands: the GPU returns the first of a, c,
// b (as libdevice's shim does), the C library the first of a, b, c.
#define CUEMU_DEFINE_D_DDD(n)                                                                     \
  extern "C" double n(double x, double y, double z) noexcept {                                   \
    if (::cuemu::detail::in_device_code()) return __nv_##n(x, y, z);                             \
    CUEMU_HOST(n, double, double, double, double);                                                \
    return host(x, y, z);                                                                         \
  }                                                                                               \
  extern "C" double __cuemu_host_##n(double x, double y, double z) noexcept {                    \
    CUEMU_HOST(n, double, double, double, double);                                                \
    return host(x, y, z);                                                                         \
  }
CUEMU_LIBM_F_FFF(CUEMU_DEFINE_F_FFF)
CUEMU_LIBM_D_DDD(CUEMU_DEFINE_D_DDD)

// Reached by libdevice's object only: device code keeps the C library's (exact) sqrt.
extern "C" double __cuemu_host_sqrt(double x) noexcept {
  CUEMU_HOST(sqrt, double, double);
  return host(x);
}

// One signature each. long is 64 bits here, as on the GPU's Linux hosts: lrint is llrint.
#define CUEMU_DEFINE_TO_LONG(n, T, R, nv)                                                         \
  extern "C" R n(T x) noexcept {                                                                 \
    if (::cuemu::detail::in_device_code()) return static_cast<R>(nv(x));                         \
    CUEMU_HOST(n, R, T);                                                                          \
    return host(x);                                                                               \
  }
CUEMU_DEFINE_TO_LONG(lrintf, float, long, __nv_llrintf)
CUEMU_DEFINE_TO_LONG(llrintf, float, long long, __nv_llrintf)
CUEMU_DEFINE_TO_LONG(lroundf, float, long, __nv_llroundf)
CUEMU_DEFINE_TO_LONG(llroundf, float, long long, __nv_llroundf)
CUEMU_DEFINE_TO_LONG(lrint, double, long, __nv_llrint)
CUEMU_DEFINE_TO_LONG(llrint, double, long long, __nv_llrint)
CUEMU_DEFINE_TO_LONG(lround, double, long, __nv_llround)
CUEMU_DEFINE_TO_LONG(llround, double, long long, __nv_llround)

extern "C" void sincosf(float x, float* s, float* c) noexcept {
  if (::cuemu::detail::in_device_code())
    return ::cuemu::detail::fast_math() ? __nv_fast_sincosf(x, s, c) : __nv_sincosf(x, s, c);
  CUEMU_HOST(sincosf, void, float, float*, float*);
  host(x, s, c);
}
extern "C" void sincos(double x, double* s, double* c) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_sincos(x, s, c);
  CUEMU_HOST(sincos, void, double, double*, double*);
  host(x, s, c);
}
extern "C" float frexpf(float x, int* e) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_frexpf(x, e);
  CUEMU_HOST(frexpf, float, float, int*);
  return host(x, e);
}
extern "C" float modff(float x, float* i) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_modff(x, i);
  CUEMU_HOST(modff, float, float, float*);
  return host(x, i);
}
extern "C" double modf(double x, double* i) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_modf(x, i);
  CUEMU_HOST(modf, double, double, double*);
  return host(x, i);
}
extern "C" float remquof(float x, float y, int* q) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_remquof(x, y, q);
  CUEMU_HOST(remquof, float, float, float, int*);
  return host(x, y, q);
}
extern "C" double remquo(double x, double y, int* q) noexcept {
  if (::cuemu::detail::in_device_code()) {
    const double r = __nv_remquo(x, y, q);
    return ::cuemu::detail::pick_nan(::cuemu::detail::two_nans("remquo"), x, y, r);
  }
  CUEMU_HOST(remquo, double, double, double, int*);
  return host(x, y, q);
}
extern "C" int ilogbf(float x) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_ilogbf(x);  // flushes under -ftz=true
  CUEMU_HOST(ilogbf, int, float);
  return host(x);
}
extern "C" int ilogb(double x) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_ilogb(x);
  CUEMU_HOST(ilogb, int, double);
  return host(x);
}
extern "C" float ldexpf(float x, int e) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_ldexpf(x, e);
  CUEMU_HOST(ldexpf, float, float, int);
  return host(x, e);
}
extern "C" float scalbnf(float x, int e) noexcept {
  if (::cuemu::detail::in_device_code()) return __nv_scalbnf(x, e);
  CUEMU_HOST(scalbnf, float, float, int);
  return host(x, e);
}
// CUDA clamps the exponent to int's range, then scales.
extern "C" float scalblnf(float x, long e) noexcept {
  if (::cuemu::detail::in_device_code())
    return __nv_scalbnf(x, e > INT_MAX ? INT_MAX : e < INT_MIN ? INT_MIN : static_cast<int>(e));
  CUEMU_HOST(scalblnf, float, float, long);
  return host(x, e);
}
#define CUEMU_DEFINE_BESSEL_N(n, T)                                                               \
  extern "C" T n(int order, T x) noexcept {                                                      \
    if (::cuemu::detail::in_device_code()) return __nv_##n(order, x);                            \
    CUEMU_HOST(n, T, int, T);                                                                     \
    return host(order, x);                                                                        \
  }
CUEMU_DEFINE_BESSEL_N(jnf, float)
CUEMU_DEFINE_BESSEL_N(ynf, float)
CUEMU_DEFINE_BESSEL_N(jn, double)
CUEMU_DEFINE_BESSEL_N(yn, double)
