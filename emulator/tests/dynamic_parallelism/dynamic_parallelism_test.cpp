// Dynamic parallelism on the emulator against what an H200 prints for the same programs
// (expected/, recorded with the commands in expected/README.md): child grids and their order,
// device-side streams, events, tail and fire-and-forget launches, copies and the device heap,
// launch errors and the pending-launch limit; and the checkers inside child grids.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <string>

namespace {

class DynamicParallelism : public ::testing::TestWithParam<recorded_case> {};

TEST_P(DynamicParallelism, PrintsWhatTheGpuPrints) {
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

INSTANTIATE_TEST_SUITE_P(
    Programs, DynamicParallelism,
    ::testing::Values(recorded_case{"cdp", ""}, recorded_case{"cdp", "--workers=1"},
                      recorded_case{"cdp", "--streams=sync"},
                      recorded_case{"cdp", "--schedule=reverse"},
                      recorded_case{"cdp", "--schedule=random:7"},
                      recorded_case{"cdp", "--check=memcheck"},
                      recorded_case{"cdp", "--check=racecheck,synccheck"}),
    recorded_case_name);

std::string bugs(int bug) { return program("cdp_bugs.cu") + " -DBUG=" + std::to_string(bug); }
std::string expected_bugs(int bug) {
  return expected(("cdp_bugs_" + std::to_string(bug)).c_str());
}

// Unchecked, each mutation prints what the H200 printed. Only a device-side free of host memory
// is a fault the GPU shows (cudaErrorIllegalAddress); the emulator reports it and fails.
TEST(DynamicParallelismBugs, UncheckedPrintWhatTheGpuPrints) {
  for (int bug : {0, 1, 2, 3}) {
    const cuemu_result r = run_cuemu("run " + bugs(bug) + " 2>/dev/null; exit $?");
    EXPECT_EQ(r.out, expected_bugs(bug)) << "BUG=" << bug;
    EXPECT_EQ(r.status != 0, bug == 3) << "BUG=" << bug << "\n" << r.out;
  }
}

TEST(DynamicParallelismBugs, DeviceSideFreeOfHostMemoryIsReported) {
  const cuemu_result r = run_cuemu("run " + bugs(3));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: invalid device-side free in kernel tail_sum block (0,0,0) "
                       "thread (0,0,0) at "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cdp_bugs.cu:23"), std::string::npos) << r.out;
}

// compute-sanitizer on the H200 is clean for BUG=0 and reports BUG=1 (an invalid write in
// child_fill, thread (40,0,0) of block (15,0,0)) and BUG=2 (a read of freed device-heap memory in
// tail_sum); memcheck reports the same.
TEST(DynamicParallelismBugs, MemcheckFindsBugsInChildGrids) {
  cuemu_result r = run_cuemu("run --check=memcheck " + bugs(0));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.find("cuemu:"), std::string::npos) << r.out;

  r = run_cuemu("run --check=memcheck " + bugs(1));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: out-of-bounds access in kernel child_fill block (15,0,0) thread "
                       "(40,0,0) at "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cdp_bugs.cu:14"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 bytes after the end of a 4000-byte allocation made by cudaMalloc"),
            std::string::npos)
      << r.out;

  r = run_cuemu("run --check=memcheck " + bugs(2));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: use after free in kernel tail_sum"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cdp_bugs.cu:21"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("256-byte allocation made by cudaMalloc in device code, freed by device "
                       "code"),
            std::string::npos)
      << r.out;
}

// cudaDeviceSynchronize in device code: nvcc 13 refuses it for sm_90; the emulator reports the
// call and its line, and the program fails.
TEST(DynamicParallelismBugs, DeviceSynchronizeInDeviceCodeIsReported) {
  const cuemu_result r = run_cuemu("run " + program("device_sync.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: unsupported call in device code in kernel parent block (0,0,0) "
                       "thread (0,0,0) at "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("device_sync.cu:10"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cudaDeviceSynchronize(): device code cannot wait"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cudaErrorNotSupported"), std::string::npos) << r.out;
}

}  // namespace
