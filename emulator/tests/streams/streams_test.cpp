// Asynchronous streams on the emulator, against what an H200 prints for the same programs
// (expected/, recorded with the commands in expected/README.md): kernels on different streams
// running at once, the legacy and per-thread default streams' ordering, events (ordering, timing
// of the work, queries of work in flight), host functions, and the place of a kernel's printf
// output among the host's lines.
#include <gtest/gtest.h>

#include "run_cuemu.h"

#include <cctype>
#include <string>

namespace {

std::string program(const char* name) { return std::string(PROGRAMS_DIR) + "/" + name; }
std::string expected(const char* name) {
  return read_text_file(std::string(EXPECTED_DIR) + "/" + name + std::string(".txt"));
}

cuemu_result run_stdout(const std::string& options, const char* name) {
  // run_cuemu appends "2>&1" to the command line: here to the `exit`, after stderr went away.
  return run_cuemu("run " + options + " " + program((std::string(name) + ".cu").c_str()) +
                   " 2>/dev/null; exit $?");
}

struct streams_case {
  const char* name;
  const char* options;  // options of `cuemu run`
};

class Streams : public ::testing::TestWithParam<streams_case> {};

TEST_P(Streams, PrintsWhatTheGpuPrints) {
  const streams_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

// streams.cu needs kernels of two streams to run at once (each waits for the other's flag), so it
// runs only asynchronously (racecheck runs stream work at the call: one grid at a time).
INSTANTIATE_TEST_SUITE_P(
    Programs, Streams,
    ::testing::Values(streams_case{"streams", ""}, streams_case{"streams", "--workers=1"},
                      streams_case{"streams", "--check=memcheck,synccheck"},
                      streams_case{"per_thread_default", "--default-stream per-thread"},
                      streams_case{"per_thread_default",
                                   "--default-stream per-thread --workers=1"},
                      streams_case{"printf_order", ""},
                      streams_case{"printf_order", "--streams=sync"},
                      streams_case{"printf_order", "--check=racecheck"},
                      streams_case{"printf_at_exit", ""},
                      streams_case{"printf_at_exit", "--check=memcheck"},
                      streams_case{"stream_bugs", ""}, streams_case{"stream_bugs", "--workers=1"},
                      streams_case{"stream_bugs", "--streams=sync"},
                      streams_case{"stream_bugs", "--check=racecheck,synccheck"},
                      streams_case{"stream_bugs", "--check=memcheck"}),
    [](const ::testing::TestParamInfo<streams_case>& info) {
      std::string n = info.param.name;
      std::string o = info.param.options;
      if (o.empty()) return n;
      for (char& ch : o)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
      return n + o;
    });

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
