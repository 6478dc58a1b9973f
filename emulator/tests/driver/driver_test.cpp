// `cuemu run` end to end: output and exit status of correct programs, and the reports of
// compile errors, translation errors, bad options and faults.
#include <gtest/gtest.h>

#include "run_cuemu.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

using result = cuemu_result;
result cuemu(const std::string& args) { return run_cuemu(args); }

std::string program(const char* name) { return std::string(PROGRAMS_DIR) + "/" + name; }

bool has(const result& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

}  // namespace

TEST(Driver, RunsAProgramAndPassesArguments) {
  const result r = cuemu("run " + program("hello.cu") + " -- alpha 'two words'");
  EXPECT_EQ(r.status, 0) << r.out;
  // sum of i^2 for i < 100 = 99*100*199/6
  EXPECT_EQ(r.out, "sum of squares: 328350\narg 1: alpha\narg 2: two words\n");
}

TEST(Driver, ExitStatusIsTheProgramsOwn) {
  const result r = cuemu("run " + program("hello.cu") + " -- x");
  EXPECT_EQ(r.status, 3) << r.out;
}

TEST(Driver, SameOutputUnderEverySchedule) {
  for (const char* opt : {"--workers=1", "--workers=2", "--schedule=reverse", "--schedule=random:7"}) {
    const result r = cuemu(std::string("run ") + opt + " " + program("hello.cu"));
    EXPECT_EQ(r.status, 0) << opt << "\n" << r.out;
    EXPECT_EQ(r.out, "sum of squares: 328350\n") << opt;
  }
}

TEST(Driver, CcBuildsAnExecutable) {
  const std::string exe = testing::TempDir() + "/hello_cc";
  const result r = cuemu("cc -O1 " + program("hello.cu") + " -o " + exe);
  ASSERT_EQ(r.status, 0) << r.out;
  FILE* p = popen(exe.c_str(), "r");
  char buf[256] = {0};
  ASSERT_TRUE(std::fgets(buf, sizeof buf, p));
  pclose(p);
  EXPECT_STREQ(buf, "sum of squares: 328350\n");
}

TEST(Driver, CompileErrorPointsAtTheUsersLine) {
  const result r = cuemu("run " + program("compile_error.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "compile_error.cu:4")) << r.out;
  EXPECT_TRUE(has(r, "undeclared_name")) << r.out;
}

TEST(Driver, UntranslatableLaunchIsAnErrorWithFileAndLine) {
  const result r = cuemu("run " + program("unclosed_launch.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "unclosed_launch.cu:7: error:")) << r.out;
}

TEST(Driver, BadCommandLines) {
  result r = cuemu("run --frobnicate " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "unknown option '--frobnicate'")) << r.out;
  r = cuemu("run --schedule=sideways " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "--schedule")) << r.out;
  r = cuemu("run --workers=0 " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  r = cuemu("run -arch=sm_9x " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "invalid architecture")) << r.out;
  r = cuemu("run " + program("no_such_file.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "no_such_file.cu: no such file")) << r.out;
  r = cuemu("launch " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "unknown command 'launch'")) << r.out;
}

TEST(Driver, DeadlockEndsWithAReportAndNonZeroStatus) {
  const result r = cuemu("run " + program("deadlock.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: deadlock in kernel half_barrier block (0,0,0) thread (32,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "deadlock.cu:9")) << r.out;
  EXPECT_TRUE(has(r, "waits in __syncthreads at ")) << r.out;
  EXPECT_TRUE(has(r, "after launch: cudaErrorLaunchFailure")) << r.out;
}

TEST(Driver, StackOverflowNamesStackSize) {
  const result r = cuemu("run " + program("stack_overflow.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: stack overflow in kernel recurse block (0,0,0) thread (0,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "stack_overflow.cu:")) << r.out;
  EXPECT_TRUE(has(r, "--stack-size")) << r.out;
}

TEST(Driver, InvalidMemoryAccessNamesTheLine) {
  const result r = cuemu("run " + program("out_of_bounds.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: invalid memory access in kernel scatter block (0,0,0) thread (1,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "out_of_bounds.cu:5")) << r.out;
}

TEST(Driver, RunawayLoopEndsAtTheTimeout) {
  const result r = cuemu("run --timeout=1 " + program("runaway.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_LT(r.seconds, 30) << r.out;
  EXPECT_TRUE(has(r, "cuemu: timeout in kernel spin block (")) << r.out;
  EXPECT_TRUE(has(r, "thread (3,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "runaway.cu:6")) << r.out;
}

// Inline PTX: the instructions with a CPU meaning run (griddepcontrol as no-ops, membar.gl as a
// fence, %laneid as the emulator's lane), any other is a translation error naming the line.
TEST(Driver, InlinePtxWithACpuMeaningRuns) {
  const result r = cuemu("run " + program("ptx_griddep.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  // 2 blocks of 8x6 threads: lanes 0..31 and 0..15 each (496 + 120); thread (0,5) is lane 40 % 32.
  EXPECT_EQ(r.out, "lane sum: 1232\nlane of thread (0,5) in block 1: 8\nblocks: 2\n");
}

TEST(Driver, UnsupportedInlinePtxIsAnErrorWithFileLineAndInstruction) {
  const result r = cuemu("run " + program("ptx_unsupported.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "ptx_unsupported.cu:6: error: inline PTX cannot run on the CPU emulator: "
                     "'ld.global.nc.v4.u32' (use the CUDA C++ intrinsic, e.g. __ldg, or guard it with "
                     "#ifdef __CUEMU__)"))
      << r.out;
}

TEST(Driver, DeviceAssertGivesCudaErrorAssert) {
  const result r = cuemu("run " + program("device_assert.cu"));
  EXPECT_NE(r.status, 0) << r.out;  // a fault was reported: the process ends non-zero
  EXPECT_TRUE(has(r, "first: cudaSuccess")) << r.out;
  // CUDA's own line, then the report; the error is sticky like on a GPU.
  EXPECT_TRUE(has(r, "device_assert.cu:6: void check_positive(const int*): block: [0,0,0], thread: [5,0,0] Assertion `v[threadIdx.x] > 0` failed.")) << r.out;
  EXPECT_TRUE(has(r, "cuemu: device-side assertion failed in kernel check_positive block (0,0,0) thread (5,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "second: cudaErrorAssert")) << r.out;
  EXPECT_TRUE(has(r, "later: cudaErrorAssert")) << r.out;
}
