// cuda_fp8.h, cuda_fp6.h and cuda_fp4.h (the CUDA toolkit's own headers, compiled unchanged) on the
// emulator, against what an H200 prints for the same program (expected/fp8.txt): every conversion
// bit for bit, in each checking mode.
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <cstdio>
#include <string>

namespace {

bool toolkit_has_fp8() {
  for (const char* dir : {"/usr/local/cuda/include", "/usr/local/include", "/usr/include"}) {
    if (FILE* f = std::fopen((std::string(dir) + "/cuda_fp8.hpp").c_str(), "r")) {
      std::fclose(f);
      return true;
    }
  }
  return false;
}

class Fp8 : public ::testing::TestWithParam<recorded_case> {};

TEST_P(Fp8, ConvertsAsTheGpuConverts) {
  if (!toolkit_has_fp8()) GTEST_SKIP() << "no CUDA toolkit cuda_fp8.h on this machine";
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(c.name));
}

INSTANTIATE_TEST_SUITE_P(Programs, Fp8,
                         ::testing::Values(recorded_case{"fp8", ""},
                                           recorded_case{"fp8", "--check=memcheck"},
                                           recorded_case{"fp_vectors", ""}),
                         recorded_case_name);

}  // namespace
