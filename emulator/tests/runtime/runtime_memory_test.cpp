// Allocation, copies, memsets, symbols and pointer attributes.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <cstring>
#include <vector>

#include "runtime/runtime.h"

__device__ int d_value;
__constant__ float c_table[8];

namespace {

struct Memory : ::testing::Test {
  void SetUp() override { cuemu::detail::reset_errors_for_testing(); }
  void TearDown() override { cuemu::detail::reset_errors_for_testing(); }
};

TEST_F(Memory, MallocIsAlignedAndTracked) {
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 1000), cudaSuccess);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 256, 0u);
  const auto* a = cuemu::detail::find_allocation(static_cast<char*>(p) + 999);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->base, reinterpret_cast<std::uintptr_t>(p));
  EXPECT_EQ(a->size, 1000u);
  EXPECT_EQ(a->kind, cuemu::detail::memory_kind::device);
  EXPECT_FALSE(a->freed);
  EXPECT_EQ(cuemu::detail::find_allocation(static_cast<char*>(p) + 1000), nullptr);
  ASSERT_EQ(cudaFree(p), cudaSuccess);
  auto rec = cuemu::detail::lookup_allocation(p);
  ASSERT_TRUE(rec.has_value());
  EXPECT_TRUE(rec->freed);
}

TEST_F(Memory, TypedMalloc) {
  float* f = nullptr;
  ASSERT_EQ(cudaMalloc(&f, 4 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(cudaFree(f), cudaSuccess);
}

TEST_F(Memory, MallocZeroAndNull) {
  void* p = reinterpret_cast<void*>(1);
  EXPECT_EQ(cudaMalloc(&p, 0), cudaSuccess);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(cudaMalloc(nullptr, 16), cudaErrorInvalidValue);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST_F(Memory, ImpossibleMallocIsOutOfMemory) {
  void* p = reinterpret_cast<void*>(1);
  EXPECT_EQ(cudaMalloc(&p, std::size_t{1} << 62), cudaErrorMemoryAllocation);
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(cudaGetLastError(), cudaErrorMemoryAllocation);
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_EQ(cudaMalloc(&p, prop.totalGlobalMem + 1), cudaErrorMemoryAllocation);
  EXPECT_EQ(cudaMalloc(&p, ~std::size_t{0}), cudaErrorMemoryAllocation);
  // Not sticky: the next allocation works.
  cudaGetLastError();
  ASSERT_EQ(cudaMalloc(&p, 64), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaSuccess);
}

TEST_F(Memory, FreeErrors) {
  EXPECT_EQ(cudaFree(nullptr), cudaSuccess);
  int host = 0;
  EXPECT_EQ(cudaFree(&host), cudaErrorInvalidValue);
  std::vector<int> heap(10);
  EXPECT_EQ(cudaFree(heap.data()), cudaErrorInvalidValue);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 512), cudaSuccess);
  EXPECT_EQ(cudaFree(static_cast<char*>(p) + 4), cudaErrorInvalidValue);  // not the base
  EXPECT_EQ(cudaFree(p), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaErrorInvalidValue);  // double free
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST_F(Memory, HostAllocations) {
  void* h = nullptr;
  ASSERT_EQ(cudaMallocHost(&h, 100), cudaSuccess);
  EXPECT_EQ(cudaFree(h), cudaErrorInvalidValue);  // pinned memory is freed with cudaFreeHost
  unsigned int flags = 99;
  EXPECT_EQ(cudaHostGetFlags(&flags, h), cudaSuccess);
  EXPECT_EQ(flags, 0u);
  void* dp = nullptr;
  EXPECT_EQ(cudaHostGetDevicePointer(&dp, h, 0), cudaSuccess);
  EXPECT_EQ(dp, h);
  EXPECT_EQ(cudaFreeHost(h), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(h), cudaErrorInvalidValue);

  double* hd = nullptr;
  ASSERT_EQ(cudaHostAlloc(&hd, 64, cudaHostAllocMapped | cudaHostAllocPortable), cudaSuccess);
  EXPECT_EQ(cudaHostGetFlags(&flags, hd), cudaSuccess);
  EXPECT_EQ(flags, unsigned{cudaHostAllocMapped | cudaHostAllocPortable});
  EXPECT_EQ(cudaFreeHost(hd), cudaSuccess);
  EXPECT_EQ(cudaHostAlloc(&h, 64, 0x100), cudaErrorInvalidValue);

  void* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 16), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(d), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  int local = 0;
  EXPECT_EQ(cudaFreeHost(&local), cudaErrorInvalidValue);
}

TEST_F(Memory, HostRegister) {
  std::vector<char> buf(4096);
  ASSERT_EQ(cudaHostRegister(buf.data(), buf.size(), cudaHostRegisterDefault), cudaSuccess);
  EXPECT_EQ(cudaHostRegister(buf.data() + 100, 10, 0), cudaErrorHostMemoryAlreadyRegistered);
  cudaPointerAttributes attr;
  ASSERT_EQ(cudaPointerGetAttributes(&attr, buf.data() + 10), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost);
  EXPECT_EQ(cudaHostUnregister(buf.data()), cudaSuccess);
  EXPECT_EQ(cudaHostUnregister(buf.data()), cudaErrorHostMemoryNotRegistered);
  EXPECT_EQ(cudaHostRegister(nullptr, 10, 0), cudaErrorInvalidValue);
}

TEST_F(Memory, Managed) {
  int* m = nullptr;
  ASSERT_EQ(cudaMallocManaged(&m, 10 * sizeof(int)), cudaSuccess);
  for (int i = 0; i < 10; ++i) m[i] = i;  // host-accessible
  cudaPointerAttributes attr;
  ASSERT_EQ(cudaPointerGetAttributes(&attr, m), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeManaged);
  EXPECT_EQ(attr.devicePointer, m);
  EXPECT_EQ(attr.hostPointer, m);
  cudaMemLocation loc{cudaMemLocationTypeDevice, 0};
  EXPECT_EQ(cudaMemPrefetchAsync(m, 10 * sizeof(int), loc, 0), cudaSuccess);
  int out[10];
  EXPECT_EQ(cudaMemcpy(out, m, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(out[9], 9);
  EXPECT_EQ(cudaFree(m), cudaSuccess);
  EXPECT_EQ(cudaMallocManaged(&m, 0), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMallocManaged(&m, 4, 0x10), cudaErrorInvalidValue);
}

TEST_F(Memory, MemGetInfoTracksDeviceBytes) {
  std::size_t free0 = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free0, &total), cudaSuccess);
  cudaDeviceProp prop;
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  EXPECT_EQ(total, prop.totalGlobalMem);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 1 << 20), cudaSuccess);
  std::size_t free1 = 0;
  ASSERT_EQ(cudaMemGetInfo(&free1, nullptr), cudaSuccess);
  EXPECT_EQ(free0 - free1, std::size_t{1} << 20);
  ASSERT_EQ(cudaFree(p), cudaSuccess);
  ASSERT_EQ(cudaMemGetInfo(&free1, nullptr), cudaSuccess);
  EXPECT_EQ(free1, free0);
}

TEST_F(Memory, CopiesRoundTrip) {
  std::vector<int> h(256), back(256, -1);
  for (int i = 0; i < 256; ++i) h[i] = i * 3;
  int *d1 = nullptr, *d2 = nullptr;
  ASSERT_EQ(cudaMalloc(&d1, 1024), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d2, 1024), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d1, h.data(), 1024, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(d2, d1, 1024, cudaMemcpyDeviceToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(back.data(), d2, 1024, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, h);
  std::fill(back.begin(), back.end(), 0);
  EXPECT_EQ(cudaMemcpyAsync(back.data(), d2, 1024, cudaMemcpyDefault), cudaSuccess);
  EXPECT_EQ(back, h);
  EXPECT_EQ(cudaMemset(d1, 0xFF, 1024), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(back.data(), d1, 1024, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[17], -1);
  EXPECT_EQ(cudaMemsetAsync(d1 + 1, 0, 4, 0), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(back.data(), d1, 1024, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[0], -1);
  EXPECT_EQ(back[1], 0);
  EXPECT_EQ(back[2], -1);
  EXPECT_EQ(cudaFree(d1), cudaSuccess);
  EXPECT_EQ(cudaFree(d2), cudaSuccess);
}

TEST_F(Memory, CopyValidation) {
  int h[64] = {};
  int* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, sizeof h), cudaSuccess);
  // Null pointers with a non-zero count.
  EXPECT_EQ(cudaMemcpy(nullptr, h, 4, cudaMemcpyHostToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, nullptr, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyHostToDevice), cudaSuccess);
  // Direction mismatches.
  EXPECT_EQ(cudaMemcpy(h, d, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, h, 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(h, h + 8, 4, cudaMemcpyDeviceToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, h, 4, static_cast<cudaMemcpyKind>(9)), cudaErrorInvalidMemcpyDirection);
  // Out of the allocation's bounds.
  EXPECT_EQ(cudaMemcpy(d + 1, h, sizeof h, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemset(d, 0, sizeof h + 1), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemset(h, 0, 4), cudaErrorInvalidValue);  // pageable host memory
  EXPECT_EQ(cudaMemset(nullptr, 0, 4), cudaErrorInvalidValue);
  // Host-to-host is plain memory.
  int a = 5, b = 0;
  EXPECT_EQ(cudaMemcpy(&b, &a, sizeof a, cudaMemcpyHostToHost), cudaSuccess);
  EXPECT_EQ(b, 5);
  // Invalid stream.
  EXPECT_EQ(cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice,
                            reinterpret_cast<cudaStream_t>(0xdead0)),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  // Use after free.
  EXPECT_EQ(cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice), cudaErrorInvalidValue);
}

TEST_F(Memory, PinnedMemoryWorksAsEitherSide) {
  int* p = nullptr;
  int* d = nullptr;
  ASSERT_EQ(cudaMallocHost(&p, 64), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d, 64), cudaSuccess);
  p[0] = 42;
  EXPECT_EQ(cudaMemcpy(d, p, 64, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(p + 1, d, 4, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(p[1], 42);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
  EXPECT_EQ(cudaFreeHost(p), cudaSuccess);
}

TEST_F(Memory, Pitched) {
  void* d = nullptr;
  std::size_t pitch = 0;
  ASSERT_EQ(cudaMallocPitch(&d, &pitch, 100, 7), cudaSuccess);
  EXPECT_GE(pitch, 100u);
  EXPECT_EQ(pitch % 256, 0u);
  char src[7][100];
  for (int r = 0; r < 7; ++r) std::memset(src[r], 'a' + r, 100);
  EXPECT_EQ(cudaMemcpy2D(d, pitch, src, 100, 100, 7, cudaMemcpyHostToDevice), cudaSuccess);
  char dst[7][50] = {};
  EXPECT_EQ(cudaMemcpy2D(dst, 50, d, pitch, 50, 7, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(dst[3][49], 'd');
  EXPECT_EQ(cudaMemcpy2D(dst, 40, d, pitch, 50, 7, cudaMemcpyDeviceToHost),
            cudaErrorInvalidPitchValue);
  EXPECT_EQ(cudaMemset2D(d, pitch, 'z', 10, 7), cudaSuccess);
  EXPECT_EQ(cudaMemcpy2DAsync(dst, 50, d, pitch, 50, 7, cudaMemcpyDeviceToHost, 0), cudaSuccess);
  EXPECT_EQ(dst[6][9], 'z');
  EXPECT_EQ(dst[6][10], 'g');
  EXPECT_EQ(cudaMemcpy2D(d, pitch, src, 100, 100, 8, cudaMemcpyHostToDevice),
            cudaErrorInvalidValue);  // one row too many
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST_F(Memory, Symbols) {
  const int v = 1234;
  EXPECT_EQ(cudaMemcpyToSymbol(d_value, &v, sizeof v), cudaSuccess);
  EXPECT_EQ(d_value, 1234);
  int back = 0;
  EXPECT_EQ(cudaMemcpyFromSymbol(&back, d_value, sizeof back), cudaSuccess);
  EXPECT_EQ(back, 1234);
  const float t[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(cudaMemcpyToSymbol(c_table, t, sizeof t), cudaSuccess);
  EXPECT_EQ(cudaMemcpyToSymbol(c_table, t, 2 * sizeof(float), 6 * sizeof(float)), cudaSuccess);
  EXPECT_EQ(c_table[7], 1.0f);
  // Past the end of the symbol.
  EXPECT_EQ(cudaMemcpyToSymbol(c_table, t, sizeof t, sizeof(float)), cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbolAsync(c_table, t, 4, 0, cudaMemcpyHostToDevice, 0), cudaSuccess);
  EXPECT_EQ(cudaMemcpyToSymbol(c_table, t, 4, 0, cudaMemcpyDeviceToHost),
            cudaErrorInvalidMemcpyDirection);
  std::size_t size = 0;
  EXPECT_EQ(cudaGetSymbolSize(&size, c_table), cudaSuccess);
  EXPECT_EQ(size, sizeof(float) * 8);
  void* addr = nullptr;
  EXPECT_EQ(cudaGetSymbolAddress(&addr, c_table), cudaSuccess);
  EXPECT_EQ(addr, static_cast<void*>(c_table));
  // The symbol's address works as device memory in plain copies, with bounds.
  float out[8];
  EXPECT_EQ(cudaMemcpy(out, addr, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(out[7], 1.0f);
  EXPECT_EQ(cudaMemcpy(out, addr, sizeof out + 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue);
  // The C API (void*) with a symbol whose size is known.
  EXPECT_EQ(cudaMemcpyToSymbol(static_cast<const void*>(c_table), t, sizeof t + 4),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToSymbol(static_cast<const void*>(nullptr), t, 4),
            cudaErrorInvalidSymbol);
}

TEST_F(Memory, PointerAttributes) {
  void* d = nullptr;
  ASSERT_EQ(cudaMalloc(&d, 64), cudaSuccess);
  cudaPointerAttributes attr;
  ASSERT_EQ(cudaPointerGetAttributes(&attr, static_cast<char*>(d) + 8), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeDevice);
  EXPECT_EQ(attr.device, 0);
  EXPECT_EQ(attr.devicePointer, static_cast<char*>(d) + 8);
  EXPECT_EQ(attr.hostPointer, nullptr);
  int local = 0;
  ASSERT_EQ(cudaPointerGetAttributes(&attr, &local), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeUnregistered);
  EXPECT_EQ(cudaPointerGetAttributes(nullptr, d), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(d), cudaSuccess);
}

TEST_F(Memory, AsyncAllocation) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  float* p = nullptr;
  ASSERT_EQ(cudaMallocAsync(&p, 128, s), cudaSuccess);
  EXPECT_EQ(cudaMemsetAsync(p, 0, 128, s), cudaSuccess);
  EXPECT_EQ(cudaFreeAsync(p, s), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaMallocAsync(&p, 128, s), cudaErrorInvalidResourceHandle);
}

TEST_F(Memory, ManyThreadsAllocate) {
  std::vector<std::thread> ts;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        void* p = nullptr;
        if (cudaMalloc(&p, 64 + i) != cudaSuccess) ++failures;
        if (cudaMemset(p, 1, 64 + i) != cudaSuccess) ++failures;
        if (cudaFree(p) != cudaSuccess) ++failures;
      }
    });
  for (auto& t : ts) t.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace

// The deprecated 1D array copies: count bytes from (wOffset, hOffset), row after row, through a
// stream and between arrays; checked against a host model of the array's rows.
TEST(ArrayCopies, LinearSpansThroughStreamsAndBetweenArrays) {
  cuemu::detail::reset_errors_for_testing();
  constexpr int kW = 64, kH = 8;
  const cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t a = nullptr, b = nullptr;
  ASSERT_EQ(cudaMallocArray(&a, &desc, kW, kH), cudaSuccess);
  ASSERT_EQ(cudaMallocArray(&b, &desc, kW, kH), cudaSuccess);
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  std::vector<unsigned char> model(kW * kH), back(kW * kH);
  for (int i = 0; i < kW * kH; ++i) model[i] = static_cast<unsigned char>(i * 7 + 3);
  // Whole rows from the start, then a part of row 3.
  ASSERT_EQ(cudaMemcpyToArrayAsync(a, 0, 0, model.data(), kW * kH, cudaMemcpyHostToDevice, s),
            cudaSuccess);
  std::vector<unsigned char> part(20);
  for (int i = 0; i < 20; ++i) part[i] = static_cast<unsigned char>(200 + i);
  ASSERT_EQ(cudaMemcpyToArrayAsync(a, 10, 3, part.data(), 20, cudaMemcpyHostToDevice, s),
            cudaSuccess);
  std::memcpy(&model[3 * kW + 10], part.data(), 20);
  ASSERT_EQ(cudaMemcpyFromArrayAsync(back.data(), a, 0, 0, kW * kH, cudaMemcpyDeviceToHost, s),
            cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(back, model);
  // Rows 2..5 of a to rows 1..4 of b, and 16 bytes of a's row 7 (from byte 40) to b's row 0.
  ASSERT_EQ(cudaMemcpyToArray(b, 0, 0, std::vector<unsigned char>(kW * kH, 0).data(), kW * kH,
                              cudaMemcpyHostToDevice),
            cudaSuccess);
  ASSERT_EQ(cudaMemcpyArrayToArray(b, 0, 1, a, 0, 2, 4 * kW), cudaSuccess);
  ASSERT_EQ(cudaMemcpyArrayToArray(b, 5, 0, a, 40, 7, 16), cudaSuccess);
  std::vector<unsigned char> expect(kW * kH, 0);
  std::memcpy(&expect[1 * kW], &model[2 * kW], 4 * kW);
  std::memcpy(&expect[5], &model[7 * kW + 40], 16);
  ASSERT_EQ(cudaMemcpyFromArray(back.data(), b, 0, 0, kW * kH, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back, expect);
  // A part of a row that runs past the row's end, and a span past the array's last row.
  EXPECT_EQ(cudaMemcpyFromArrayAsync(back.data(), a, 60, 0, 8, cudaMemcpyDeviceToHost, s),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyToArrayAsync(a, 0, 6, model.data(), 3 * kW, cudaMemcpyHostToDevice, s),
            cudaErrorInvalidValue);
  cudaGetLastError();
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaFreeArray(a), cudaSuccess);
  EXPECT_EQ(cudaFreeArray(b), cudaSuccess);
}
