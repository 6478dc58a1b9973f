// Volta's execution model on the emulator, against what an H200 prints for the same programs
// (expected/, recorded with the commands in expected/README.md): threads and blocks that wait for
// each other by spinning, this_grid().sync() of cooperative launches, __activemask() after
// partial warp synchronisation, device clocks; and the livelock report where a GPU spins forever.
#include <gtest/gtest.h>

#include "run_cuemu.h"

#include <cctype>
#include <string>

namespace {

std::string program(const char* name) { return std::string(PROGRAMS_DIR) + "/" + name; }
std::string expected(const char* name) {
  return read_text_file(std::string(EXPECTED_DIR) + "/" + name + std::string(".txt"));
}

// The program's standard output only (clock_rate.cu prints its measurements on stderr).
cuemu_result run_stdout(const std::string& options, const char* name) {
  // run_cuemu appends "2>&1" to the command line: here to the `exit`, after stderr went away.
  return run_cuemu("run " + options + " " + program((std::string(name) + ".cu").c_str()) +
                   " 2>/dev/null; exit $?");
}

struct progress_case {
  const char* name;
  const char* options;  // options of `cuemu run`
};

class Progress : public ::testing::TestWithParam<progress_case> {};

TEST_P(Progress, PrintsWhatTheGpuPrints) {
  const progress_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

// Every program with all workers, with one worker (blocks that wait for each other need helper
// threads then), and under the checking modes a CI uses (a report would fail the run).
INSTANTIATE_TEST_SUITE_P(
    Programs, Progress,
    ::testing::Values(progress_case{"producer_consumer", ""},
                      progress_case{"producer_consumer", "--workers=1"},
                      progress_case{"producer_consumer", "--check=memcheck,synccheck"},
                      progress_case{"spin_lock", ""}, progress_case{"spin_lock", "--workers=1"},
                      progress_case{"spin_lock", "--check=racecheck,synccheck"},
                      progress_case{"spin_lock", "--check=memcheck"},
                      progress_case{"lookback_scan", ""},
                      progress_case{"lookback_scan", "--workers=1"},
                      progress_case{"lookback_scan", "--check=racecheck"},
                      progress_case{"grid_sync", ""}, progress_case{"grid_sync", "--workers=1"},
                      progress_case{"grid_sync", "--check=racecheck,synccheck"},
                      progress_case{"grid_sync", "--check=memcheck"},
                      progress_case{"activemask", ""},
                      progress_case{"activemask", "--check=racecheck,synccheck"},
                      progress_case{"clock_rate", ""}),
    [](const ::testing::TestParamInfo<progress_case>& info) {
      std::string n = info.param.name;
      std::string o = info.param.options;
      if (o.empty()) return n;
      for (char& ch : o)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n + o;
    });

// A thread spinning on a flag nobody sets: a GPU spins forever; the emulator reports a livelock
// naming the spinning thread and its line, within seconds, and the launch fails.
TEST(Livelock, IsReportedWithTheSpinningLine) {
  const cuemu_result r = run_cuemu("run " + program("livelock.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: livelock in kernel spin_forever block (0,0,0) thread (0,0,0)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("thread (0,0,0) spins at "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("livelock.cu:8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after launch: cudaErrorLaunchFailure"), std::string::npos) << r.out;
  EXPECT_LT(r.seconds, 30) << r.out;
}

// The volatile variant with its flag in shared memory is racy by CUDA's rules (a volatile store
// is not a release); compute-sanitizer's racecheck reports hazards in this program on an H200
// too. racecheck names the flag's store and the spinning load; the atomic and cuda::atomic_ref
// variants (release/acquire) are not reported.
TEST(Racecheck, VolatileFlagInSharedMemoryIsARace) {
  const cuemu_result r = run_cuemu("run --check=racecheck " + program("producer_consumer.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("data race in kernel variant_volatile<false>"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("producer_consumer.cu:89"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("producer_consumer.cu:92"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("in kernel variant_atomic"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("in kernel across_blocks"), std::string::npos) << r.out;
}

// The preemption timer counts a worker's CPU time: the launching thread, asleep in host code
// after its launches, is never signalled (a signal would end usleep/nanosleep early).
TEST(Preemption, HostSleepsAreNotCutShort) {
  const cuemu_result r = run_cuemu("run " + program("host_sleep.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "usleep ok, nanosleep ok, slept the whole time\n");
}

}  // namespace
