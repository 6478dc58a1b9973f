// The double-precision functions and the functions of two and three arguments against the H200
// on sampled inputs (issue 14). sampled/sampled.cu compared 2^27 inputs of each function from its
// generator on a machine with an H200 and kept, per chunk of 2^20 samples, a hash of the GPU's
// results and how many of them the emulator's library computes differently
// (sampled/h200.txt.gz). Here the emulator runs the same program's device code on two chunks and
// its hash must equal the GPU's wherever the record says the chunk has no difference.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

#include "hash_record.h"
#include "run_cuemu.h"

namespace {

// Device code computes these with the CPU's own instruction or C library function, not with
// libdevice (the record's host side), and a NaN operand's bits then differ from the GPU's
// (README's known limits: one-instruction operations keep a signalling NaN's bits, and two NaN
// operands of nextafter and remainder give the C library's pick).
const std::set<std::string> kOwnNaNs = {"nextafter", "remainder"};

class Sampled : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(MathSampled, Sampled, ::testing::Values(0, 77));

TEST_P(Sampled, ChunksWithoutDifferencesHashLikeTheH200) {
  const int chunk = GetParam();
  const auto want = records_of_range(read_gzip_file(SAMPLED_RECORD), chunk);
  ASSERT_GE(want.size(), 220u) << "could not read " << SAMPLED_RECORD;

  std::string names;
  for (const auto& [fn, rec] : want)
    if (rec.differing == 0 && kOwnNaNs.count(fn) == 0) names += (names.empty() ? "" : ",") + fn;
  const cuemu_result r = run_cuemu(std::string("run -O2 ") + SAMPLED_CU + " -- --chunk " +
                                   std::to_string(chunk) + " --only " + names + " 2>/dev/null; exit $?");
  ASSERT_EQ(r.status, 0) << r.out.substr(0, 2000);
  const auto got = hashes_of_range(r.out, chunk);
  int checked = 0;
  for (const auto& [fn, rec] : want) {
    if (rec.differing != 0 || kOwnNaNs.count(fn)) continue;
    ++checked;
    const auto it = got.find(fn);
    ASSERT_NE(it, got.end()) << fn << " has no hash in the emulator's output";
    EXPECT_EQ(it->second, rec.hash) << fn << ": chunk " << chunk << " differs from the H200";
  }
  EXPECT_GE(checked, 195);
  std::printf("chunk %d: %d functions with no difference there, compared\n", chunk, checked);
}

}  // namespace
