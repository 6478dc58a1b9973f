// cuRAND's device API on the emulator: the CUDA toolkit's own curand_kernel.h (XORWOW,
// Philox4x32-10, MRG32k3a, Sobol32/64 plain and scrambled), compiled unchanged, against what an
// H200 prints for the same programs (expected/; commands in expected/README.md).
//
// Every printed draw equals the H200's bit for bit: raw, uniform, double-precision uniform,
// normal and log-normal (Box-Muller with __sincosf: the special function unit's SIN and COS,
// modelled since), Poisson, and skip-ahead, and so does every digest of thousands of draws: the
// normal ones need Box-Muller's angle, y * (2 pi 2^-32) + pi 2^-32, contracted into one fused
// multiply-add as nvcc does (translate::options::contract_fp).
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

bool toolkit_has_curand() {
  for (const char* dir : {"/usr/local/cuda/include", "/usr/local/include", "/usr/include"}) {
    if (FILE* f = std::fopen((std::string(dir) + "/curand_kernel.h").c_str(), "r")) {
      std::fclose(f);
      return true;
    }
  }
  return false;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string s; in >> s;) w.push_back(s);
  return w;
}

// The program's output equals the H200's line for line and word for word.
void expect_gpu_output(const char* program, int want_lines) {
  if (!toolkit_has_curand()) GTEST_SKIP() << "no CUDA toolkit curand_kernel.h on this machine";
  const cuemu_result r = run_stdout("", program);
  ASSERT_EQ(r.status, 0) << r.out;
  std::istringstream got(r.out), want(expected(program));
  std::string g, w;
  int lines = 0;
  while (std::getline(want, w)) {
    ASSERT_TRUE(std::getline(got, g)) << "output ends before: " << w;
    ++lines;
    const auto gw = words(g), ww = words(w);
    ASSERT_EQ(gw.size(), ww.size()) << g << "\n" << w;
    for (std::size_t i = 0; i < ww.size(); ++i) {
      EXPECT_EQ(gw[i], ww[i]) << "in\n  " << g << "\n  " << w;
    }
  }
  EXPECT_FALSE(std::getline(got, g)) << "extra output: " << g;
  EXPECT_EQ(lines, want_lines);
}

TEST(Curand, DrawsWhatTheGpuDraws) { expect_gpu_output("curand_device", 40); }

// Sobol32, scrambled Sobol32, Sobol64 and scrambled Sobol64 with the program's own direction
// vectors: raw, uniform, normal (inverse CDF), double, log-normal and Poisson draws, skipahead.
TEST(Curand, QuasirandomDrawsWhatTheGpuDraws) { expect_gpu_output("curand_sobol", 32); }

}  // namespace
