// Processes sharing device memory, events and pools, against what a GPU prints for the same
// programs (expected/, recorded with the commands in expected/README.md): cudaIpc* handles of
// memory and events opened by a process the program starts (fork and exec), the hostile handles
// (zero, junk, of memory freed since), pools exported as file descriptors and their allocations
// imported; the driver API's device queries and the attributes only it names; and the gate: a report in a process the program started fails the run although the
// program exits 0.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <string>

namespace {

class Ipc : public ::testing::TestWithParam<recorded_case> {};

TEST_P(Ipc, PrintsWhatTheGpuPrints) {
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

INSTANTIATE_TEST_SUITE_P(
    Programs, Ipc,
    ::testing::Values(recorded_case{"ipc", ""}, recorded_case{"ipc", "--streams=sync"},
                      recorded_case{"ipc", "--workers=1"},
                      recorded_case{"ipc", "--check=memcheck"},
                      recorded_case{"ipc", "--check=racecheck,synccheck,streams"},
                      recorded_case{"pool_ipc", ""}, recorded_case{"pool_ipc", "--streams=sync"},
                      recorded_case{"pool_ipc", "--check=memcheck"},
                      recorded_case{"pool_ipc", "--check=racecheck,synccheck,streams"},
                      // The driver API's device queries (cuda-samples' helper_cuda_drvapi.h)
                      // and the device attributes only the driver API names.
                      recorded_case{"driver_queries", ""}, recorded_case{"device_attributes", ""}),
    recorded_case_name);

// The checked run of a correct program is clean in every process.
TEST(IpcChecks, CorrectProgramsAreCleanUnderEveryCheck) {
  for (const char* p : {"ipc.cu", "pool_ipc.cu", "child_report.cu"}) {
    const cuemu_result r = run_cuemu("run --check=all " + program(p) + " < /dev/null");
    EXPECT_EQ(r.status, 0) << p << "\n" << r.out;
    EXPECT_EQ(r.out.find("the run fails"), std::string::npos) << p << "\n" << r.out;
    EXPECT_NE(r.out.find("checking summary: memcheck+synccheck: clean, "
                         "racecheck+streams+synccheck: clean"),
              std::string::npos)
        << p << "\n" << r.out;
  }
}

// Allocations of 1 byte to 100000 bytes (whole pages or not) shared both ways: every byte
// arrives, unchecked and under memcheck (whose sanitizer poisons the bytes after each allocation
// on the pages that are shared); cudaDeviceReset with memory still exported (parent) and still
// mapped (child) frees and unmaps it, and memory allocated afterwards works.
TEST(IpcChecks, AllocationsOfAnySizeAreSharedWhole) {
  std::string expected_out = "";
  for (int size : {1, 1000, 4096, 4097, 100000})
    expected_out += "child: " + std::to_string(size) + " bytes, 0 differ\n";
  expected_out += "child: reset cudaSuccess\nparent: the child exited with 0\n";
  for (int size : {1, 1000, 4096, 4097, 100000})
    expected_out += "parent: " + std::to_string(size) + " bytes, 0 differ\n";
  expected_out += "parent: reset cudaSuccess\nparent: memory after the reset, 0 bytes differ\n";
  for (const char* mode : {"", "--check=memcheck", "--check=racecheck,streams"}) {
    const cuemu_result r = run_stdout(mode, "odd_size");
    EXPECT_EQ(r.status, 0) << mode << "\n" << r.out;
    EXPECT_EQ(r.out, expected_out) << mode;
  }
}

// A record of an interprocess event made by a process that ended before the record completed:
// the wait for it ends, with a line naming the process, whether the process was reaped first or
// is a zombie (a GPU gives no expectation here: the emulator's rule is not to hang).
TEST(IpcEvents, WaitForARecordOfAnEndedProcessEnds) {
  for (const char* order : {"reaped", "zombie"}) {
    const cuemu_result r =
        run_cuemu("run " + program("orphan_event.cu") + " -- " + order);
    EXPECT_EQ(r.status, 0) << order << "\n" << r.out;
    EXPECT_NE(r.out.find("synchronize: cudaSuccess\n"), std::string::npos) << order << "\n" << r.out;
    EXPECT_NE(r.out.find("the child exited with 0\n"), std::string::npos) << order << "\n" << r.out;
    EXPECT_NE(r.out.find("cuemu: waiting for an interprocess event recorded by process "),
              std::string::npos)
        << order << "\n" << r.out;
    EXPECT_NE(r.out.find("which ended before the record completed: the wait ends here"),
              std::string::npos)
        << order << "\n" << r.out;
  }
}

// The child writes past its allocation; the parent ignores the child's exit status and exits 0.
// Unchecked the run passes (as on a GPU); under memcheck, alone or in --check=all, the child's
// report fails the run, naming the kernel's line although the child's argv[0] is not its path.
TEST(IpcChecks, ReportInAStartedProcessFailsTheRun) {
  const std::string bug = "-DBUG=1 " + program("child_report.cu");
  cuemu_result r = run_cuemu("run " + bug);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("parent: done"), std::string::npos) << r.out;

  for (const char* mode : {"--check=memcheck", "--check=all"}) {
    r = run_cuemu(std::string("run ") + mode + " " + bug);
    EXPECT_NE(r.status, 0) << mode << "\n" << r.out;
    EXPECT_NE(r.out.find("cuemu: out-of-bounds access in kernel fill"), std::string::npos)
        << mode << "\n" << r.out;
    EXPECT_NE(r.out.find("child_report.cu:17"), std::string::npos) << mode << "\n" << r.out;
    EXPECT_NE(r.out.find("cuemu: the program exited 0, but 1 report came from its processes"),
              std::string::npos)
        << mode << "\n" << r.out;
    EXPECT_NE(r.out.find("parent: done"), std::string::npos) << mode << "\n" << r.out;
  }
}

}  // namespace
