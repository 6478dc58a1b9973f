// Asynchronous streams on the emulator, against what an H200 prints for the same programs
// (expected/, recorded with the commands in expected/README.md): kernels on different streams
// running at once, the legacy and per-thread default streams' ordering, events (ordering, timing
// of the work, queries of work in flight), host functions, and the place of a kernel's printf
// output among the host's lines.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <string>

namespace {

class Streams : public ::testing::TestWithParam<recorded_case> {};

TEST_P(Streams, PrintsWhatTheGpuPrints) {
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

// streams.cu needs kernels of two streams to run at once (each waits for the other's flag), so it
// runs only asynchronously (racecheck runs stream work at the call: one grid at a time).
INSTANTIATE_TEST_SUITE_P(
    Programs, Streams,
    ::testing::Values(recorded_case{"streams", ""}, recorded_case{"streams", "--workers=1"},
                      recorded_case{"streams", "--check=memcheck,synccheck"},
                      recorded_case{"per_thread_default", "--default-stream per-thread"},
                      recorded_case{"per_thread_default",
                                   "--default-stream per-thread --workers=1"},
                      recorded_case{"printf_order", ""},
                      recorded_case{"printf_order", "--streams=sync"},
                      recorded_case{"printf_order", "--check=racecheck"},
                      recorded_case{"printf_at_exit", ""},
                      recorded_case{"printf_at_exit", "--check=memcheck"},
                      recorded_case{"stream_bugs", ""}, recorded_case{"stream_bugs", "--workers=1"},
                      recorded_case{"stream_bugs", "--streams=sync"},
                      recorded_case{"stream_bugs", "--check=racecheck,synccheck"},
                      recorded_case{"stream_bugs", "--check=memcheck"}),
    recorded_case_name);

// The same program built with the legacy default stream: its two kernels run one after the other
// and the first waits forever, as on an H200 (which had to be killed); here --timeout ends it.
TEST(Streams, LegacyDefaultStreamSerialisesHostThreads) {
  const cuemu_result r = run_cuemu("run --timeout=3 " + program("per_thread_default.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: timeout in kernel handshake"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("both kernels finished"), std::string::npos) << r.out;
}

TEST(Streams, BadStreamsOptionIsAUsageError) {
  const cuemu_result r = run_cuemu("run --streams=fast " + program("printf_order.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("invalid --streams=fast (expected async or sync)"), std::string::npos)
      << r.out;
}

}  // namespace
