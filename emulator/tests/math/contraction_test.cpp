// Plain arithmetic in kernels as nvcc compiles it (issue 14): a multiply and a dependent add are
// one fused multiply-add (nvcc's -fmad=true), and with -fmad=false they are not.
// contraction/contraction.cu computes 41 shapes of products and sums in kernels on 4096 inputs;
// its output on an H200 (nvcc 13.0, -O2 -arch=sm_90; -O3 and sm_80 print the same) is the
// expectation: per shape a hash of the results' bits, how many differ from the host's one rounding
// per operation, and the first results.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "run_cuemu.h"

namespace {


std::map<std::string, std::string> lines_by_shape(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const std::string name = line.substr(0, line.find(' '));
    if (!name.empty()) out[name] = line;
  }
  return out;
}

void compare(const std::string& options, const std::string& record, const std::set<std::string>& skip,
             const std::string& program = CONTRACTION_CU, std::size_t shapes = 41) {
  const auto want = lines_by_shape(read_text_file(record));
  ASSERT_EQ(want.size(), shapes + (program == CONTRACTION_CU)) << record;  // and contraction's summary
  const cuemu_result r = run_cuemu("run -O2 " + options + " " + program + " 2>&1");
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
  EXPECT_EQ(compared, static_cast<int>(shapes - skip.size()));
}

TEST(MathContraction, KernelsFuseAsNvccDoes) {
  // Every shape, select_addend too (g++ branches on its addend; the plugin fuses the product
  // into the addition of the later block, as nvcc does).
  compare("", CONTRACTION_RECORD, {});
}

TEST(MathContraction, KernelsFuseAsNvccDoesUnderEveryExecutor) {
  compare("--exec=fibers", CONTRACTION_RECORD, {});
}

// Which of two products is fused (contraction/fused_product.cu): nvcc fuses the one whose operands
// are all available earlier (g++ the one computed first); the g++ plugin (src/gpu_fp) makes the
// same choice.
TEST(MathContraction, TheProductNvccFusesIsFused) {
  compare("", FUSED_PRODUCT_RECORD, {}, FUSED_PRODUCT_CU, 18);
}

// The choice in a loop g++ keeps rolled, whose operands come from the previous iteration
// (contraction/rolled_loop.cu, cuda-samples' binomialOptions): nvcc fuses the left product, as
// its PTX shows (sm_90, -O2: `mul.f32` of q and c[j], then `fma.rn.f32` of c[j + 1] and p;
// with the loop unrolled and not), and the H200 printed these two lines (2026-12-05). The plugin judges the operands' order before g++'s
// partial redundancy elimination turns c[j] into a value carried round the loop. On the loop
// path and on coroutines alike.
TEST(MathContraction, RolledLoopFusesTheProductNvccFuses) {
  const std::string want =
      "rolled_loop_17 first  559 second    0 none    0 ambiguous 1617\n"
      "rolled_loop_5  first  171 second    0 none    0 ambiguous  469\n";
  for (const char* exec : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run -O2 ") + exec + " " + ROLLED_LOOP_CU + " 2>&1");
    EXPECT_EQ(r.status, 0) << exec << "\n" << r.out;
    EXPECT_EQ(r.out, want) << exec;
  }
}

// What ptxas fuses after NVVM (contraction/ptxas_fusion.cu): per shape, how many results are the
// first candidate, the second, unfused or ambiguous, byte for byte as the GPU printed them
// (contraction/ptxas_fusion_h100.txt, sm_90; the H200 printed the same bytes). The SASS nvcc 13.0 makes of it (`nvcc -O2
// -arch=sm_90 -cubin`, then `cuobjdump -sass`) says why: the left product of a difference is the
// FFMA's (`FMUL R0, z, w; FFMA R, x, y, -R0` whichever product comes first); the vector
// operators' and add2's arguments are computed left to right and the older product fused; a
// loop-invariant product with an immediate (`FFMA R, y, -9, x`), a square of a parameter
// (`FFMA R, c, c, x`), a product of two kernel parameters (`FFMA R, -c, d, x`) or of a loaded
// value and a parameter (`FFMA R, a, UR6, x`: the parameter a uniform-register operand) is fused
// in every iteration, a product of two loaded values stays `FMUL` then `FADD`; a product with
// one use, added after a branch or after a loop, is fused (`@P0 FFMA`; `FFMA R3, R3, R2, R6`
// after the loop's FADDs).
TEST(MathContraction, WhatPtxasFusesIsFused) {
  std::ifstream record(PTXAS_FUSION_RECORD);
  ASSERT_TRUE(record) << PTXAS_FUSION_RECORD;
  const std::string want((std::istreambuf_iterator<char>(record)), std::istreambuf_iterator<char>());
  ASSERT_NE(want.find("hoisted_two_parameters"), std::string::npos);
  for (const char* exec : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run -O2 ") + exec + " " + PTXAS_FUSION_CU + " 2>&1");
    ASSERT_EQ(r.status, 0) << exec << "\n" << r.out;
    EXPECT_EQ(r.out, want) << exec;
  }
}

TEST(MathContraction, FmadFalseRoundsEveryOperation) {
  compare("-fmad=false", CONTRACTION_FMAD_FALSE_RECORD, {});
}

}  // namespace
