// Single-precision unary functions against the H200 on every input (issue 14). exhaustive/
// exhaustive.cu compared all 2^32 inputs of each function on a machine with an H200 and kept, per
// range of 2^24 inputs, a hash of the GPU's results and how many of them the emulator's library
// computes differently (exhaustive/h200.txt.gz). Here the emulator runs the same program's
// device code on the ranges [0.5, 2) and [2, 8) and [-2, -0.5) (ranges 63, 64 and 191) and its
// hash must equal the GPU's wherever the record says the range has no difference.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "hash_record.h"
#include "run_cuemu.h"

namespace {

class Exhaustive : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(MathExhaustive, Exhaustive, ::testing::Values(63, 64, 191));

TEST_P(Exhaustive, RangesWithoutDifferencesHashLikeTheH200) {
  const int range = GetParam();
  const auto want = records_of_range(read_gzip_file(EXHAUSTIVE_RECORD), range);
  ASSERT_GE(want.size(), 105u) << "could not read " << EXHAUSTIVE_RECORD;

  std::string names;
  for (const auto& [fn, rec] : want)
    if (rec.differing == 0) names += (names.empty() ? "" : ",") + fn;
  const cuemu_result r = run_cuemu(std::string("run -O2 ") + EXHAUSTIVE_CU + " -- --range " +
                                   std::to_string(range) + " --only " + names +
                                   " 2>/dev/null; exit $?");
  ASSERT_EQ(r.status, 0) << r.out.substr(0, 2000);
  const auto got = hashes_of_range(r.out, range);
  int checked = 0;
  for (const auto& [fn, rec] : want) {
    if (rec.differing != 0) continue;
    ++checked;
    const auto it = got.find(fn);
    ASSERT_NE(it, got.end()) << fn << " has no hash in the emulator's output";
    EXPECT_EQ(it->second, rec.hash) << fn << ": range " << range << " differs from the H200";
  }
  EXPECT_GE(checked, 14);
  std::printf("range %d: %d functions with no difference there, compared\n", range, checked);
}

}  // namespace
