// CUDA graphs, stream capture and stream-ordered memory on the emulator, against what an H200
// prints for the same programs (expected/, recorded with the commands in expected/README.md):
// graphs built by hand and by capture, launched, updated, cloned, with conditional nodes; graph
// memory nodes and memory pools; 3D copies; the calls a capture refuses.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <string>

namespace {

class Graphs : public ::testing::TestWithParam<recorded_case> {};

TEST_P(Graphs, PrintsWhatTheGpuPrints) {
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

INSTANTIATE_TEST_SUITE_P(
    Programs, Graphs,
    ::testing::Values(recorded_case{"graphs", ""}, recorded_case{"graphs", "--workers=1"},
                      recorded_case{"graphs", "--streams=sync"},
                      recorded_case{"graphs", "--check=memcheck"},
                      recorded_case{"graphs", "--check=racecheck,synccheck"},
                      recorded_case{"capture", ""}, recorded_case{"capture", "--streams=sync"},
                      recorded_case{"capture", "--check=memcheck"},
                      recorded_case{"capture", "--check=racecheck"},
                      recorded_case{"pools", ""},
                      recorded_case{"graph_events", ""},
                      recorded_case{"graph_events", "--check=racecheck"}, recorded_case{"pools", "--workers=1"},
                      recorded_case{"pools", "--streams=sync"},
                      recorded_case{"pools", "--check=memcheck"},
                      recorded_case{"pools", "--check=racecheck,synccheck"}),
    recorded_case_name);

// A kernel of a graph reading the graph's allocation after its free node: on an H200 the program
// prints the right sum and compute-sanitizer reports invalid reads; memcheck reports the use
// after free and the program fails.
TEST(GraphMemory, MemcheckReportsUseAfterTheFreeNode) {
  const std::string correct = program("graph_memory_bugs.cu");
  cuemu_result r = run_cuemu("run --check=memcheck " + correct);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("sum 32640 (cudaSuccess)"), std::string::npos) << r.out;  // 0 + ... + 255
  EXPECT_EQ(r.out.find("cuemu:"), std::string::npos) << r.out;

  r = run_cuemu("run -DBUG=1 " + correct);  // unchecked: what the GPU printed
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("sum 32640 (cudaSuccess)"), std::string::npos) << r.out;

  r = run_cuemu("run --check=memcheck -DBUG=1 " + correct);
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cuemu: use after free in kernel sum"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("graph_memory_bugs.cu:16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1024-byte graph allocation"), std::string::npos) << r.out;
}

// The host copying from graph memory the graph has freed: cudaErrorInvalidValue, as on an H200.
TEST(GraphMemory, CopyFromFreedGraphMemoryIsInvalid) {
  const cuemu_result r = run_cuemu("run -DBUG=2 " + program("graph_memory_bugs.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("copy from freed graph memory: cudaErrorInvalidValue\n"
                       "sum 32640 (cudaErrorInvalidValue)"),
            std::string::npos)
      << r.out;
}

// Memcpy nodes naming a CUDA array, in the graph and through cudaGraphExecMemcpyNodeSetParams:
// the image comes back unchanged both times.
TEST(GraphArrays, MemcpyNodesCopyToAndFromArrays) {
  const cuemu_result r = run_cuemu("run " + program("graph_array_copy.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cudaSuccess cudaSuccess cudaSuccess cudaSuccess: 0 0 differ"),
            std::string::npos)
      << r.out;
}

}  // namespace
