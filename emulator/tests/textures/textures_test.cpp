// Texture and surface objects over CUDA arrays, pitched and linear memory on the emulator, against
// what an H200 prints for the same program (expected/textures.txt; command in expected/README.md),
// bit for bit: point sampling with every address mode, normalised and unnormalised coordinates,
// element and normalised reads, layered and 3D arrays, tex1Dfetch, surfaces with each boundary
// mode, the array copies and the API's answers, and linear filtering of 8- and 16-bit normalised,
// half and float texels, next to border colours too (the texture unit's fixed-point weights and
// sums: src/runtime/texture.cpp, fitted to tests/texture_probe).
#include <gtest/gtest.h>

#include "recorded_programs.h"

#include <sstream>
#include <string>

namespace {

void compare(const cuemu_result& r, const std::string& want_text) {
  std::istringstream got(r.out), want(want_text);
  std::string g, w;
  int lines = 0;
  while (std::getline(want, w)) {
    ASSERT_TRUE(std::getline(got, g)) << "output ends before: " << w;
    EXPECT_EQ(g, w);
    ++lines;
  }
  EXPECT_FALSE(std::getline(got, g)) << "extra output: " << g;
  EXPECT_GE(lines, 23);
}

class Textures : public ::testing::TestWithParam<recorded_case> {};

TEST_P(Textures, SampleWhatTheGpuSamples) {
  const recorded_case& c = GetParam();
  const cuemu_result r = run_stdout(c.options, c.name);
  ASSERT_EQ(r.status, 0) << r.out;
  compare(r, expected(c.name));
}

INSTANTIATE_TEST_SUITE_P(Programs, Textures,
                         ::testing::Values(recorded_case{"textures", ""},
                                           recorded_case{"texture_forms", ""},
                                           recorded_case{"texture_forms", "--check=memcheck"},
                                           recorded_case{"textures", "--check=memcheck"},
                                           recorded_case{"textures", "--check=racecheck,synccheck"}),
                         recorded_case_name);

// A surface write past the edge in the default boundary mode (trap) ends the kernel with a report
// naming the line; the program sees the error.
TEST(Surfaces, TrapModeFaultsOutsideTheSurface) {
  const cuemu_result r = run_cuemu("run -DOUTSIDE " + program("surface_trap.cu"));
  EXPECT_NE(r.out.find("cuemu: out-of-bounds surface access in kernel write_row"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("surface_trap.cu:11"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after the kernel: cudaErrorIllegalAddress"), std::string::npos) << r.out;
  const cuemu_result ok = run_cuemu("run " + program("surface_trap.cu"));
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_NE(ok.out.find("after the kernel: cudaSuccess"), std::string::npos) << ok.out;
}

// Mipmapped arrays are refused with cudaErrorNotSupported and a line naming the first call.
TEST(Textures, MipmappedArraysAreRefusedWithAnError) {
  const cuemu_result r = run_cuemu("run " + program("mipmaps_refused.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("cudaMallocMipmappedArray: cudaErrorNotSupported, null 1\n"
                       "cudaGetMipmappedArrayLevel: cudaErrorNotSupported\n"
                       "cudaFreeMipmappedArray(null): cudaSuccess\n"
                       "last error: cudaErrorNotSupported\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cuemu: cudaMallocMipmappedArray: mipmapped arrays are not emulated"),
            std::string::npos)
      << r.out;
}

}  // namespace
