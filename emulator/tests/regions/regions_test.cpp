// Barrier regions as loops over threads (emulator/src/regions, cuemu/regions.h).
//
// programs/shapes.cu holds kernels of each shape the translation meets, each checked against a
// CPU reference by the program itself. The path each kernel must take is written here from the
// translation's rules (not from its output): the shapes it proves safe run as loops, the others
// keep their coroutines with the reason. Both paths and several schedules must print the same.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// A built program run with environment `env` (its output, stderr too, and exit status).
cuemu_result run_built(const std::string& env, const std::string& exe) {
  const std::string cmd = env + " " + exe + " 2>&1";
  cuemu_result r;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  while (p && std::fgets(buf, sizeof buf, p)) r.out += buf;
  const int st = p ? pclose(p) : -1;
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return r;
}

cuemu_result run_program(const std::string& env) { return run_built(env, built_shapes()); }

TEST(Regions, EachKernelTakesThePathItsShapeAllows) {
  const cuemu_result r = run_cuemu("cc -v " + kShapes + " -o /dev/null");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::map<std::string, std::string> want = {
      {"tree_reduce", "loops over threads (1 of its regions run only the threads below a bound)"},
      {"matmul", "loops over threads"},
      {"loops_and_branches", "loops over threads"},
      {"early_exit", "loops over threads"},
      {"template_scan", "loops over threads"},
      // A statement the loops cannot cut runs as coroutines, the rest of the kernel as loops.
      {"divergent_halves", "loops over threads; the statement at line 159 as coroutines (a barrier "
                           "under a condition that may differ"},
      {"warp_reduce", "loops over threads"},
      {"warp_collectives", "loops over threads"},
      {"syncwarp_ring", "loops over threads"},
      {"shuffle_and_barrier", "loops over threads"},
      {"ballot_count", "loops over threads"},
      {"warp_votes", "loops over threads"},
      {"cg_block_reduce", "loops over threads"},
      {"cg_tile_reduce", "loops over threads"},
      {"tile_shuffle_template", "loops over threads"},
      {"tile_shuffle_in_branch", "loops over threads; the statement at line 309 as coroutines (a "
                                 "barrier under a condition that may differ"},
      // Its tile's shuffle resolves per instantiation (a statement as coroutines), and the tile
      // it declares, of a dependent type, would live across the barrier.
      {"dependent_tile", "coroutines (an 'auto' variable of a type that depends on template "
                         "parameters live across a barrier)"},
      {"shuffle_after_return", "coroutines (a return in a kernel with warp shuffles)"},
      // Its callee is written out in it (written_out.cu has the shapes of that).
      {"barrier_in_callee", "loops over threads (1 call of functions that synchronise written out)"},
      {"spin_then_barrier", "coroutines (a loop that polls memory"},
      {"uniform_break_continue", "loops over threads"},
      // The break leaves its `if`: the loop around it runs as coroutines.
      {"break_out_of_barrier_loop", "loops over threads; the statement at line 223 as coroutines (a "
                                    "barrier under a condition that may differ"},
      {"barrier_with_result", "loops over threads"},
      {"thread_index_in_callees", "loops over threads"},
      // Its loop's `if (t < stride)` and `if (t < lim)`; not `if (t == 0)`.
      {"guarded_steps", "loops over threads (2 of its regions run only the threads below a bound)"},
      {"guarded_template", "loops over threads (1 of its regions run only the threads below a bound)"},
      {"fast_math", "loops over threads"},
      {"written_through_reference", "loops over threads"},
      // Its loops' atomic updates drop their old values: no loop waits for another thread.
      {"histogram_atomics", "loops over threads"},
      // cuda_fp16.h's volatile locals are not polls.
      {"half_accumulate", "loops over threads"},
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
  for (const char* kernel : {"shuffle_sum", "ballot_count", "tile_sum", "syncwarp_ring", "shuffle_kinds"})
    EXPECT_NE(v.out.find(std::string(": kernel ") + kernel + ": loops over threads"),
              std::string::npos)
        << kernel << "\n" << v.out;
  const std::string want =
      "shuffle_sum: ok\nballot_count: ok\ntile_sum: ok\nsyncwarp_ring: ok\n"
      "shuffle_kinds (whole warps): ok\nshuffle_kinds (a partial warp): ok\ncudaSuccess\n";
  for (const char* exec : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run ") + exec + " " + src);
    EXPECT_EQ(r.status, 0) << exec << "\n" << r.out;
    EXPECT_EQ(r.out, want) << exec;
  }
}

// Shuffles whose lane or delta is the same in every thread are computed for the whole block
// before the statement that reads them (every op, widths 32 to 1, deltas past the width, 4- and
// 8-byte values, a two-dimensional block), and the ones that must not be (the statement writes
// its delta first; a lane-dependent lane) are not: each result equals a CPU reference of the
// Programming Guide's rules, and the program prints, on every path and schedule, what the GPU
// printed (uniform_shuffles_h100.txt, recorded on an H100 with nvcc 13.0 -arch=sm_90, its
// checksums too; the H200 printed the same bytes).
TEST(Regions, ShufflesWithOneDeltaForTheBlockGiveTheGpusResults) {
  const std::string src = std::string(PROGRAMS_DIR) + "/uniform_shuffles.cu";
  char dir[] = "/tmp/cuemu-uniform-shuffles-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string exe = std::string(dir) + "/prog";
  const cuemu_result v = run_cuemu("cc -v " + src + " -o " + exe);
  ASSERT_EQ(v.status, 0) << v.out;
  for (const char* kernel : {"by_parameter_32", "by_parameter_16", "by_parameter_8", "by_parameter_4",
                             "by_parameter_2", "by_parameter_1", "by_loop", "by_shape", "not_once"})
    EXPECT_NE(v.out.find(std::string(": kernel ") + kernel + ": loops over threads\n"), std::string::npos)
        << kernel << "\n" << v.out;
  // Its kernels without floating-point values are marked for the vectoriser; by_shape is not.
  {
    const cuemu_result kept = run_cuemu("cc --keep " + src + " -o " + exe);
    ASSERT_EQ(kept.status, 0) << kept.out;
    const std::string tag = "kept the intermediate files in ";
    const std::size_t at = kept.out.find(tag);
    ASSERT_NE(at, std::string::npos) << kept.out;
    const std::string kept_dir = kept.out.substr(at + tag.size(), kept.out.find('\n', at) - at - tag.size());
    const cuemu_result ls = run_built("", "cat " + kept_dir + "/plain/*.regions.cu; rm -rf " + kept_dir);
    const std::string& form = ls.out;
    auto marked = [&](const std::string& kernel) {
      const std::size_t k = form.find("void " + kernel + "(");
      const std::size_t next = form.find("__global__", k + 1);
      return k != std::string::npos &&
             form.substr(k, next == std::string::npos ? std::string::npos : next - k).find("__cuemu_vectorise") !=
                 std::string::npos;
    };
    for (const char* kernel : {"by_parameter_32", "by_parameter_1", "by_loop", "not_once"})
      EXPECT_TRUE(marked(kernel)) << kernel;
    EXPECT_FALSE(marked("by_shape"));
  }
  std::ifstream f(std::string(PROGRAMS_DIR) + "/uniform_shuffles_h100.txt");
  std::stringstream gpu;
  gpu << f.rdbuf();
  ASSERT_FALSE(gpu.str().empty());
  for (const char* env : {"CUEMU_EXEC=loops", "CUEMU_EXEC=fibers", "CUEMU_SCHEDULE=reverse",
                          "CUEMU_SCHEDULE=random:5", "CUEMU_WORKERS=1"}) {
    const cuemu_result r = run_built(env, exe);
    EXPECT_EQ(r.status, 0) << env << "\n" << r.out;
    EXPECT_EQ(r.out, gpu.str()) << env;
  }
  std::remove(exe.c_str());
  rmdir(dir);
}

// Over-aligned variables live across barriers are aligned on the loop path as on coroutines.
TEST(Regions, OverAlignedVariablesAcrossBarriersAreAligned) {
  const std::string src = std::string(PROGRAMS_DIR) + "/over_aligned.cu";
  const cuemu_result v = run_cuemu("cc -v " + src + " -o /dev/null");
  ASSERT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find(": kernel kept: loops over threads\n"), std::string::npos) << v.out;
  for (const char* exec : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run ") + exec + " " + src);
    EXPECT_EQ(r.status, 0) << exec << "\n" << r.out;
    EXPECT_EQ(r.out, "misaligned copies: 0, wrong results: 0\n") << exec;
  }
}

// A kernel's calls of __device__ functions that synchronise are written out in it, and the
// functions' barriers cut like the kernel's own; the calls it cannot write out (a return before
// the function's end, a function that prints its own name, a global its body reads that a
// variable of the kernel hides) run as coroutines. Each kernel checks its result against a CPU
// reference; both paths and other schedules print the same.
TEST(Regions, CallsOfFunctionsThatSynchroniseAreWrittenOut) {
  const std::string src = std::string(PROGRAMS_DIR) + "/written_out.cu";
  const cuemu_result v = run_cuemu("cc -v " + src + " -o /dev/null");
  ASSERT_EQ(v.status, 0) << v.out;
  const std::map<std::string, std::string> want = {
      {"void_call", "loops over threads (1 call of functions that synchronise written out)\n"},
      {"nested_values", "loops over threads (1 call of functions that synchronise written out)\n"},
      {"template_twice", "loops over threads (2 calls of functions that synchronise written out)\n"},
      {"in_template", "loops over threads (1 call of functions that synchronise written out)\n"},
      {"reference_results", "loops over threads (1 call of functions that synchronise written out)\n"},
      {"stays_a_call", "loops over threads; the statement at line 96 as coroutines (a barrier or warp "
                       "collective inside a function it calls)\n"},
      {"kept_calls", "loops over threads; the statement at line 116 as coroutines (a barrier or warp "
                     "collective inside a function it calls); the statement at line 118 as coroutines "
                     "(a barrier or warp collective inside a function it calls)\n"},
  };
  for (const auto& [kernel, path] : want)
    EXPECT_NE(v.out.find(": kernel " + kernel + ": " + path), std::string::npos)
        << kernel << " should take: " << path << "\n" << v.out;
  const std::string expected =
      "void_call: ok\nnested_values: ok\ntemplate_twice: ok\nstays_a_call: ok\nin_template: ok\n"
      "reference_results: ok\nin named\nkept_calls: ok\nall ok\n";
  for (const char* env : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run ") + env + " " + src);
    EXPECT_EQ(r.status, 0) << env << "\n" << r.out;
    EXPECT_EQ(r.out, expected) << env;
  }
  // Under a user's strict warnings the written-out code adds none of its own (its variables are
  // renamed; the region form is exempt from -Wshadow): the kernels keep their loops.
  const cuemu_result strict = run_cuemu("cc -v -Xcompiler -Wall,-Wextra,-Wshadow " + src + " -o /dev/null");
  EXPECT_EQ(strict.status, 0) << strict.out;
  EXPECT_EQ(strict.out.find("did not compile with its region forms"), std::string::npos) << strict.out;
  EXPECT_EQ(strict.out.find("__cuemu"), std::string::npos) << strict.out;
}

// Functions that call the next one four times, nested: written out, the copies multiply (4^d of
// the last; here d = 2). Past a limit of text (1 MiB; here lowered for a small program) the translation
// keeps the kernel's calls as calls, run as coroutines, and the program prints the same.
TEST(Regions, CallsThatMultiplyPastALimitStayCalls) {
  const std::string src = testing::TempDir() + "/fanout.cu";
  FILE* f = std::fopen(src.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs("#include <cstdio>\n__device__ unsigned f0(unsigned* s, unsigned v) { s[threadIdx.x] = v; "
             "__syncthreads(); unsigned r = s[(threadIdx.x + 1) % 32]; __syncthreads(); return r; }\n",
             f);
  for (int d = 1; d <= 2; ++d)
    std::fprintf(f,
                 "__device__ unsigned f%d(unsigned* s, unsigned v) { unsigned a = f%d(s, v); a += f%d(s, a); "
                 "a += f%d(s, a); a += f%d(s, a); return a; }\n",
                 d, d - 1, d - 1, d - 1, d - 1);
  std::fputs("__global__ void k(unsigned* out) { __shared__ unsigned s[32]; unsigned v = f2(s, 1); "
             "out[threadIdx.x] = v; }\nint main() { unsigned* o; cudaMallocManaged(&o, 32 * sizeof(unsigned)); "
             "k<<<1, 32>>>(o); cudaDeviceSynchronize(); std::printf(\"%u\\n\", o[0]); return 0; }\n",
             f);
  std::fclose(f);
  // Every thread holds the same value (f0 returns its neighbour's): f_d(v) = c (1 + c)^3 v with c
  // f_{d-1}'s factor, in unsigned arithmetic.
  std::uint32_t c = 1;
  for (int d = 1; d <= 2; ++d) c = c * (1 + c) * (1 + c) * (1 + c);
  const std::string printed = "\n" + std::to_string(c) + "\n";
  const cuemu_result all = run_cuemu("run -v " + src);
  EXPECT_EQ(all.status, 0) << all.out;
  EXPECT_NE(all.out.find(": kernel k: loops over threads (1 call of functions that synchronise written out)\n"),
            std::string::npos)
      << all.out;
  EXPECT_NE(all.out.find(printed), std::string::npos) << all.out;
  const cuemu_result capped =
      run_built("CUEMU_REGIONS_WRITE_OUT_LIMIT=2048", std::string(CUEMU_EXE) + " run -v " + src);
  EXPECT_EQ(capped.status, 0) << capped.out;
  EXPECT_NE(capped.out.find(": kernel k: loops over threads; the statement at line 5 as coroutines (a barrier "
                            "or warp collective inside a function it calls)\n"),
            std::string::npos)
      << capped.out;
  EXPECT_NE(capped.out.find(printed), std::string::npos) << capped.out;
}

// A variable of a type that is not trivially copyable (a pipeline, a class with a destructor)
// live across barriers: constructed in place per thread, destroyed once when its block ends,
// unless its destructor synchronises or asks which thread runs it.
TEST(Regions, ObjectsLiveAcrossBarriersAreConstructedInPlace) {
  const std::string src = std::string(PROGRAMS_DIR) + "/objects.cu";
  const cuemu_result v = run_cuemu("cc -v " + src + " -o /dev/null");
  ASSERT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find(": kernel object_across_barriers: loops over threads\n"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find(": kernel destructor_reads_thread: coroutines (a variable live across a barrier "
                       "whose destructor synchronises, polls or reads threadIdx)"),
            std::string::npos)
      << v.out;
  EXPECT_NE(v.out.find(": kernel pipeline_copy: loops over threads; the statement at line 58 as coroutines"),
            std::string::npos)
      << v.out;
  // 3 blocks of 128 threads: one object each.
  const std::string expected =
      "object_across_barriers: ok\nobjects constructed 384, destroyed 384\ndestructor_reads_thread: ok\n"
      "pipeline_copy: ok\nall ok\n";
  for (const char* env : {"--exec=loops", "--exec=fibers"}) {
    const cuemu_result r = run_cuemu(std::string("run ") + env + " " + src);
    EXPECT_EQ(r.status, 0) << env << "\n" << r.out;
    EXPECT_EQ(r.out, expected) << env;
  }
}

// What another file's function reaches is not known here: the statement calling it runs as
// coroutines.
TEST(Regions, CallToAFunctionOfAnotherFileRunsAsCoroutines) {
  const std::string src = std::string(PROGRAMS_DIR) + "/extern_callee.cu";
  const cuemu_result r = run_cuemu("cc -v -rdc=true -c " + src + " -o /dev/null");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(": kernel calls_elsewhere: loops over threads; the statement at line 7 as "
                       "coroutines (elsewhere: defined in another file"),
            std::string::npos)
      << r.out;
}

// Block-level statements the loops cannot cut (a barrier or shuffle reached through a call, or
// under a condition that differs between threads) run as coroutines between loops: which ones,
// from the translation's rules; the program checks every kernel against a CPU reference, and
// both paths and every schedule print the same.
TEST(Regions, StatementsTheLoopsCannotCutRunAsCoroutines) {
  const std::string src = std::string(PROGRAMS_DIR) + "/fiber_statements.cu";
  char dir[] = "/tmp/cuemu-regions-fibers-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string exe = std::string(dir) + "/fibers";
  const cuemu_result built = run_cuemu("cc -v " + src + " -o " + exe);
  ASSERT_EQ(built.status, 0) << built.out;
  const char* const callee = "as coroutines (a barrier or warp collective inside a function it calls)";
  const char* const divergent = "as coroutines (a barrier under a condition that may differ";
  const std::vector<std::pair<std::string, std::string>> want = {
      {"callee_sync", std::string("loops over threads; the statement at line 49 ") + callee +
                          "; the statement at line 50 " + callee},
      {"last_warp", std::string("loops over threads; the statement at line 68 ") + divergent},
      // No barrier after it: a thread that finishes it leaves the block's barriers.
      {"split_barriers", std::string("loops over threads; the statement at line 82 ") + divergent},
      // Its __syncwarp(__activemask()) names no constant mask: the translation cannot see which
      // lanes it waits for.
      {"return_inside", "loops over threads; the statement at line 100 as coroutines (__syncwarp: a "
                        "warp collective"},
      {"callee_in_loop", std::string("loops over threads; the statement at line 117 ") + callee},
      {"contracted_callee", std::string("loops over threads; the statement at line 134 ") + callee},
      {"restrict_params", std::string("loops over threads; the statement at line 146 ") + callee},
  };
  EXPECT_EQ(built.out.find("did not compile with its region forms"), std::string::npos) << built.out;
  for (const auto& [kernel, path] : want)
    EXPECT_NE(built.out.find(": kernel " + kernel + ": " + path), std::string::npos)
        << kernel << " should take: " << path << "\n" << built.out;
  auto run = [&](const std::string& env) { return run_built(env, exe); };
  const cuemu_result loops = run("CUEMU_EXEC=loops");
  EXPECT_EQ(loops.status, 0) << loops.out;
  EXPECT_NE(loops.out.find("all ok"), std::string::npos) << loops.out;
  for (const char* env : {"CUEMU_EXEC=fibers", "CUEMU_SCHEDULE=reverse", "CUEMU_SCHEDULE=random:7",
                          "CUEMU_WORKERS=1"}) {
    const cuemu_result r = run(env);
    EXPECT_EQ(r.status, 0) << env << "\n" << r.out;
    EXPECT_EQ(r.out, loops.out) << env;
  }
}

// A barrier of the whole block under a condition that differs between threads, with barriers
// after it: the threads that skip it meet the others at the later one (legal since Volta), which
// a statement run as coroutines cannot follow, so the kernel keeps its coroutines and prints what
// a GPU prints (the upper half's stores, seen by the lower half after the paired barrier).
TEST(Regions, BarrierPairedAcrossStatementsKeepsCoroutines) {
  char dir[] = "/tmp/cuemu-regions-pair-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string cu = std::string(dir) + "/pair.cu";
  FILE* f = std::fopen(cu.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(
      "#include <cstdio>\n"
      "__global__ void pair(int* out) {\n"
      "  __shared__ int s[64];\n"
      "  s[threadIdx.x] = 1;\n"
      "  __syncthreads();\n"
      "  if (threadIdx.x < 32) { __syncthreads(); out[threadIdx.x] = s[threadIdx.x + 32]; }\n"
      "  if (threadIdx.x >= 32) { s[threadIdx.x] = 2; __syncthreads(); }\n"
      "}\n"
      "int main() {\n"
      "  int *o, h[32], sum = 0;\n"
      "  cudaMalloc(&o, 64 * sizeof(int));\n"
      "  pair<<<1, 64>>>(o);\n"
      "  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);\n"
      "  for (int i = 0; i < 32; ++i) sum += h[i];\n"
      "  std::printf(\"%s %d\\n\", cudaGetErrorName(cudaGetLastError()), sum);\n"
      "}\n",
      f);
  std::fclose(f);
  const cuemu_result r = run_cuemu("run -v --exec=loops " + cu + " 2>&1");
  EXPECT_NE(r.out.find("kernel pair: coroutines (a barrier under a condition that may differ"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("cudaSuccess 64\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.status, 0) << r.out;
}

// clang leaves a statement it cannot parse out of its AST: the kernel keeps its coroutines (a
// region form without the statement would skip it), and prints what it should.
TEST(Regions, StatementClangCannotParseKeepsCoroutines) {
  const std::string src = std::string(PROGRAMS_DIR) + "/unparsed_statement.cu";
  const cuemu_result r = run_cuemu("run -v " + src + " 2>&1");
  EXPECT_NE(r.out.find(": kernel doubles: coroutines (a statement clang could not parse (line 16"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nok\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.status, 0) << r.out;
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
  auto run = [&](const std::string& env) { return run_built(env, exe); };
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
                      "regions/programs/shapes.cu", "regions/programs/written_out.cu",
                      "regions/programs/objects.cu"),
    [](const ::testing::TestParamInfo<const char*>& i) {
      std::string n = i.param;
      for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

}  // namespace
