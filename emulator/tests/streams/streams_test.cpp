// Asynchronous streams on the emulator, against what an H200 prints for the same programs
// (expected/, recorded with the commands in expected/README.md): kernels on different streams
// running at once, the legacy and per-thread default streams' ordering, events (ordering, timing
// of the work, queries of work in flight), host functions, and the place of a kernel's printf
// output among the host's lines.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <ostream>
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
                      recorded_case{"stream_bugs", "--check=memcheck"},
                      recorded_case{"stream_bugs", "--check=streams"},
                      recorded_case{"stream_bugs", "--check=racecheck,streams,synccheck"},
                      recorded_case{"stream_orders", ""},
                      recorded_case{"stream_orders", "--workers=1"},
                      recorded_case{"stream_orders", "--streams=sync"},
                      recorded_case{"stream_orders", "--check=streams"},
                      recorded_case{"stream_orders", "--check=racecheck,streams,synccheck"},
                      recorded_case{"stream_orders", "--check=memcheck"}),
    recorded_case_name);

// --check=streams on the programs' mutations (-DBUG=n, one synchronisation left out): each is
// reported, once, naming this access and the other work with the calls that issued them, and the
// run fails; without the streams check the same build passes (these are not races between the
// CUDA threads of one grid).
struct stream_finding {
  const char* program;
  int bug;
  const char* header;   // the report's first line after "cuemu: " ('@': the programs' directory)
  const char* access;   // the line naming the access
  const char* other;    // the line naming the unordered work
};

// ctest's test names show the case as this prints it.
void PrintTo(const stream_finding& f, std::ostream* os) { *os << f.program << " BUG=" << f.bug; }

std::string with_dir(const char* text) {
  std::string s;
  for (const char* p = text; *p; ++p) s += *p == '@' ? std::string(PROGRAMS_DIR) + "/" : std::string(1, *p);
  return s;
}

class StreamsCheck : public ::testing::TestWithParam<stream_finding> {};

TEST_P(StreamsCheck, ReportsTheMissingSynchronisation) {
  const stream_finding& f = GetParam();
  const std::string src = program((std::string(f.program) + ".cu").c_str());
  const std::string bug = " -DBUG=" + std::to_string(f.bug) + " ";
  // Two workers and the blocks in reverse order: the report still names the grid's first thread
  // that meets the unordered access (in block and thread order), not the first to run.
  const cuemu_result r = run_cuemu("run --workers=2 --schedule=reverse --check=streams" + bug + src);
  EXPECT_EQ(r.status, 1) << r.out;
  const std::string header = "cuemu: " + with_dir(f.header) + "\n";
  EXPECT_NE(r.out.find(header), std::string::npos) << "expected " << header << r.out;
  EXPECT_NE(r.out.find(with_dir(f.access)), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(with_dir(f.other)), std::string::npos) << r.out;
  // One report per pair of places, however often the loop around them runs.
  EXPECT_EQ(r.out.find("cuemu: ", r.out.find(header) + 1), std::string::npos) << r.out;
  // racecheck alone does not look at stream ordering; the streams check rides on its build.
  const cuemu_result plain = run_cuemu("run --check=racecheck" + bug + src);
  EXPECT_EQ(plain.status, 0) << plain.out;
  EXPECT_EQ(plain.out.find("cuemu: "), std::string::npos) << plain.out;
  // Every combination a CI gate would use fails on it, with the same report at any worker count.
  for (const char* modes : {"racecheck,streams,synccheck", "all"}) {
    const cuemu_result c = run_cuemu(std::string("run --check=") + modes + bug + src);
    EXPECT_NE(c.status, 0) << modes << "\n" << c.out;
    EXPECT_NE(c.out.find(header), std::string::npos) << modes << "\n" << c.out;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Mutations, StreamsCheck,
    ::testing::Values(
        stream_finding{"stream_bugs", 1, "unsynchronised host access in host code at @stream_bugs.cu:28",
                       "4-byte read at ", "unordered with a write by cudaMemcpyAsync (issued to stream 3 at @stream_bugs.cu:54)"},
        stream_finding{"stream_bugs", 2, "unsynchronised host access in host code at @stream_bugs.cu:50",
                       "4-byte write at ", "unordered with a read by cudaMemcpyAsync (issued to stream 3 at @stream_bugs.cu:47)"},
        stream_finding{"stream_bugs", 3, "unsynchronised host access in host code at @stream_bugs.cu:28",
                       "in a 4096-byte allocation from cudaMallocManaged (offset 0)",
                       "unordered with a write by kernel fill (issued to the legacy default stream at @stream_bugs.cu:66)"},
        stream_finding{"stream_bugs", 4, "stream race in kernel square block (0,0,0) thread (0,0,0) at @stream_bugs.cu:18",
                       "work of kernel square (issued to stream 4 at @stream_bugs.cu:82)",
                       "unordered with a write by kernel fill (issued to stream 3 at @stream_bugs.cu:77)"},
        stream_finding{"stream_orders", 1, "stream race in kernel add block (0,0,0) thread (0,0,0) at @stream_orders.cu:26",
                       "work of kernel add (issued to stream 6 at @stream_orders.cu:171)",
                       "unordered with a write by kernel fill (issued to the legacy default stream at @stream_orders.cu:166)"},
        stream_finding{"stream_orders", 2,
                       "stream race in cudaLaunchHostFunc (issued to stream 4 at @stream_orders.cu:183) at @stream_orders.cu:36",
                       "4-byte read at ", "unordered with a write by cudaMemcpyAsync (issued to stream 3 at @stream_orders.cu:177)"},
        stream_finding{"stream_orders", 3,
                       "stream race in memset (issued to stream 4 at @stream_orders.cu:193) at @stream_orders.cu:193",
                       "2000-byte write at ", "unordered with a write by kernel fill (issued to stream 3 at @stream_orders.cu:188)"},
        stream_finding{"stream_orders", 4, "unsynchronised host access in host code at @stream_orders.cu:204",
                       "4-byte write at ", "unordered with a read by kernel add (issued to stream 3 at @stream_orders.cu:200)"},
        // A graph's kernel node: its work is named by the cudaGraphLaunch that issued it.
        stream_finding{"stream_orders", 6, "stream race in kernel fill block (0,0,0) thread (0,0,0) at @stream_orders.cu:21",
                       "work of cudaGraphLaunch (issued to stream 6 at @stream_orders.cu:225)",
                       "unordered with a write by memset (issued to the legacy default stream at @stream_orders.cu:211)"}),
    [](const ::testing::TestParamInfo<stream_finding>& info) {
      return std::string(info.param.program) + "_bug" + std::to_string(info.param.bug);
    });

// BUG=5 of stream_bugs: a kernel overwrites what another stream's copy still reads; both the
// kernel's write against the copy's read and against the other kernel's write are one place
// pair each. BUG=5 of stream_orders: kernels of two streams update the counter atomically (no
// race between them), the host reads it without waiting: one report per kernel.
TEST(StreamsCheck, EachUnorderedPairOfPlacesIsReported) {
  const cuemu_result a = run_cuemu("run --check=streams -DBUG=5 " + program("stream_bugs.cu"));
  EXPECT_EQ(a.status, 1) << a.out;
  EXPECT_NE(a.out.find(with_dir("unordered with a write by kernel square (issued to stream 4 at ")), std::string::npos) << a.out;
  EXPECT_NE(a.out.find(with_dir("unordered with a read by cudaMemcpyAsync (issued to stream 4 at ")), std::string::npos) << a.out;
  const cuemu_result b = run_cuemu("run --check=streams -DBUG=5 " + program("stream_orders.cu"));
  EXPECT_EQ(b.status, 1) << b.out;
  EXPECT_NE(b.out.find("8-byte read at "), std::string::npos) << b.out;
  EXPECT_NE(b.out.find(with_dir("unordered with an atomic update by kernel count (issued to stream 3 at @stream_orders.cu:129)")),
            std::string::npos) << b.out;
  EXPECT_NE(b.out.find(with_dir("unordered with an atomic update by kernel count (issued to stream 4 at @stream_orders.cu:130)")),
            std::string::npos) << b.out;
  // Atomics of the two kernels on one counter are no finding; nor are the halves they write.
  EXPECT_EQ(b.out.find("stream race"), std::string::npos) << b.out;
}

TEST(StreamsCheck, UnknownModeNamesTheChoices) {
  const cuemu_result r = run_cuemu("run --check=stream " + program("stream_bugs.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("unknown check 'stream' in --check=stream (expected memcheck, racecheck, "
                       "synccheck, streams, all or none)"),
            std::string::npos)
      << r.out;
}

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
