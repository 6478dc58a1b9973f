// Streams and events.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "runtime/runtime.h"

namespace {

struct StreamEvent : ::testing::Test {
  void SetUp() override { cuemu::detail::reset_errors_for_testing(); }
  void TearDown() override { cuemu::detail::reset_errors_for_testing(); }
};

TEST_F(StreamEvent, StreamLifecycle) {
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  EXPECT_NE(s, nullptr);
  EXPECT_TRUE(cuemu::detail::valid_stream(s));
  EXPECT_EQ(cudaStreamQuery(s), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  unsigned int flags = 7;
  EXPECT_EQ(cudaStreamGetFlags(s, &flags), cudaSuccess);
  EXPECT_EQ(flags, unsigned{cudaStreamDefault});
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_FALSE(cuemu::detail::valid_stream(s));
  EXPECT_EQ(cudaStreamDestroy(s), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamCreate(nullptr), cudaErrorInvalidValue);
}

TEST_F(StreamEvent, SpecialStreams) {
  EXPECT_TRUE(cuemu::detail::valid_stream(nullptr));
  EXPECT_TRUE(cuemu::detail::valid_stream(cudaStreamLegacy));
  EXPECT_TRUE(cuemu::detail::valid_stream(cudaStreamPerThread));
  EXPECT_FALSE(cuemu::detail::valid_stream(reinterpret_cast<cudaStream_t>(0x12345)));
  EXPECT_EQ(cudaStreamSynchronize(0), cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(cudaStreamPerThread), cudaSuccess);
  EXPECT_EQ(cudaStreamQuery(cudaStreamLegacy), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(0), cudaErrorInvalidResourceHandle);
}

TEST_F(StreamEvent, FlagsAndPriority) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
  unsigned int flags = 0;
  EXPECT_EQ(cudaStreamGetFlags(s, &flags), cudaSuccess);
  EXPECT_EQ(flags, unsigned{cudaStreamNonBlocking});
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaStreamCreateWithFlags(&s, 0x10), cudaErrorInvalidValue);
  int least = 0, greatest = 0;
  ASSERT_EQ(cudaDeviceGetStreamPriorityRange(&least, &greatest), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithPriority(&s, cudaStreamDefault, greatest), cudaSuccess);
  int prio = 1;
  EXPECT_EQ(cudaStreamGetPriority(s, &prio), cudaSuccess);
  EXPECT_EQ(prio, greatest);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithPriority(&s, cudaStreamDefault, -100), cudaSuccess);  // clamped
  EXPECT_EQ(cudaStreamGetPriority(s, &prio), cudaSuccess);
  EXPECT_EQ(prio, greatest);
  unsigned long long id1 = 0, id2 = 0;
  cudaStream_t s2;
  ASSERT_EQ(cudaStreamCreate(&s2), cudaSuccess);
  EXPECT_EQ(cudaStreamGetId(s, &id1), cudaSuccess);
  EXPECT_EQ(cudaStreamGetId(s2, &id2), cudaSuccess);
  EXPECT_NE(id1, id2);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s2), cudaSuccess);
}

TEST_F(StreamEvent, HostCallbacksRunInOrder) {
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  static int order[3];
  static int n;
  n = 0;
  static int one = 1;
  EXPECT_EQ(cudaLaunchHostFunc(s, [](void* d) { order[n++] = *static_cast<int*>(d); }, &one),
            cudaSuccess);
  EXPECT_EQ(cudaStreamAddCallback(
                s, [](cudaStream_t, cudaError_t status, void*) { order[n++] = status == cudaSuccess ? 2 : -1; },
                nullptr, 0),
            cudaSuccess);
  EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(n, 2);
  EXPECT_EQ(order[0], 1);
  EXPECT_EQ(order[1], 2);
  EXPECT_EQ(cudaLaunchHostFunc(s, nullptr, nullptr), cudaErrorInvalidValue);
  cudaStreamCaptureStatus cs = cudaStreamCaptureStatusActive;
  EXPECT_EQ(cudaStreamIsCapturing(s, &cs), cudaSuccess);
  EXPECT_EQ(cs, cudaStreamCaptureStatusNone);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

TEST_F(StreamEvent, EventTiming) {
  cudaEvent_t start, stop;
  ASSERT_EQ(cudaEventCreate(&start), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&stop), cudaSuccess);
  EXPECT_TRUE(cuemu::detail::valid_event(start));
  float ms = -1;
  // Never recorded.
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventQuery(start), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(start), cudaSuccess);
  // The stream's thread takes the time when it reaches the record: wait for that before the
  // 20 ms, so that a loaded machine cannot make the interval shorter.
  EXPECT_EQ(cudaEventSynchronize(start), cudaSuccess);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(cudaEventRecord(stop, 0), cudaSuccess);
  EXPECT_EQ(cudaEventSynchronize(stop), cudaSuccess);
  EXPECT_EQ(cudaEventQuery(stop), cudaSuccess);
  ASSERT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaSuccess);
  EXPECT_GE(ms, 19.0f);
  EXPECT_LT(ms, 2000.0f);
  float back = 0;
  ASSERT_EQ(cudaEventElapsedTime(&back, stop, start), cudaSuccess);
  EXPECT_FLOAT_EQ(back, -ms);
  EXPECT_EQ(cudaEventElapsedTime(nullptr, start, stop), cudaErrorInvalidValue);
  EXPECT_EQ(cudaEventDestroy(start), cudaSuccess);
  EXPECT_EQ(cudaEventDestroy(start), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventElapsedTime(&ms, start, stop), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventDestroy(stop), cudaSuccess);
}

TEST_F(StreamEvent, DisableTimingEvents) {
  cudaEvent_t a, b;
  ASSERT_EQ(cudaEventCreateWithFlags(&a, cudaEventDisableTiming), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&b, cudaEventBlockingSync), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(a), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(b), cudaSuccess);
  float ms = 0;
  EXPECT_EQ(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventElapsedTime(&ms, b, a), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventCreateWithFlags(&a, 0x40), cudaErrorInvalidValue);
  EXPECT_EQ(cudaEventCreateWithFlags(&a, cudaEventInterprocess), cudaErrorInvalidValue);
  EXPECT_EQ(cudaEventDestroy(b), cudaSuccess);
}

TEST_F(StreamEvent, EventsOnStreams) {
  cudaStream_t s;
  cudaEvent_t e;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  ASSERT_EQ(cudaEventCreate(&e), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(e, s), cudaSuccess);
  EXPECT_EQ(cudaStreamWaitEvent(0, e, 0), cudaSuccess);
  EXPECT_EQ(cudaStreamWaitEvent(s, e), cudaSuccess);
  EXPECT_EQ(cudaEventRecord(e, reinterpret_cast<cudaStream_t>(0x999)),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventRecord(reinterpret_cast<cudaEvent_t>(0x999), s),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaStreamWaitEvent(s, reinterpret_cast<cudaEvent_t>(0x999), 0),
            cudaErrorInvalidResourceHandle);
  EXPECT_EQ(cudaEventDestroy(e), cudaSuccess);
  EXPECT_EQ(cudaStreamDestroy(s), cudaSuccess);
}

}  // namespace
