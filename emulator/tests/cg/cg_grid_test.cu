// grid_group::sync() in a cooperative launch (cudaLaunchCooperativeKernel): every block of the
// grid waits for every other, phase after phase. In any other launch a GPU traps: the emulator
// ends the kernel with a report naming the caller's line and a sticky error, never a hang or a
// silently wrong result. (A fault makes the process exit with status 1 whatever the program
// returns.)
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "device_buffer.h"

namespace cg = cooperative_groups;

__global__ void grid_sync_kernel(int* out) {
  cg::grid_group g = cg::this_grid();
  out[g.thread_rank()] = 1;
  g.sync();  // GRID-SYNC-LINE
  out[g.thread_rank()] = 2;
}

static int line_of(const char* marker) {
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

static void run_grid_sync() {
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  grid_sync_kernel<<<2, 32>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::fprintf(stderr, "status=%s\n", cudaGetErrorName(e));
  std::exit(e == cudaSuccess ? 0 : 3);
}

TEST(CgGrid, GridSyncOutsideACooperativeLaunchIsRefusedWithTheLine) {
  EXPECT_EXIT(run_grid_sync(), testing::ExitedWithCode(1),
      "invalid grid synchronization in kernel grid_sync_kernel block \\([01],0,0\\) thread "
      "\\([0-9]+,0,0\\) at [^\n]*cg_grid_test.cu:" +
          std::to_string(line_of("GRID-SYNC-LINE")) +
          "(.|\n)*cudaLaunchCooperativeKernel(.|\n)*status=cudaErrorLaunchFailure");
}

// Each phase reads what other blocks wrote in the phase before: the sums are those of the host's
// computation only if every block waited for every other at each sync().
__global__ void phases_kernel(int* a, int* b, long long* out, int rounds) {
  cg::grid_group g = cg::this_grid();
  const unsigned long long n = g.size();
  const unsigned long long r = g.thread_rank();
  a[r] = static_cast<int>(r);
  for (int k = 0; k < rounds; ++k) {
    g.sync();
    b[r] = a[(r + 1 + 37 * k) % n] + a[(r * 7 + k) % n];
    g.sync();
    a[r] = b[(r + n - 1) % n] % 1000003;
  }
  g.sync();
  if (r == 0) {
    long long s = 0;
    for (unsigned long long i = 0; i < n; ++i) s += a[i];
    out[0] = s;
    out[1] = g.is_valid() ? 1 : 0;
  }
}

static long long phases_on_host(unsigned n, int rounds) {
  std::vector<long long> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) a[i] = i;
  for (int k = 0; k < rounds; ++k) {
    for (unsigned long long r = 0; r < n; ++r) b[r] = a[(r + 1 + 37 * k) % n] + a[(r * 7 + k) % n];
    for (unsigned long long r = 0; r < n; ++r) a[r] = b[(r + n - 1) % n] % 1000003;
  }
  long long s = 0;
  for (long long v : a) s += v;
  return s;
}

TEST(CgGrid, CooperativeLaunchSynchronisesTheWholeGrid) {
  for (unsigned blocks : {1u, 2u, 7u, 40u}) {
    const unsigned threads = 64, n = blocks * threads;
    const int rounds = 5;
    device_buffer<int> a(n), b(n);
    device_buffer<long long> out(2);
    int* pa = a.ptr;
    int* pb = b.ptr;
    long long* po = out.ptr;
    int r = rounds;
    void* args[] = {&pa, &pb, &po, &r};
    ASSERT_EQ(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(phases_kernel), dim3(blocks),
                                          dim3(threads), args, 0, nullptr),
              cudaSuccess);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    const std::vector<long long> got = out.to_host();
    EXPECT_EQ(got[0], phases_on_host(n, rounds)) << blocks << " blocks";
    EXPECT_EQ(got[1], 1) << "grid_group::is_valid() in a cooperative launch";
  }
}

// A cooperative grid larger than the device keeps resident fails to launch, as on an H200, and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor gives the largest that fits.
TEST(CgGrid, CooperativeLaunchPastTheResidencyFails) {
  int per_sm = 0, sms = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, phases_kernel, 1024, 0), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
  EXPECT_EQ(per_sm, 2);  // 2048 threads per SM on an H200
  device_buffer<int> a(64), b(64);
  device_buffer<long long> out(2);
  int* pa = a.ptr;
  int* pb = b.ptr;
  long long* po = out.ptr;
  int r = 1;
  void* args[] = {&pa, &pb, &po, &r};
  EXPECT_EQ(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(phases_kernel),
                                        dim3(per_sm * sms + 1), dim3(1024), args, 0, nullptr),
            cudaErrorCooperativeLaunchTooLarge);
  EXPECT_EQ(cudaGetLastError(), cudaErrorCooperativeLaunchTooLarge);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // not sticky
}
