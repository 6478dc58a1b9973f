// Barrier regions as loops over threads (emulator/src/regions, cuemu/regions.h).
//
// programs/shapes.cu holds kernels of each shape the translation meets, each checked against a
// CPU reference by the program itself. The path each kernel must take is written here from the
// translation's rules (not from its output): the shapes it proves safe run as loops, the others
// keep their coroutines with the reason. Both paths and several schedules must print the same.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <string>

#include "run_cuemu.h"

namespace {

const std::string kShapes = std::string(PROGRAMS_DIR) + "/shapes.cu";

std::string built_shapes() {
  static std::string exe;
  if (!exe.empty()) return exe;
  char dir[] = "/tmp/cuemu-regions-test-XXXXXX";
  if (!mkdtemp(dir)) return "";
  exe = std::string(dir) + "/shapes";
  const cuemu_result r = run_cuemu("cc " + kShapes + " -o " + exe);
  EXPECT_EQ(r.status, 0) << r.out;
  return exe;
}

cuemu_result run_program(const std::string& env) {
  const std::string cmd = env + " " + built_shapes() + " 2>&1";
  cuemu_result r;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (p && std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = p ? pclose(p) : -1;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

TEST(Regions, EachKernelTakesThePathItsShapeAllows) {
  const cuemu_result r = run_cuemu("cc -v " + kShapes + " -o /dev/null");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::map<std::string, std::string> want = {
      {"tree_reduce", "loops over threads (1 of its regions run only the threads below a bound)"},
      {"matmul", "loops over threads"},
      {"loops_and_branches", "loops over threads"},
      {"early_exit", "loops over threads"},
      {"template_scan", "loops over threads"},
      {"divergent_halves", "coroutines (a barrier under a condition that may differ"},
      {"warp_reduce", "loops over threads"},
      {"warp_collectives", "loops over threads"},
      {"syncwarp_ring", "loops over threads"},
      {"shuffle_and_barrier", "loops over threads"},
      {"ballot_count", "loops over threads"},
      {"warp_votes", "loops over threads"},
      {"cg_block_reduce", "loops over threads"},
      {"cg_tile_reduce", "loops over threads"},
      {"tile_shuffle_template", "loops over threads"},
      {"tile_shuffle_in_branch", "coroutines (a barrier under a condition that may differ"},
      {"dependent_tile", "coroutines (in dependent_tile<32U>: a barrier or warp collective that "
                         "depends on template parameters)"},
      {"shuffle_after_return", "coroutines (a return in a kernel with warp shuffles)"},
      {"barrier_in_callee", "coroutines (a barrier inside a function it calls)"},
      {"spin_then_barrier", "coroutines (a loop that polls memory"},
      {"uniform_break_continue", "loops over threads"},
      {"break_out_of_barrier_loop", "coroutines (a barrier under a condition that may differ"},
      {"barrier_with_result", "loops over threads"},
      {"thread_index_in_callees", "loops over threads"},
      // Its loop's `if (t < stride)` and `if (t < lim)`; not `if (t == 0)`.
      {"guarded_steps", "loops over threads (2 of its regions run only the threads below a bound)"},
      {"guarded_template", "loops over threads (1 of its regions run only the threads below a bound)"},
      {"fast_math", "loops over threads"},
  };
  for (const auto& [kernel, path] : want)
    EXPECT_NE(r.out.find(": kernel " + kernel + ": " + path), std::string::npos)
        << kernel << " should take: " << path << "\n" << r.out;
}

// A file whose only synchronisation is warp-level (no block barrier anywhere) is translated too:
// its shuffle, ballot, tile and __syncwarp kernels run as loops, and print what the coroutines
// print.
TEST(Regions, WarpOnlyKernelsTakeLoopsToo) {
  const std::string src = std::string(PROGRAMS_DIR) + "/warp_only.cu";
  const cuemu_result v = run_cuemu("cc -v " + src + " -o /dev/null");
  ASSERT_EQ(v.status, 0) << v.out;
  for (const char* kernel : {"shuffle_sum", "ballot_count", "tile_sum", "syncwarp_ring"})
    EXPECT_NE(v.out.find(std::string(": kernel ") + kernel + ": loops over threads"),
              std::string::npos)
        << kernel << "\n" << v.out;
  const std::string want =
      "shuffle_sum: ok\nballot_count: ok\ntile_sum: ok\nsyncwarp_ring: ok\ncudaSuccess\n";
  for (const char* exec : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run ") + exec + " " + src);
    EXPECT_EQ(r.status, 0) << exec << "\n" << r.out;
    EXPECT_EQ(r.out, want) << exec;
  }
}

TEST(Regions, CallToAFunctionOfAnotherFileKeepsCoroutines) {
  const std::string src = std::string(PROGRAMS_DIR) + "/extern_callee.cu";
  const cuemu_result r = run_cuemu("cc -v -rdc=true -c " + src + " -o /dev/null");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(": kernel calls_elsewhere: coroutines (elsewhere: defined in another file"),
            std::string::npos)
      << r.out;
}

// A region that reads no threadIdx runs without setting it per thread; a fault there must still
// name the faulting thread (77 of block 1, from the program's source), on both paths.
TEST(Regions, FaultInARegionNamesItsThread) {
  const std::string src = std::string(PROGRAMS_DIR) + "/fault_in_region.cu";
  char dir[] = "/tmp/cuemu-regions-fault-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string exe = std::string(dir) + "/fault";
  const cuemu_result built = run_cuemu("cc -v " + src + " -o " + exe);
  ASSERT_EQ(built.status, 0) << built.out;
  EXPECT_NE(built.out.find(": kernel wild_store: loops over threads"), std::string::npos) << built.out;
  for (const char* env : {"CUEMU_EXEC=loops", "CUEMU_EXEC=fibers", "CUEMU_SCHEDULE=reverse",
                          "CUEMU_SCHEDULE=random:5"}) {
    const std::string cmd = std::string(env) + " " + exe + " 2>&1";
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    while (p && std::fgets(buf, sizeof buf, p)) out += buf;
    const int st = p ? pclose(p) : -1;
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) != 0) << env << "\n" << out;
    EXPECT_NE(out.find("invalid memory access in kernel wild_store block (1,0,0) thread (77,0,0) "
                       "at " + src + ":11"),
              std::string::npos)
        << env << "\n" << out;
    EXPECT_EQ(out.find("cudaSuccess"), std::string::npos) << env << "\n" << out;
  }
}

TEST(Regions, BothPathsAndEverySchedulePrintTheSame) {
  const cuemu_result loops = run_program("CUEMU_EXEC=loops");
  EXPECT_EQ(loops.status, 0) << loops.out;
  EXPECT_NE(loops.out.find("all ok"), std::string::npos) << loops.out;
  for (const char* env : {"CUEMU_EXEC=fibers", "CUEMU_SCHEDULE=reverse", "CUEMU_SCHEDULE=random:7",
                          "CUEMU_EXEC=fibers CUEMU_SCHEDULE=random:7", "CUEMU_WORKERS=1"}) {
    const cuemu_result r = run_program(env);
    EXPECT_EQ(r.status, 0) << env << "\n" << r.out;
    EXPECT_EQ(r.out, loops.out) << env;
  }
}

TEST(Regions, DriverOptionChoosesThePath) {
  const cuemu_result fibers = run_cuemu("run --exec=fibers " + kShapes);
  EXPECT_EQ(fibers.status, 0) << fibers.out;
  EXPECT_EQ(fibers.out, run_program("CUEMU_EXEC=loops").out);
  const cuemu_result bad = run_cuemu("run --exec=threads " + kShapes);
  EXPECT_EQ(bad.status, 2) << bad.out;
  EXPECT_NE(bad.out.find("expected loops or fibers"), std::string::npos) << bad.out;
}

TEST(Regions, UnknownExecutionPathIsAnError) {
  const cuemu_result r = run_program("CUEMU_EXEC=threads");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("CUEMU_EXEC"), std::string::npos) << r.out;
}

// Differential testing of the two paths on the suite's correct programs that synchronise:
// built once, run with the kernels' region forms (loops), with a coroutine per thread (fibers),
// and with loops under a random schedule; the three print the same and end the same.
class Differential : public ::testing::TestWithParam<const char*> {};

TEST_P(Differential, LoopsAndFibersPrintTheSame) {
  // emulator/tests/<part>/...
  const std::string src = std::string(PROGRAMS_DIR) + "/../../" + GetParam();
  char dir[] = "/tmp/cuemu-differential-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string exe = std::string(dir) + "/prog";
  // Its own build's flags, as the suite's other tests build it.
  const std::string flags = std::string(GetParam()).find("cpp20") != std::string::npos ? "-std=c++20 " : "";
  const cuemu_result built = run_cuemu("cc -v " + flags + src + " -o " + exe);
  ASSERT_EQ(built.status, 0) << built.out;
  auto run = [&](const std::string& env) {
    cuemu_result r;
    FILE* p = popen((env + " " + exe + " 2>&1").c_str(), "r");
    char buf[4096];
    while (p && std::fgets(buf, sizeof buf, p)) r.out += buf;
    const int st = p ? pclose(p) : -1;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return r;
  };
  const cuemu_result loops = run("CUEMU_EXEC=loops");
  const cuemu_result fibers = run("CUEMU_EXEC=fibers");
  const cuemu_result random = run("CUEMU_EXEC=loops CUEMU_SCHEDULE=random:3");
  EXPECT_EQ(loops.status, fibers.status) << loops.out << "\n---\n" << fibers.out;
  EXPECT_EQ(loops.out, fibers.out);
  EXPECT_EQ(loops.status, random.status);
  EXPECT_EQ(loops.out, random.out);
  std::remove(exe.c_str());
  rmdir(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Suite, Differential,
    ::testing::Values("zoo/correct_reduction.cu", "zoo/cpp20_kernels.cu", "driver/programs/cp_async.cu",
                      "progress/programs/activemask.cu", "progress/programs/producer_consumer.cu",
                      "progress/programs/lookback_scan.cu", "progress/programs/grid_sync.cu",
                      "dynamic_parallelism/programs/cdp.cu",
                      "regions/programs/shapes.cu"),
    [](const ::testing::TestParamInfo<const char*>& i) {
      std::string n = i.param;
      for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

}  // namespace
