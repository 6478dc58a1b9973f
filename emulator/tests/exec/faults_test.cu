// Synchronisation faults end the kernel with a report naming kernel, block, thread and line,
// never a hang: a deadlock, a collective naming an exited lane, a mask without the caller, and
// two different collectives met in one warp.
#include "device_buffer.h"

#include <string>

#include "check/report.h"

namespace {

struct fault_capture {
  std::string text;
  template <class F>
  explicit fault_capture(F&& launch) {
    const int before = cuemu::detail::faults_reported();
    testing::internal::CaptureStderr();
    launch();
    // The launch is asynchronous: its fault comes from the synchronisation, and is sticky.
    const cudaError_t synchronized = cudaDeviceSynchronize();
    text = testing::internal::GetCapturedStderr();
    EXPECT_EQ(cuemu::detail::faults_reported(), before + 1) << text;
    EXPECT_EQ(synchronized, cudaErrorLaunchFailure) << "the fault is sticky";
    cuemu::detail::reset_faults_for_testing();
  }
};

// The line of the first occurrence of `marker` in this file, so that expectations follow edits.
int line_of(const char* marker) {
  FILE* f = std::fopen(__FILE__, "r");
  if (!f) return -1;
  char buf[512];
  int line = 0, found = -1;
  while (std::fgets(buf, sizeof buf, f)) {
    ++line;
    if (std::strstr(buf, marker) && !std::strstr(buf, "line_of(")) { found = line; break; }
  }
  std::fclose(f);
  return found;
}

}  // namespace

__global__ void divergent_deadlock(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads();  // MARK-A
  } else {
    out[threadIdx.x] = __shfl_sync(0xffffffffu, 1, 0) + __shfl_sync(0xffffffffu, 2, 0);  // MARK-B
  }
}

TEST(Faults, AnExitedWarpLetsTheBarrierComplete) {
  device_buffer<int> out(64);
  // Warp 0 waits at the barrier; warp 1 passes its shuffles and exits, and exited threads count
  // as arrived: a correct program, no report.
  divergent_deadlock<<<1, 64>>>(out.ptr);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}

__global__ void barrier_vs_shuffle(int* out) {
  // Lanes 0..15 of warp 0 wait at a barrier, lanes 16..31 at a shuffle naming the whole warp.
  if (threadIdx.x < 16) __syncthreads();  // MARK-C
  else out[threadIdx.x] = __shfl_sync(0xffffffffu, 7, 3);  // MARK-D
}

TEST(Faults, DeadlockReportNamesKernelBlockThreadAndLine) {
  device_buffer<int> out(32);
  fault_capture c([&] { barrier_vs_shuffle<<<dim3(1, 1, 1), 32>>>(out.ptr); });
  const std::string header_prefix = "cuemu: deadlock in kernel barrier_vs_shuffle block (";
  EXPECT_NE(c.text.find(header_prefix), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("thread (16,0,0) at "), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("faults_test.cu:" + std::to_string(line_of("MARK-D"))), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("waits in __syncthreads at "), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("faults_test.cu:" + std::to_string(line_of("MARK-C"))), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("cannot complete: lane 0 of its warp"), std::string::npos) << c.text;
}

__global__ void deadlock_after_an_exited_warp(int* out) {
  // Warp 0 runs to its end without synchronising; in warp 1, lane 3 waits at the barrier while
  // the rest of warp 1 waits for it at a __syncwarp.
  if (threadIdx.x < 32) { out[threadIdx.x] = 1; return; }
  if (threadIdx.x == 35) __syncthreads();
  else __syncwarp();  // MARK-Z
}

TEST(Faults, DeadlockReportLeavesOutAWarpThatExitedWithoutSyncing) {
  device_buffer<int> out(64);
  fault_capture c([&] { deadlock_after_an_exited_warp<<<1, 64>>>(out.ptr); });
  EXPECT_NE(c.text.find("cuemu: deadlock in kernel deadlock_after_an_exited_warp"), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("faults_test.cu:" + std::to_string(line_of("MARK-Z"))), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("cannot complete: lane 3 of its warp"), std::string::npos) << c.text;
  EXPECT_EQ(c.text.find("thread (0,0,0)"), std::string::npos) << c.text;
  EXPECT_EQ(c.text.find("threads (0,0,0)"), std::string::npos) << c.text;
  EXPECT_EQ(c.text.find("has not started"), std::string::npos) << c.text;
}

__global__ void exited_lane_in_mask(int* out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);  // MARK-E
}

TEST(Faults, MaskNamingAnExitedLane) {
  device_buffer<int> out(32);
  fault_capture c([&] { exited_lane_in_mask<<<1, 32>>>(out.ptr); });
  EXPECT_NE(c.text.find("cuemu: invalid warp synchronization in kernel exited_lane_in_mask block (0,0,0)"),
            std::string::npos) << c.text;
  EXPECT_NE(c.text.find("faults_test.cu:" + std::to_string(line_of("MARK-E"))), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("names lane 5 (thread (5,0,0)), which has exited"), std::string::npos) << c.text;
}

__global__ void caller_not_in_mask(int* out) {
  const unsigned lane = threadIdx.x % 32;
  // A full-warp mask used in a half-warp branch is fine; a half mask used by the other half is not.
  if (lane >= 16) out[lane] = __ballot_sync(0x0000ffffu, 1);  // MARK-F
}

TEST(Faults, MaskWithoutTheCallingLane) {
  device_buffer<int> out(32);
  fault_capture c([&] { caller_not_in_mask<<<1, 32>>>(out.ptr); });
  EXPECT_NE(c.text.find("cuemu: invalid warp synchronization in kernel caller_not_in_mask block (0,0,0) thread (16,0,0) at "),
            std::string::npos) << c.text;
  EXPECT_NE(c.text.find("faults_test.cu:" + std::to_string(line_of("MARK-F"))), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("does not name the calling lane"), std::string::npos) << c.text;
}

__global__ void mismatched_collectives(int* out) {
  if (threadIdx.x % 2) out[threadIdx.x] = __ballot_sync(0xffffffffu, 1);  // MARK-G
  else out[threadIdx.x] = __any_sync(0xffffffffu, 1);  // MARK-H
}

TEST(Faults, DifferentCollectivesInOneWarp) {
  device_buffer<int> out(32);
  fault_capture c([&] { mismatched_collectives<<<1, 32>>>(out.ptr); });
  EXPECT_NE(c.text.find("cuemu: warp collective mismatch in kernel mismatched_collectives"), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("__ballot_sync"), std::string::npos) << c.text;
  EXPECT_NE(c.text.find("__any_sync"), std::string::npos) << c.text;
}

template <int N>
__global__ void templated_deadlock() {
  if (threadIdx.x == 0) __syncwarp(0x3u);  // lane 1 never arrives: it waits at the barrier
  __syncthreads();
}

TEST(Faults, TemplateKernelNamedWithItsArguments) {
  fault_capture c([&] { templated_deadlock<7><<<1, 2>>>(); });
  EXPECT_NE(c.text.find("cuemu: deadlock in kernel templated_deadlock<7> block (0,0,0) thread (0,0,0)"),
            std::string::npos) << c.text;
}

TEST(Faults, LaterLaunchesRunAfterAReset) {
  device_buffer<int> out(32);
  exited_lane_in_mask<<<1, 0>>>(out.ptr);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidValue);
  divergent_deadlock<<<1, 64>>>(out.ptr);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
}
