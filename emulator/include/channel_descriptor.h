// cudaCreateChannelDesc<T>(): the channel format of an element type.
#pragma once

#include <type_traits>

#include "texture_types.h"
#include "vector_types.h"

namespace cuemu::detail {
template <class S>
constexpr cudaChannelFormatKind channel_kind() {
  return std::is_floating_point_v<S> ? cudaChannelFormatKindFloat
         : std::is_signed_v<S>       ? cudaChannelFormatKindSigned
                                     : cudaChannelFormatKindUnsigned;
}
template <class T>
struct channels {  // a scalar
  using scalar = T;
  static constexpr int n = 1;
};
#define CUEMU_CHANNELS(V, S, N) \
  template <>                   \
  struct channels<V> {          \
    using scalar = S;           \
    static constexpr int n = N; \
  };
CUEMU_CHANNELS(char1, signed char, 1) CUEMU_CHANNELS(char2, signed char, 2) CUEMU_CHANNELS(char4, signed char, 4)
CUEMU_CHANNELS(uchar1, unsigned char, 1) CUEMU_CHANNELS(uchar2, unsigned char, 2) CUEMU_CHANNELS(uchar4, unsigned char, 4)
CUEMU_CHANNELS(short1, short, 1) CUEMU_CHANNELS(short2, short, 2) CUEMU_CHANNELS(short4, short, 4)
CUEMU_CHANNELS(ushort1, unsigned short, 1) CUEMU_CHANNELS(ushort2, unsigned short, 2) CUEMU_CHANNELS(ushort4, unsigned short, 4)
CUEMU_CHANNELS(int1, int, 1) CUEMU_CHANNELS(int2, int, 2) CUEMU_CHANNELS(int4, int, 4)
CUEMU_CHANNELS(uint1, unsigned int, 1) CUEMU_CHANNELS(uint2, unsigned int, 2) CUEMU_CHANNELS(uint4, unsigned int, 4)
CUEMU_CHANNELS(float1, float, 1) CUEMU_CHANNELS(float2, float, 2) CUEMU_CHANNELS(float4, float, 4)
#undef CUEMU_CHANNELS
}  // namespace cuemu::detail

template <class T>
inline cudaChannelFormatDesc cudaCreateChannelDesc() {
  using C = ::cuemu::detail::channels<T>;
  constexpr int bits = 8 * sizeof(typename C::scalar);
  return cudaChannelFormatDesc{bits, C::n > 1 ? bits : 0, C::n > 2 ? bits : 0, C::n > 3 ? bits : 0,
                               ::cuemu::detail::channel_kind<typename C::scalar>()};
}

// 16-bit float channels (read as float by textures).
inline cudaChannelFormatDesc cudaCreateChannelDescHalf() {
  return cudaChannelFormatDesc{16, 0, 0, 0, cudaChannelFormatKindFloat};
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf1() { return cudaCreateChannelDescHalf(); }
inline cudaChannelFormatDesc cudaCreateChannelDescHalf2() {
  return cudaChannelFormatDesc{16, 16, 0, 0, cudaChannelFormatKindFloat};
}
inline cudaChannelFormatDesc cudaCreateChannelDescHalf4() {
  return cudaChannelFormatDesc{16, 16, 16, 16, cudaChannelFormatKindFloat};
}
