// Device count, properties, attributes, limits, versions.
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/runtime.h"

namespace {

struct Device : ::testing::Test {
  void SetUp() override { cuemu::detail::reset_errors_for_testing(); }
  void TearDown() override { cuemu::detail::reset_errors_for_testing(); }
};

int expected_cc() {
  const char* e = std::getenv("CUEMU_EXPECT_CC");
  return e ? std::atoi(e) : 90;
}

TEST_F(Device, CountAndSelection) {
  int n = 0;
  ASSERT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  EXPECT_EQ(n, 1);
  EXPECT_EQ(cudaSetDevice(0), cudaSuccess);
  int d = -1;
  EXPECT_EQ(cudaGetDevice(&d), cudaSuccess);
  EXPECT_EQ(d, 0);
  EXPECT_EQ(cudaSetDevice(1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaSetDevice(-1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetDeviceCount(nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(0), cudaSuccess);  // the usual "initialise the context" idiom
}

TEST_F(Device, PropertiesLookLikeAnH200) {
  cudaDeviceProp p;
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_EQ(std::string(p.name), "cuemu (CPU emulation of sm_" + std::to_string(expected_cc()) + ")");
  EXPECT_EQ(p.major * 10 + p.minor, expected_cc());
  EXPECT_EQ(p.warpSize, 32);
  EXPECT_EQ(p.maxThreadsPerBlock, 1024);
  EXPECT_EQ(p.maxThreadsDim[0], 1024);
  EXPECT_EQ(p.maxThreadsDim[1], 1024);
  EXPECT_EQ(p.maxThreadsDim[2], 64);
  EXPECT_EQ(p.maxGridSize[0], 2147483647);
  EXPECT_EQ(p.maxGridSize[1], 65535);
  EXPECT_EQ(p.maxGridSize[2], 65535);
  EXPECT_EQ(p.sharedMemPerBlock, 49152u);
  EXPECT_EQ(p.multiProcessorCount, 132);
  EXPECT_EQ(p.regsPerBlock, 65536);
  EXPECT_EQ(p.totalConstMem, 65536u);
  EXPECT_EQ(p.l2CacheSize, 52428800);
  EXPECT_GT(p.totalGlobalMem, std::size_t{100} << 30);
  EXPECT_EQ(p.unifiedAddressing, 1);
  EXPECT_EQ(p.managedMemory, 1);
  EXPECT_EQ(p.concurrentManagedAccess, 1);
  EXPECT_EQ(p.cooperativeLaunch, 1);
  if (expected_cc() == 90) {
    EXPECT_EQ(p.sharedMemPerBlockOptin, 232448u);
    EXPECT_EQ(p.sharedMemPerMultiprocessor, 233472u);
    EXPECT_EQ(p.maxThreadsPerMultiProcessor, 2048);
    EXPECT_EQ(p.maxBlocksPerMultiProcessor, 32);
  }
  EXPECT_EQ(cudaGetDeviceProperties(&p, 1), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetDeviceProperties(nullptr, 0), cudaErrorInvalidValue);
}

TEST_F(Device, AttributesMatchProperties) {
  cudaDeviceProp p;
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  int v = 0;
  struct {
    cudaDeviceAttr a;
    long long expect;
  } cases[] = {
      {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock},
      {cudaDevAttrMaxBlockDimZ, 64},
      {cudaDevAttrMaxGridDimX, 2147483647},
      {cudaDevAttrMaxSharedMemoryPerBlock, 49152},
      {cudaDevAttrWarpSize, 32},
      {cudaDevAttrMultiProcessorCount, 132},
      {cudaDevAttrComputeCapabilityMajor, expected_cc() / 10},
      {cudaDevAttrComputeCapabilityMinor, expected_cc() % 10},
      {cudaDevAttrMaxSharedMemoryPerBlockOptin, static_cast<long long>(p.sharedMemPerBlockOptin)},
      {cudaDevAttrMaxSharedMemoryPerMultiprocessor,
       static_cast<long long>(p.sharedMemPerMultiprocessor)},
      {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
      {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
      {cudaDevAttrL2CacheSize, p.l2CacheSize},
      {cudaDevAttrTotalConstantMemory, 65536},
      {cudaDevAttrMaxRegistersPerBlock, 65536},
      {cudaDevAttrManagedMemory, 1},
      {cudaDevAttrUnifiedAddressing, 1},
      {cudaDevAttrCooperativeLaunch, 1},
      {cudaDevAttrConcurrentManagedAccess, 1},
  };
  for (const auto& c : cases) {
    ASSERT_EQ(cudaDeviceGetAttribute(&v, c.a, 0), cudaSuccess) << c.a;
    EXPECT_EQ(v, c.expect) << "attribute " << c.a;
  }
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0), cudaSuccess);
  EXPECT_GT(v, 0);
  EXPECT_EQ(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 3), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(100000), 0),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceGetAttribute(nullptr, cudaDevAttrWarpSize, 0), cudaErrorInvalidValue);
}

TEST_F(Device, Versions) {
  int v = 0;
  EXPECT_EQ(cudaRuntimeGetVersion(&v), cudaSuccess);
  EXPECT_EQ(v, 13000);
  EXPECT_EQ(CUDART_VERSION, 13000);
  EXPECT_EQ(cudaDriverGetVersion(&v), cudaSuccess);
  EXPECT_GE(v, 13000);
}

TEST_F(Device, SynchronizeAndReset) {
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  void* p = nullptr;
  ASSERT_EQ(cudaMalloc(&p, 64), cudaSuccess);
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(5), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaFree(p), cudaErrorInvalidValue);  // already released by the reset
  EXPECT_EQ(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle);
}

TEST_F(Device, Limits) {
  std::size_t v = 0;
  EXPECT_EQ(cudaDeviceGetLimit(&v, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(v, 1024u);
  EXPECT_EQ(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize), cudaSuccess);
  EXPECT_EQ(v, 1u << 20);
  EXPECT_EQ(cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize), cudaSuccess);
  EXPECT_EQ(v, 8u << 20);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, 4096), cudaSuccess);
  EXPECT_EQ(cudaDeviceGetLimit(&v, cudaLimitStackSize), cudaSuccess);
  EXPECT_EQ(v, 4096u);
  EXPECT_EQ(cuemu::detail::device_limit(cudaLimitStackSize), 4096u);
  EXPECT_EQ(cudaDeviceSetLimit(static_cast<cudaLimit>(42), 1), cudaErrorUnsupportedLimit);
  EXPECT_EQ(cudaDeviceGetLimit(nullptr, cudaLimitStackSize), cudaErrorInvalidValue);
  EXPECT_EQ(cudaDeviceSetLimit(cudaLimitStackSize, 1024), cudaSuccess);
}

TEST_F(Device, Configs) {
  EXPECT_EQ(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared), cudaSuccess);
  cudaFuncCache c;
  EXPECT_EQ(cudaDeviceGetCacheConfig(&c), cudaSuccess);
  EXPECT_EQ(c, cudaFuncCachePreferShared);
  EXPECT_EQ(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone), cudaSuccess);
  EXPECT_EQ(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte), cudaSuccess);
  cudaSharedMemConfig m;
  EXPECT_EQ(cudaDeviceGetSharedMemConfig(&m), cudaSuccess);
  EXPECT_EQ(m, cudaSharedMemBankSizeFourByte);
  int least = 1, greatest = 1;
  EXPECT_EQ(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
  EXPECT_EQ(least, 0);
  EXPECT_LT(greatest, 0);
  EXPECT_EQ(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), cudaSuccess);
  unsigned int f = 0;
  EXPECT_EQ(cudaGetDeviceFlags(&f), cudaSuccess);
  EXPECT_EQ(f & cudaDeviceScheduleMask, unsigned{cudaDeviceScheduleBlockingSync});
  EXPECT_EQ(cudaSetDeviceFlags(0x1000), cudaErrorInvalidValue);
  EXPECT_EQ(cudaProfilerStart(), cudaSuccess);
  EXPECT_EQ(cudaProfilerStop(), cudaSuccess);
  int can = 1;
  EXPECT_EQ(cudaDeviceCanAccessPeer(&can, 0, 0), cudaSuccess);
  EXPECT_EQ(can, 0);
  // One device, no pair to describe: what an H200 alone answers, whatever the attribute.
  int p2p = -7;
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrAccessSupported, 0, 0),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&p2p, cudaDevP2PAttrPerformanceRank, 0, 1),
            cudaErrorInvalidDevice);
  EXPECT_EQ(cudaDeviceGetP2PAttribute(&p2p, static_cast<cudaDeviceP2PAttr>(99), 0, 0),
            cudaErrorInvalidDevice);
  EXPECT_EQ(p2p, -7);
  (void)cudaGetLastError();
  char bus[32];
  EXPECT_EQ(cudaDeviceGetPCIBusId(bus, sizeof bus, 0), cudaSuccess);
  int dev = -1;
  EXPECT_EQ(cudaDeviceGetByPCIBusId(&dev, bus), cudaSuccess);
  EXPECT_EQ(dev, 0);
}

TEST(Arch, ParseComputeCapability) {
  using cuemu::detail::parse_compute_capability;
  EXPECT_EQ(parse_compute_capability("sm_90"), 90);
  EXPECT_EQ(parse_compute_capability("sm_90a"), 90);
  EXPECT_EQ(parse_compute_capability("90"), 90);
  EXPECT_EQ(parse_compute_capability("compute_86"), 86);
  EXPECT_EQ(parse_compute_capability("sm_100"), 100);
  EXPECT_EQ(parse_compute_capability("8.9"), 89);
  EXPECT_EQ(parse_compute_capability("garbage"), 0);
  EXPECT_EQ(parse_compute_capability(""), 0);
}

// Run a second time by ctest with CUEMU_ARCH=sm_86 (see CMakeLists.txt).
TEST(Arch, EnvironmentSelectsTheArchitecture) {
  EXPECT_EQ(cuemu::detail::emulated_compute_capability(), expected_cc());
  cudaDeviceProp p;
  ASSERT_EQ(cudaGetDeviceProperties(&p, 0), cudaSuccess);
  EXPECT_EQ(p.major, expected_cc() / 10);
  EXPECT_EQ(p.minor, expected_cc() % 10);
  if (expected_cc() == 86) {
    EXPECT_EQ(p.sharedMemPerBlockOptin, 101376u);
    EXPECT_EQ(p.maxThreadsPerMultiProcessor, 1536);
  }
}

}  // namespace
