// CCCL on the emulator as a user runs it: each program's output is the H200's (recorded with
// nvcc 13.0 -arch=sm_90, expected/README.md), and every checking mode finds nothing in it.
#include <gtest/gtest.h>

#include <string>

#include "run_cuemu.h"

namespace {

std::string expected(const std::string& name) { return read_text_file(std::string(EXPECTED_DIR) + "/" + name + ".txt"); }

class Cccl : public testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    ASSERT_STRNE(CCCL_DIR, "") << "CCCL is not installed: run ./run_checks.sh (its set-up installs "
                                  "nvidia-cuda-cccl 13.0.85) or configure with -DCUEMU_CCCL_DIR=...";
  }
  std::string program() const { return std::string(PROGRAMS_DIR) + "/" + GetParam() + ".cu"; }
};

TEST_P(Cccl, OutputIsTheH200s) {
  const cuemu_result r = run_cuemu("run " + program());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(GetParam()));
}

TEST_P(Cccl, CleanUnderEveryCheckingMode) {
  const cuemu_result r = run_cuemu("run --check=all " + program());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(without_driver_lines(r.out), expected(GetParam()) + expected(GetParam())) << r.out;
  EXPECT_NE(r.out.find("cuemu: checking summary: memcheck+synccheck: clean, racecheck+streams+synccheck: clean"),
            std::string::npos)
      << r.out;
}

INSTANTIATE_TEST_SUITE_P(Programs, Cccl, testing::Values("libcudacxx", "cub", "thrust"));

}  // namespace
