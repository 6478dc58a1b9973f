// Error state and CUDA's error names/messages.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>

#include "runtime/runtime.h"

namespace {

struct Errors : ::testing::Test {
  void SetUp() override { cuemu::detail::reset_errors_for_testing(); }
  void TearDown() override { cuemu::detail::reset_errors_for_testing(); }
};

TEST_F(Errors, NumericValuesAreCudas) {
  // Values from CUDA 13.0's driver_types.h documentation.
  EXPECT_EQ(cudaSuccess, 0);
  EXPECT_EQ(cudaErrorInvalidValue, 1);
  EXPECT_EQ(cudaErrorMemoryAllocation, 2);
  EXPECT_EQ(cudaErrorInitializationError, 3);
  EXPECT_EQ(cudaErrorInvalidConfiguration, 9);
  EXPECT_EQ(cudaErrorInvalidPitchValue, 12);
  EXPECT_EQ(cudaErrorInvalidSymbol, 13);
  EXPECT_EQ(cudaErrorInvalidDevicePointer, 17);
  EXPECT_EQ(cudaErrorInvalidMemcpyDirection, 21);
  EXPECT_EQ(cudaErrorMissingConfiguration, 52);
  EXPECT_EQ(cudaErrorInvalidDeviceFunction, 98);
  EXPECT_EQ(cudaErrorNoDevice, 100);
  EXPECT_EQ(cudaErrorInvalidDevice, 101);
  EXPECT_EQ(cudaErrorInvalidKernelImage, 200);
  EXPECT_EQ(cudaErrorNoKernelImageForDevice, 209);
  EXPECT_EQ(cudaErrorInvalidResourceHandle, 400);
  EXPECT_EQ(cudaErrorNotReady, 600);
  EXPECT_EQ(cudaErrorIllegalAddress, 700);
  EXPECT_EQ(cudaErrorLaunchOutOfResources, 701);
  EXPECT_EQ(cudaErrorLaunchTimeout, 702);
  EXPECT_EQ(cudaErrorAssert, 710);
  EXPECT_EQ(cudaErrorHostMemoryAlreadyRegistered, 712);
  EXPECT_EQ(cudaErrorHostMemoryNotRegistered, 713);
  EXPECT_EQ(cudaErrorIllegalInstruction, 715);
  EXPECT_EQ(cudaErrorMisalignedAddress, 716);
  EXPECT_EQ(cudaErrorLaunchFailure, 719);
  EXPECT_EQ(cudaErrorCooperativeLaunchTooLarge, 720);
  EXPECT_EQ(cudaErrorNotSupported, 801);
  EXPECT_EQ(cudaErrorStreamCaptureUnsupported, 900);
  EXPECT_EQ(cudaErrorTimeout, 909);
  EXPECT_EQ(cudaErrorInvalidClusterSize, 912);
  EXPECT_EQ(cudaErrorUnknown, 999);
}

TEST_F(Errors, Strings) {
  EXPECT_STREQ(cudaGetErrorString(cudaSuccess), "no error");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMemoryAllocation), "out of memory");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInitializationError), "initialization error");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidConfiguration),
               "invalid configuration argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidDevice), "invalid device ordinal");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorNoDevice), "no CUDA-capable device is detected");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorAssert), "device-side assert triggered");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorLaunchFailure), "unspecified launch failure");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorIllegalAddress),
               "an illegal memory access was encountered");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidDeviceFunction), "invalid device function");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorMisalignedAddress), "misaligned address");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorLaunchTimeout),
               "the launch timed out and was terminated");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidResourceHandle), "invalid resource handle");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorNotReady), "device not ready");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorLaunchOutOfResources),
               "too many resources requested for launch");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidPitchValue), "invalid pitch argument");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidSymbol), "invalid device symbol");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorInvalidMemcpyDirection),
               "invalid copy direction for memcpy");
  EXPECT_STREQ(cudaGetErrorString(cudaErrorUnknown), "unknown error");
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(12345)), "unrecognized error code");
  EXPECT_STREQ(cudaGetErrorString(static_cast<cudaError_t>(-1)), "unrecognized error code");
}

TEST_F(Errors, Names) {
  EXPECT_STREQ(cudaGetErrorName(cudaSuccess), "cudaSuccess");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorAssert), "cudaErrorAssert");
  EXPECT_STREQ(cudaGetErrorName(cudaErrorUnknown), "cudaErrorUnknown");
  EXPECT_STREQ(cudaGetErrorName(static_cast<cudaError_t>(12345)), "unrecognized error code");
}

TEST_F(Errors, EveryEnumeratorHasANameMatchingItsSpelling) {
  // A few spot checks that the name table and the enum agree on values.
  const cudaError_t codes[] = {cudaErrorCudartUnloading, cudaErrorStubLibrary,
                               cudaErrorDevicesUnavailable, cudaErrorECCUncorrectable,
                               cudaErrorContained, cudaErrorIllegalState,
                               cudaErrorSymbolNotFound, cudaErrorTensorMemoryLeak,
                               cudaErrorMpsClientTerminated, cudaErrorInvalidResourceConfiguration};
  const char* names[] = {"cudaErrorCudartUnloading", "cudaErrorStubLibrary",
                         "cudaErrorDevicesUnavailable", "cudaErrorECCUncorrectable",
                         "cudaErrorContained", "cudaErrorIllegalState",
                         "cudaErrorSymbolNotFound", "cudaErrorTensorMemoryLeak",
                         "cudaErrorMpsClientTerminated", "cudaErrorInvalidResourceConfiguration"};
  for (std::size_t i = 0; i < std::size(codes); ++i) {
    EXPECT_STREQ(cudaGetErrorName(codes[i]), names[i]);
    EXPECT_STRNE(cudaGetErrorString(codes[i]), "unrecognized error code");
  }
}

TEST_F(Errors, GetLastErrorReadsOnce) {
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(7), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

TEST_F(Errors, SuccessDoesNotClearTheLastError) {
  EXPECT_EQ(cudaFree(reinterpret_cast<void*>(0x1234)), cudaErrorInvalidValue);
  int n = 0;
  EXPECT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
}

TEST_F(Errors, LastErrorIsPerThread) {
  EXPECT_EQ(cudaSetDevice(3), cudaErrorInvalidDevice);
  cudaError_t other = cudaErrorUnknown;
  std::thread([&] { other = cudaGetLastError(); }).join();
  EXPECT_EQ(other, cudaSuccess);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
}

TEST_F(Errors, StickyErrorIsReturnedEveryTime) {
  cuemu::detail::set_sticky_error(cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaPeekAtLastError(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaErrorIllegalAddress);
  void* p = nullptr;
  EXPECT_EQ(cudaMalloc(&p, 16), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaMemset(p, 0, 0), cudaErrorIllegalAddress);
  cudaStream_t s;
  EXPECT_EQ(cudaStreamCreate(&s), cudaErrorIllegalAddress);
  // The first sticky error wins.
  cuemu::detail::set_sticky_error(cudaErrorAssert);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  // Another thread sees it too.
  cudaError_t other = cudaSuccess;
  std::thread([&] { other = cudaGetLastError(); }).join();
  EXPECT_EQ(other, cudaErrorIllegalAddress);
  // cudaDeviceReset keeps it.
  EXPECT_EQ(cudaDeviceReset(), cudaErrorIllegalAddress);
  EXPECT_EQ(cudaGetLastError(), cudaErrorIllegalAddress);
  // Device queries do not need a healthy context.
  int n = 0;
  EXPECT_EQ(cudaGetDeviceCount(&n), cudaSuccess);
}

}  // namespace
