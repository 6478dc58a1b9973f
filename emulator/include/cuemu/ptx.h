// What translated inline PTX calls (emulator/src/translate/ptx.h): PTX's instructions with PTX's
// rules, on the values the translator binds to the asm's operands. Registers are untyped bits:
// as<T> reinterprets a value of the same size and converts one of another size.
#pragma once

#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuemu/host_defines.h"
#include "cuemu/progress.h"
#include "cuemu/sync_functions.h"
#include "device_launch_parameters.h"

namespace cuemu::ptx {

template <class T, class U>
inline T as(const U& x) noexcept {
  if constexpr (std::is_pointer_v<U>) {
    return static_cast<T>(reinterpret_cast<std::uintptr_t>(x));
  } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<U, bool>) {
    return static_cast<T>(x);
  } else if constexpr (sizeof(T) == sizeof(U) && std::is_trivially_copyable_v<U> && !std::is_same_v<T, U>) {
    T out;
    std::memcpy(&out, &x, sizeof out);
    return out;
  } else {
    return static_cast<T>(x);
  }
}

template <class T, class U>
inline T operand(const U& x) noexcept { return as<T>(x); }

template <class U, class T>
inline void assign(U& dst, const T& v) noexcept {
  if constexpr (std::is_pointer_v<U>) {
    dst = reinterpret_cast<U>(static_cast<std::uintptr_t>(v));
  } else if constexpr (std::is_same_v<U, bool> || std::is_same_v<T, bool>) {
    dst = static_cast<U>(v);
  } else if constexpr (sizeof(T) == sizeof(U) && std::is_trivially_copyable_v<U>) {
    std::memcpy(&dst, &v, sizeof dst);
  } else {
    dst = static_cast<U>(v);
  }
}

template <class F>
inline F bits(unsigned long long b) noexcept {
  if constexpr (sizeof(F) == 4) return as<F>(static_cast<std::uint32_t>(b));
  else return as<F>(b);
}

inline void* ptr(unsigned long long base, long long offset) noexcept {
  return reinterpret_cast<void*>(static_cast<std::uintptr_t>(base + static_cast<unsigned long long>(offset)));
}

// ld/st: `order` < 0 is a weak (plain, volatile) access; otherwise atomic (sequentially
// consistent, which gives every ordering PTX's relaxed/acquire/release ask for).
// PTX orderings: 0 relaxed, 2 acquire, 3 release, 4 acq_rel, 5 sc (GCC's __ATOMIC_* values).
// Acquire and release keep their meaning (racecheck orders by them); relaxed and sc accesses are
// sequentially consistent, as CUDA's atomic functions are here.
#define CUEMU_PTX_ORDERED(ORDER, CALL)                    \
  switch (ORDER) {                                        \
    case 2: CALL(__ATOMIC_ACQUIRE); break;                \
    case 3: CALL(__ATOMIC_RELEASE); break;                \
    case 4: CALL(__ATOMIC_ACQ_REL); break;                \
    default: CALL(__ATOMIC_SEQ_CST); break;               \
  }

// cp.async: `n` bytes to `dst`, the first `src_n` of them from `src`, the rest zeros.
inline void cp_async(void* dst, const void* src, unsigned int n, unsigned int src_n) noexcept {
  const unsigned int k = src_n < n ? src_n : n;
  std::memcpy(dst, src, k);
  std::memset(static_cast<char*>(dst) + k, 0, n - k);
}

// Every load is a poll (cuemu/progress.h): libraries spin on PTX loads.
template <class T>
inline T ld(void* p, int order) noexcept {
  if (order < 0) return ::cuemu::detail::polled(p, T(*static_cast<volatile T*>(p)));
  T out;
  if (order == 2 || order == 4) __atomic_load(static_cast<T*>(p), &out, __ATOMIC_ACQUIRE);
  else __atomic_load(static_cast<T*>(p), &out, __ATOMIC_SEQ_CST);
  return ::cuemu::detail::polled(p, out);
}

template <class T>
inline void st(void* p, T v, int order) noexcept {
  if (order < 0) {
    *static_cast<volatile T*>(p) = v;
    return;
  }
  if (order == 3 || order == 4) __atomic_store(static_cast<T*>(p), &v, __ATOMIC_RELEASE);
  else __atomic_store(static_cast<T*>(p), &v, __ATOMIC_SEQ_CST);
}

// Vector loads and stores with an ordering (ld.relaxed.v2.u32, st.release.v2.u64, ...) are one
// access of the whole vector, as on the GPU, where libraries rely on it: CUB's decoupled
// look-back writes a tile's status and value as one uint2 (ulonglong2 for 8-byte values), and a
// reader that saw the new status with the old value would scan wrongly. Up to 8 bytes: one
// atomic of that width; 16 and 32 bytes: 8-byte atomics under a lock per address (x86 has no
// 16-byte atomic load without cmpxchg16b), so that such accesses are one to one another.
template <class T, int N>
struct alignas(sizeof(T) * N <= 16 ? sizeof(T) * N : 16) vec {
  T e[N];
};

template <std::size_t Bytes>
struct wide_word {
  using type = std::conditional_t<Bytes == 2, unsigned short,
               std::conditional_t<Bytes == 4, unsigned int, unsigned long long>>;
};

inline int& wide_lock(const void* p) noexcept {
  static int locks[64];
  return locks[(reinterpret_cast<std::uintptr_t>(p) >> 4) % 64];
}

template <class T, int N>
inline vec<T, N> ld_vec(void* p, int order) noexcept {
  vec<T, N> out;
  if constexpr (sizeof(out) <= 8) {
    using W = typename wide_word<sizeof(out)>::type;
    W w;
    __atomic_load(static_cast<W*>(p), &w, order == 2 || order == 4 ? __ATOMIC_ACQUIRE : __ATOMIC_SEQ_CST);
    std::memcpy(&out, &w, sizeof out);
    ::cuemu::detail::polled(p, w);
  } else {
    int& lock = wide_lock(p);
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE)) {
    }
    // Word by word as atomics under the lock: one access to each other, and to racecheck atomics.
    unsigned long long w[sizeof out / 8];
    for (std::size_t i = 0; i < sizeof out / 8; ++i)
      w[i] = __atomic_load_n(static_cast<unsigned long long*>(p) + i, order == 2 || order == 4 ? __ATOMIC_ACQUIRE : __ATOMIC_SEQ_CST);
    __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
    std::memcpy(&out, w, sizeof out);
    unsigned long long h = 0;
    std::memcpy(&h, &out, 8);
    ::cuemu::detail::polled(p, h ^ (h >> 7) ^ reinterpret_cast<const unsigned long long*>(&out)[1]);
  }
  return out;
}

template <class T, int N>
inline void st_vec(void* p, const vec<T, N>& v, int order) noexcept {
  if constexpr (sizeof(v) <= 8) {
    using W = typename wide_word<sizeof(v)>::type;
    W w;
    std::memcpy(&w, &v, sizeof w);
    __atomic_store(static_cast<W*>(p), &w, order == 3 || order == 4 ? __ATOMIC_RELEASE : __ATOMIC_SEQ_CST);
  } else {
    int& lock = wide_lock(p);
    while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE)) {
    }
    unsigned long long w[sizeof v / 8];
    std::memcpy(w, &v, sizeof v);
    for (std::size_t i = 0; i < sizeof v / 8; ++i)
      __atomic_store_n(static_cast<unsigned long long*>(p) + i, w[i], order == 3 || order == 4 ? __ATOMIC_RELEASE : __ATOMIC_SEQ_CST);
    __atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
  }
}

// Any read-modify-write as a compare-and-swap loop; returns the old value.
template <class T, class F>
inline T atom_rmw(void* p, F f, int order = 5) noexcept {
  T* q = static_cast<T*>(p);
  T old;
  __atomic_load(q, &old, __ATOMIC_SEQ_CST);
  for (;;) {
    T next = f(old);
#define CUEMU_PTX_CAS(MO) done = __atomic_compare_exchange(q, &old, &next, false, MO, __ATOMIC_RELAXED)
    bool done = false;
    CUEMU_PTX_ORDERED(order, CUEMU_PTX_CAS)
#undef CUEMU_PTX_CAS
    if (done) return ::cuemu::detail::polled(p, old);
  }
}

template <class T>
inline T atom_add(void* p, T v, int order) noexcept {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    U r;
#define CUEMU_PTX_ADD(MO) r = __atomic_fetch_add(static_cast<U*>(p), static_cast<U>(v), MO)
    CUEMU_PTX_ORDERED(order, CUEMU_PTX_ADD)
#undef CUEMU_PTX_ADD
    return ::cuemu::detail::polled(p, static_cast<T>(r));
  } else {
    return atom_rmw<T>(p, [v](T o) { return o + v; }, order);
  }
}
template <class T>
inline T atom_inc(void* p, T v, int order) noexcept {  // ((old >= v) ? 0 : old + 1)
  return atom_rmw<T>(p, [v](T o) { return o >= v ? T(0) : T(o + 1); }, order);
}
template <class T>
inline T atom_dec(void* p, T v, int order) noexcept {  // ((old == 0 || old > v) ? v : old - 1)
  return atom_rmw<T>(p, [v](T o) { return (o == 0 || o > v) ? v : T(o - 1); }, order);
}
template <class T>
inline T atom_min(void* p, T v, int order) noexcept {
  return atom_rmw<T>(p, [v](T o) { return v < o ? v : o; }, order);
}
template <class T>
inline T atom_max(void* p, T v, int order) noexcept {
  return atom_rmw<T>(p, [v](T o) { return v > o ? v : o; }, order);
}
template <class T>
inline T atom_and(void* p, T v, int order) noexcept {
  T r;
#define CUEMU_PTX_OP(MO) r = __atomic_fetch_and(static_cast<T*>(p), v, MO)
  CUEMU_PTX_ORDERED(order, CUEMU_PTX_OP)
#undef CUEMU_PTX_OP
  return ::cuemu::detail::polled(p, r);
}
template <class T>
inline T atom_or(void* p, T v, int order) noexcept {
  T r;
#define CUEMU_PTX_OP(MO) r = __atomic_fetch_or(static_cast<T*>(p), v, MO)
  CUEMU_PTX_ORDERED(order, CUEMU_PTX_OP)
#undef CUEMU_PTX_OP
  return ::cuemu::detail::polled(p, r);
}
template <class T>
inline T atom_xor(void* p, T v, int order) noexcept {
  T r;
#define CUEMU_PTX_OP(MO) r = __atomic_fetch_xor(static_cast<T*>(p), v, MO)
  CUEMU_PTX_ORDERED(order, CUEMU_PTX_OP)
#undef CUEMU_PTX_OP
  return ::cuemu::detail::polled(p, r);
}
template <class T>
inline T atom_exch(void* p, T v, int order) noexcept {
  T old;
#define CUEMU_PTX_XCHG(MO) __atomic_exchange(static_cast<T*>(p), &v, &old, MO)
  CUEMU_PTX_ORDERED(order, CUEMU_PTX_XCHG)
#undef CUEMU_PTX_XCHG
  return ::cuemu::detail::polled(p, old);
}
template <class T>
inline T atom_cas(void* p, T compare, T v, int order) noexcept {
#define CUEMU_PTX_CAS(MO) __atomic_compare_exchange(static_cast<T*>(p), &compare, &v, false, MO, __ATOMIC_RELAXED)
  CUEMU_PTX_ORDERED(order, CUEMU_PTX_CAS)
#undef CUEMU_PTX_CAS
  return ::cuemu::detail::polled(p, compare);  // the old value either way
}

// Integer arithmetic wraps, as in PTX.
template <class T>
inline T add_(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) + static_cast<std::make_unsigned_t<T>>(b));
  else return a + b;
}
template <class T>
inline T sub_(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) - static_cast<std::make_unsigned_t<T>>(b));
  else return a - b;
}
template <class T>
inline T min_(T a, T b) noexcept { return b < a ? b : a; }
template <class T>
inline T max_(T a, T b) noexcept { return a < b ? b : a; }
template <class T>
inline T and_(T a, T b) noexcept { return a & b; }
template <class T>
inline T or_(T a, T b) noexcept { return a | b; }
template <class T>
inline T xor_(T a, T b) noexcept { return a ^ b; }
template <class T>
inline T abs_(T a) noexcept {
  if constexpr (std::is_integral_v<T>) return a < 0 ? sub_<T>(T(0), a) : a;
  else return std::fabs(a);
}

template <class T>
inline T mul_lo(T a, T b) noexcept {
  if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<std::make_unsigned_t<T>>(a) * static_cast<std::make_unsigned_t<T>>(b));
  else return a * b;
}
template <class T>
inline auto mul_wide(T a, T b) noexcept {
  using W = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 2, int, long long>,
                               std::conditional_t<sizeof(T) == 2, unsigned int, unsigned long long>>;
  return static_cast<W>(static_cast<W>(a) * static_cast<W>(b));
}
template <class T>
inline T mul_hi(T a, T b) noexcept {
  if constexpr (sizeof(T) == 8) {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
  } else {
    return static_cast<T>(mul_wide<T>(a, b) >> (8 * sizeof(T)));
  }
}
template <class T>
inline T mad_lo(T a, T b, T c) noexcept { return add_<T>(mul_lo<T>(a, b), c); }
template <class T>
inline T mad_hi(T a, T b, T c) noexcept { return add_<T>(mul_hi<T>(a, b), c); }
template <class T, class W>
inline W mad_wide(T a, T b, W c) noexcept { return static_cast<W>(mul_wide<T>(a, b) + c); }

// Shifts: an amount of the width or more gives 0 (or the sign for an arithmetic right shift).
template <class T>
inline T shl(T a, unsigned int b) noexcept {
  using U = std::make_unsigned_t<T>;
  return b >= 8 * sizeof(T) ? T(0) : static_cast<T>(static_cast<U>(a) << b);
}
template <class T>
inline T shr(T a, unsigned int b) noexcept {
  if (b >= 8 * sizeof(T)) return std::is_signed_v<T> && a < 0 ? T(-1) : T(0);
  return static_cast<T>(a >> b);
}
inline unsigned int shf(unsigned int lo, unsigned int hi, unsigned int n, bool left, bool wrap) noexcept {
  n = wrap ? (n & 31u) : (n > 32u ? 32u : n);
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return left ? static_cast<unsigned int>((v << n) >> 32) : static_cast<unsigned int>(v >> n);
}

template <class T>
inline unsigned int popc(T a) noexcept { return static_cast<unsigned int>(__builtin_popcountll(static_cast<std::make_unsigned_t<T>>(a))); }
template <class T>
inline unsigned int clz(T a) noexcept {
  const auto u = static_cast<unsigned long long>(static_cast<std::make_unsigned_t<T>>(a));
  return u == 0 ? 8 * sizeof(T) : static_cast<unsigned int>(__builtin_clzll(u) - (64 - 8 * sizeof(T)));
}
template <class T>
inline T brev(T a) noexcept {
  using U = std::make_unsigned_t<T>;
  U x = static_cast<U>(a), r = 0;
  for (unsigned i = 0; i < 8 * sizeof(T); ++i, x >>= 1) r = static_cast<U>((r << 1) | (x & 1u));
  return static_cast<T>(r);
}
// The position of the most significant non-sign bit (0xffffffff when there is none); with
// .shiftamt, the left shift that would bring it to the top.
template <class T, bool ShiftAmount>
inline unsigned int bfind(T a) noexcept {
  using U = std::make_unsigned_t<T>;
  U x = static_cast<U>(a);
  if (std::is_signed_v<T> && a < 0) x = static_cast<U>(~x);
  if (x == 0) return 0xffffffffu;
  const unsigned int pos = 63u - static_cast<unsigned int>(__builtin_clzll(static_cast<unsigned long long>(x)));
  return ShiftAmount ? 8 * sizeof(T) - 1 - pos : pos;
}
template <class T>
inline T bfe(T a, unsigned int pos, unsigned int len) noexcept {
  constexpr unsigned int w = 8 * sizeof(T);
  pos &= 0xff;
  len &= 0xff;
  using U = std::make_unsigned_t<T>;
  const U x = static_cast<U>(a);
  U r = 0;
  bool sign = false;
  if (std::is_signed_v<T>) sign = len == 0 ? false : ((x >> (pos + len - 1 < w ? pos + len - 1 : w - 1)) & 1u);
  for (unsigned int i = 0; i < w; ++i) {
    bool bit;
    if (i < len && pos + i < w) bit = (x >> (pos + i)) & 1u;
    else bit = std::is_signed_v<T> ? sign : false;
    if (i >= len) bit = std::is_signed_v<T> ? sign : false;
    r = static_cast<U>(r | (static_cast<U>(bit) << i));
  }
  return static_cast<T>(r);
}
template <class T>
inline T bfi(T a, T b, unsigned int pos, unsigned int len) noexcept {
  constexpr unsigned int w = 8 * sizeof(T);
  pos &= 0xff;
  len &= 0xff;
  using U = std::make_unsigned_t<T>;
  U r = static_cast<U>(b);
  for (unsigned int i = 0; i < len && pos + i < w; ++i) {
    const U bit = static_cast<U>((static_cast<U>(a) >> i) & 1u);
    r = static_cast<U>((r & ~(static_cast<U>(1) << (pos + i))) | (bit << (pos + i)));
  }
  return static_cast<T>(r);
}
template <class T>
inline T lop3(T a, T b, T c, unsigned int lut) noexcept {
  T r = 0;
  for (unsigned int i = 0; i < 8; ++i)
    if (lut & (1u << i)) r |= ((i & 4) ? a : T(~a)) & ((i & 2) ? b : T(~b)) & ((i & 1) ? c : T(~c));
  return r;
}
// The SIMD video instructions of kLanes lanes: 4 bytes (vadd4, vsub4, vabsdiff4, vmin4, vmax4,
// vavrg4) or 2 halfwords (vadd2, ...; the default selectors: a's and b's own halfwords), signed or
// unsigned as the operands' types say. Without .add: a lane result each, saturated to the
// destination's type with .sat, else its low bits; with .add (ptxas refuses .sat there): c plus
// the lanes' results.
enum class video_op { add, sub, absdiff, min, max, avrg };
template <int kLanes>
inline unsigned int video(video_op op, unsigned int a, unsigned int b, unsigned int c,
                          bool d_signed, bool a_signed, bool b_signed, bool add, bool sat) noexcept {
  static_assert(kLanes == 2 || kLanes == 4, "2 or 4 lanes");
  constexpr int kBits = 32 / kLanes;
  constexpr unsigned int kMask = (1u << kBits) - 1u;
  const auto lane = [](unsigned int v, int i, bool is_signed) {
    const unsigned int x = (v >> (kBits * i)) & kMask;
    return is_signed && (x >> (kBits - 1)) ? static_cast<int>(x) - (1 << kBits)
                                           : static_cast<int>(x);
  };
  int sum = 0;
  unsigned int d = 0;
  for (int i = 0; i < kLanes; ++i) {
    const int x = lane(a, i, a_signed), y = lane(b, i, b_signed);
    int r;
    switch (op) {
      case video_op::add: r = x + y; break;
      case video_op::sub: r = x - y; break;
      case video_op::absdiff: r = x > y ? x - y : y - x; break;
      case video_op::min: r = x < y ? x : y; break;
      case video_op::max: r = x > y ? x : y; break;
      default: r = x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1; break;  // vavrg
    }
    sum += r;
    if (sat) {
      const int lo = d_signed ? -(1 << (kBits - 1)) : 0;
      const int hi = d_signed ? (1 << (kBits - 1)) - 1 : static_cast<int>(kMask);
      r = r < lo ? lo : r > hi ? hi : r;
    }
    d |= (static_cast<unsigned int>(r) & kMask) << (kBits * i);
  }
  return add ? c + static_cast<unsigned int>(sum) : d;
}

// prmt.b32 with a mode: 0 is the generic form (the selector's nibbles), then f4e, b4e, rc8, ecl,
// ecr, rc16 (the selector's low two bits pick a row of PTX's table).
inline unsigned int prmt(unsigned int a, unsigned int b, unsigned int c, int mode) noexcept {
  const unsigned long long v = (static_cast<unsigned long long>(b) << 32) | a;
  const auto byte = [v](unsigned int i) { return static_cast<unsigned int>((v >> (8 * (i & 7u))) & 0xffu); };
  if (mode == 0) {
    unsigned int r = 0;
    for (unsigned int k = 0; k < 4; ++k) {
      const unsigned int s = (c >> (4 * k)) & 0xfu;
      unsigned int x = byte(s & 7u);
      if (s & 8u) x = (x & 0x80u) ? 0xffu : 0u;  // sign replicate
      r |= x << (8 * k);
    }
    return r;
  }
  static const unsigned char table[6][4][4] = {  // [mode][selector][byte 0..3]
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},   // f4e
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},   // b4e
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},   // rc8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},   // ecl
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},   // ecr
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}};  // rc16
  const unsigned char* row = table[mode - 1][c & 3u];
  return byte(row[0]) | (byte(row[1]) << 8) | (byte(row[2]) << 16) | (byte(row[3]) << 24);
}

// bmsk: a mask of b bits from bit a; .clamp limits a and b to 32, .wrap takes them mod 32.
inline unsigned int bmsk(unsigned int a, unsigned int b, bool wrap) noexcept {
  a = wrap ? (a & 31u) : (a > 32u ? 32u : a);
  b = wrap ? (b & 31u) : (b > 32u ? 32u : b);
  const unsigned long long from = a >= 32u ? 0ull : (~0ull << a), to = a + b >= 32u ? 0ull : (~0ull << (a + b));
  return static_cast<unsigned int>(from & ~to & 0xffffffffull);
}

template <class T>
inline T pack(unsigned long long lo, unsigned long long hi) noexcept {
  return static_cast<T>(lo | (hi << (4 * sizeof(T))));
}

template <class To, class From>
inline To cvt(From x, const char* mode) noexcept {
  if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    const char m = mode[1] == 'z' ? 'z' : mode[1] == 'm' ? 'm' : mode[1] == 'p' ? 'p' : 'n';
    const From r = m == 'z' ? std::trunc(x) : m == 'm' ? std::floor(x) : m == 'p' ? std::ceil(x) : std::nearbyint(x);
    return static_cast<To>(r);
  } else {
    return static_cast<To>(x);
  }
}

// shfl.sync as PTX defines it: from b and c (c: segment mask in bits 12:8, clamp in 4:0) the
// source lane j and whether it is in range (else the lane's own value), mode 0 idx, 1 up,
// 2 down, 3 bfly; `in_range` receives the predicate of `d|p`.
inline unsigned int shfl(int mode, unsigned int a, unsigned int b, unsigned int c, unsigned int mask,
                         bool* in_range = nullptr) {
  const unsigned int lane = ::cuemu::detail::lane_id(), bval = b & 31u, clamp = c & 31u, seg = (c >> 8) & 31u;
  const unsigned int max_lane = (lane & seg) | (clamp & ~seg), min_lane = lane & seg;
  int j = 0;
  bool p = false;
  switch (mode) {
    case 1: j = static_cast<int>(lane) - static_cast<int>(bval); p = j >= static_cast<int>(max_lane); break;
    case 2: j = static_cast<int>(lane + bval); p = j <= static_cast<int>(max_lane); break;
    case 3: j = static_cast<int>(lane ^ bval); p = j <= static_cast<int>(max_lane); break;
    default: j = static_cast<int>(min_lane | (bval & ~seg)); p = j <= static_cast<int>(max_lane); break;
  }
  if (!p) j = static_cast<int>(lane);
  if (in_range) *in_range = p;
  return __shfl_sync(mask, a, j, 32);
}
// elect.sync: the leader is the lowest lane of the mask (all lanes of the mask take part).
inline unsigned int elect_leader(unsigned int mask) noexcept { return mask ? static_cast<unsigned int>(__builtin_ctz(mask)) : 0u; }

inline bool vote_uni(unsigned int mask, bool p) { return __all_sync(mask, p) || !__any_sync(mask, p); }

// %lanemask_eq, _lt, _le, _gt, _ge (0..4).
inline unsigned int lanemask(int which) noexcept {
  const unsigned int lane = ::cuemu::detail::lane_id();
  const unsigned int eq = 1u << lane, lt = eq - 1u, le = lt | eq;
  switch (which) {
    case 0: return eq;
    case 1: return lt;
    case 2: return le;
    case 3: return ~le;
    default: return ~lt;
  }
}
inline unsigned int warp_id() noexcept {
  return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u;
}
inline unsigned long long global_timer() noexcept {
  return static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

}  // namespace cuemu::ptx
