// Sizes and alignments of CUDA's vector types (CUDA C++ Programming Guide, "Built-in vector
// types" alignment table; 64-bit Linux, where long is 8 bytes), make_* and dim3.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <type_traits>

#define EXPECT_LAYOUT(T, size, align)      \
  static_assert(sizeof(T) == (size), #T);  \
  static_assert(alignof(T) == (align), #T)

EXPECT_LAYOUT(char1, 1, 1);
EXPECT_LAYOUT(char2, 2, 2);
EXPECT_LAYOUT(char3, 3, 1);
EXPECT_LAYOUT(char4, 4, 4);
EXPECT_LAYOUT(uchar1, 1, 1);
EXPECT_LAYOUT(uchar2, 2, 2);
EXPECT_LAYOUT(uchar3, 3, 1);
EXPECT_LAYOUT(uchar4, 4, 4);
EXPECT_LAYOUT(short1, 2, 2);
EXPECT_LAYOUT(short2, 4, 4);
EXPECT_LAYOUT(short3, 6, 2);
EXPECT_LAYOUT(short4, 8, 8);
EXPECT_LAYOUT(ushort1, 2, 2);
EXPECT_LAYOUT(ushort2, 4, 4);
EXPECT_LAYOUT(ushort3, 6, 2);
EXPECT_LAYOUT(ushort4, 8, 8);
EXPECT_LAYOUT(int1, 4, 4);
EXPECT_LAYOUT(int2, 8, 8);
EXPECT_LAYOUT(int3, 12, 4);
EXPECT_LAYOUT(int4, 16, 16);
EXPECT_LAYOUT(uint1, 4, 4);
EXPECT_LAYOUT(uint2, 8, 8);
EXPECT_LAYOUT(uint3, 12, 4);
EXPECT_LAYOUT(uint4, 16, 16);
EXPECT_LAYOUT(long1, 8, 8);
EXPECT_LAYOUT(long2, 16, 16);
EXPECT_LAYOUT(long3, 24, 8);
EXPECT_LAYOUT(long4, 32, 16);
EXPECT_LAYOUT(ulong1, 8, 8);
EXPECT_LAYOUT(ulong2, 16, 16);
EXPECT_LAYOUT(ulong3, 24, 8);
EXPECT_LAYOUT(ulong4, 32, 16);
EXPECT_LAYOUT(longlong1, 8, 8);
EXPECT_LAYOUT(longlong2, 16, 16);
EXPECT_LAYOUT(longlong3, 24, 8);
EXPECT_LAYOUT(longlong4, 32, 16);
EXPECT_LAYOUT(ulonglong1, 8, 8);
EXPECT_LAYOUT(ulonglong2, 16, 16);
EXPECT_LAYOUT(ulonglong3, 24, 8);
EXPECT_LAYOUT(ulonglong4, 32, 16);
EXPECT_LAYOUT(float1, 4, 4);
EXPECT_LAYOUT(float2, 8, 8);
EXPECT_LAYOUT(float3, 12, 4);
EXPECT_LAYOUT(float4, 16, 16);
EXPECT_LAYOUT(double1, 8, 8);
EXPECT_LAYOUT(double2, 16, 16);
EXPECT_LAYOUT(double3, 24, 8);
EXPECT_LAYOUT(double4, 32, 16);
// CUDA 13's explicitly aligned 4-component 64-bit types.
EXPECT_LAYOUT(long4_16a, 32, 16);
EXPECT_LAYOUT(long4_32a, 32, 32);
EXPECT_LAYOUT(ulong4_32a, 32, 32);
EXPECT_LAYOUT(longlong4_32a, 32, 32);
EXPECT_LAYOUT(ulonglong4_16a, 32, 16);
EXPECT_LAYOUT(double4_16a, 32, 16);
EXPECT_LAYOUT(double4_32a, 32, 32);
EXPECT_LAYOUT(dim3, 12, 4);

static_assert(std::is_trivially_copyable_v<int4>);
static_assert(std::is_standard_layout_v<float4>);
static_assert(std::is_same_v<decltype(char1::x), signed char>);

// make_* are constexpr.
static_assert(make_int2(1, 2).y == 2);
static_assert(make_float4(1, 2, 3, 4).w == 4.0f);
static_assert(dim3(5).y == 1);

namespace {

TEST(VectorTypes, MakeFunctions) {
  const int4 a = make_int4(1, -2, 3, -4);
  EXPECT_EQ(a.x, 1);
  EXPECT_EQ(a.y, -2);
  EXPECT_EQ(a.z, 3);
  EXPECT_EQ(a.w, -4);
  const uchar3 b = make_uchar3(250, 1, 2);
  EXPECT_EQ(b.x, 250);
  const double2 c = make_double2(0.5, 1.5);
  EXPECT_EQ(c.y, 1.5);
  const ulonglong2 d = make_ulonglong2(1ull << 63, 3);
  EXPECT_EQ(d.x, 1ull << 63);
  const long4_32a e = make_long4_32a(1, 2, 3, 4);
  EXPECT_EQ(e.w, 4);
  const short1 f = make_short1(-7);
  EXPECT_EQ(f.x, -7);
  const float3 g = {1.f, 2.f, 3.f};  // aggregate initialisation works too
  EXPECT_EQ(g.z, 3.f);
}

TEST(VectorTypes, Dim3) {
  dim3 a;
  EXPECT_EQ(a.x, 1u);
  EXPECT_EQ(a.y, 1u);
  EXPECT_EQ(a.z, 1u);
  dim3 b(4, 5);
  EXPECT_EQ(b.x, 4u);
  EXPECT_EQ(b.y, 5u);
  EXPECT_EQ(b.z, 1u);
  const uint3 u = b;
  EXPECT_EQ(u.y, 5u);
  const dim3 c = make_uint3(7, 8, 9);
  EXPECT_EQ(c.z, 9u);
  dim3 d = 64;  // implicit from an integer, as in k<<<n, 64>>>
  EXPECT_EQ(d.x, 64u);
}

TEST(VectorTypes, ArraysKeepAlignment) {
  float4 v[3];
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&v[1]) % 16, 0u);
  struct S {
    char c;
    double2 d;
  };
  EXPECT_EQ(offsetof(S, d), 16u);
}

}  // namespace
