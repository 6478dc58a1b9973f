// Bit views of floats and doubles, shared by shim.c and sfu.c (both compiled into libdevice's
// object by build.py).
#ifndef CUEMU_LIBDEVICE_BITS_H
#define CUEMU_LIBDEVICE_BITS_H
#include <stdint.h>
#include <string.h>

typedef uint32_t u32;
typedef uint64_t u64;

static inline u32 fbits(float f) { u32 u; memcpy(&u, &f, 4); return u; }
static inline float bitsf(u32 u) { float f; memcpy(&f, &u, 4); return f; }
static inline u64 dbits(double d) { u64 u; memcpy(&u, &d, 8); return u; }
static inline double bitsd(u64 u) { double d; memcpy(&d, &u, 8); return d; }
#endif
