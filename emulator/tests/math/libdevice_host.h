// The C library functions that libdevice's object calls (emulator/src/libdevice/build.py renames
// them __cuemu_host_NAME), defined as the C library's own for the programs that link the object
// directly on a GPU machine (exhaustive/exhaustive.cu, sfu/sfu_check.cu). Include inside
// extern "C", after <cmath>. In the emulator, the runtime defines them.

float __cuemu_host_ceilf(float x) { return ceilf(x); }
float __cuemu_host_floorf(float x) { return floorf(x); }
float __cuemu_host_fmaf(float a, float b, float c) { return fmaf(a, b, c); }
float __cuemu_host_rintf(float x) { return rintf(x); }
float __cuemu_host_sqrtf(float x) { return sqrtf(x); }
float __cuemu_host_tanhf(float x) { return tanhf(x); }
float __cuemu_host_truncf(float x) { return truncf(x); }
double __cuemu_host_ceil(double x) { return ceil(x); }
double __cuemu_host_floor(double x) { return floor(x); }
double __cuemu_host_fma(double a, double b, double c) { return fma(a, b, c); }
double __cuemu_host_rint(double x) { return rint(x); }
double __cuemu_host_sqrt(double x) { return sqrt(x); }
double __cuemu_host_trunc(double x) { return trunc(x); }
// libdevice's build for nvcc's default floating-point flags (src/libdevice/variants.py).
int __cuemu_device_fp_mode = 0;
