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

// Blocks taken in reverse order: CUB's single-pass scan (DeviceScan, thrust::inclusive_scan)
// has each block wait, in a poll loop with __any_sync, for the blocks before it, which have not
// started yet; helper threads must take them (this hung before). A GPU takes blocks in order,
// but nothing in CUDA promises it, and --schedule exists to show what depends on it.
TEST_P(Cccl, OutputIsTheH200sInReverseBlockOrder) {
  const cuemu_result r = run_cuemu("run --schedule=reverse --timeout=120 " + program());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected(GetParam()));
  if (std::string(GetParam()) == "cub") {
    const cuemu_result random = run_cuemu("run --schedule=random:5 --timeout=120 " + program());
    EXPECT_EQ(random.status, 0) << random.out;
    EXPECT_EQ(random.out, expected(GetParam()));
  }
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
