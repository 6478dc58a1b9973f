// Plain arithmetic in kernels as nvcc compiles it (issue 14): a multiply and a dependent add are
// one fused multiply-add (nvcc's -fmad=true), and with -fmad=false they are not.
// contraction/contraction.cu computes 41 shapes of products and sums in kernels on 4096 inputs;
// its output on an H200 (nvcc 13.0, -O2 -arch=sm_90; -O3 and sm_80 print the same) is the
// expectation: per shape a hash of the results' bits, how many differ from the host's one rounding
// per operation, and the first results.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "run_cuemu.h"

namespace {

// Shapes where nvcc and g++ fuse differently (README, known limits): a sum of two products that
// NVVM's SLP vectorizer pairs, where the second product is fused (g++ fuses the first), and a
// product whose addend is a select (g++ branches, and fuses only within one block).
const std::set<std::string> kFusedOtherwise = {"complex_im", "lerp2", "select_addend"};

std::map<std::string, std::string> lines_by_shape(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string name = line.substr(0, line.find(' '));
    if (!name.empty()) out[name] = line;
  }
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void compare(const std::string& options, const std::string& record, const std::set<std::string>& skip) {
  const auto want = lines_by_shape(read_file(record));
  ASSERT_EQ(want.size(), 42u) << record;  // 41 shapes and the summary
  const cuemu_result r = run_cuemu("run -O2 " + options + " " + CONTRACTION_CU + " 2>&1");
  ASSERT_EQ(r.status, 0) << r.out.substr(0, 2000);
  const auto got = lines_by_shape(r.out);
  int compared = 0;
  for (const auto& [name, line] : want) {
    if (skip.count(name) || name == "contraction:") continue;
    const auto it = got.find(name);
    ASSERT_NE(it, got.end()) << name << " missing from the emulator's output:\n" << r.out;
    EXPECT_EQ(it->second, line) << "shape " << name << " (" << options << ")";
    ++compared;
  }
  EXPECT_EQ(compared, 41 - static_cast<int>(skip.size()));
}

TEST(MathContraction, KernelsFuseAsNvccDoes) {
  compare("", CONTRACTION_RECORD, kFusedOtherwise);
}

TEST(MathContraction, KernelsFuseAsNvccDoesUnderEveryExecutor) {
  compare("--exec=fibers", CONTRACTION_RECORD, kFusedOtherwise);
}

TEST(MathContraction, FmadFalseRoundsEveryOperation) {
  compare("-fmad=false", CONTRACTION_FMAD_FALSE_RECORD, {});
}

}  // namespace
