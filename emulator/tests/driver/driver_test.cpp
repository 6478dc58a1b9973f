// `cuemu run` end to end: output and exit status of correct programs, and the reports of
// compile errors, translation errors, bad options and faults.
#include <gtest/gtest.h>

#include "run_cuemu.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using result = cuemu_result;
result cuemu(const std::string& args) { return run_cuemu(args); }

std::string program(const char* name) { return std::string(PROGRAMS_DIR) + "/" + name; }

bool has(const result& r, const std::string& s) { return r.out.find(s) != std::string::npos; }

}  // namespace

TEST(Driver, RunsAProgramAndPassesArguments) {
  const result r = cuemu("run " + program("hello.cu") + " -- alpha 'two words'");
  EXPECT_EQ(r.status, 0) << r.out;
  // sum of i^2 for i < 100 = 99*100*199/6
  EXPECT_EQ(r.out, "sum of squares: 328350\narg 1: alpha\narg 2: two words\n");
}

TEST(Driver, ExitStatusIsTheProgramsOwn) {
  const result r = cuemu("run " + program("hello.cu") + " -- x");
  EXPECT_EQ(r.status, 3) << r.out;
}

TEST(Driver, SameOutputUnderEverySchedule) {
  for (const char* opt : {"--workers=1", "--workers=2", "--schedule=reverse", "--schedule=random:7"}) {
    const result r = cuemu(std::string("run ") + opt + " " + program("hello.cu"));
    EXPECT_EQ(r.status, 0) << opt << "\n" << r.out;
    EXPECT_EQ(r.out, "sum of squares: 328350\n") << opt;
  }
}

TEST(Driver, CcBuildsAnExecutable) {
  const std::string exe = testing::TempDir() + "/hello_cc";
  const result r = cuemu("cc -O1 " + program("hello.cu") + " -o " + exe);
  ASSERT_EQ(r.status, 0) << r.out;
  FILE* p = popen(exe.c_str(), "r");
  char buf[256] = {0};
  ASSERT_TRUE(std::fgets(buf, sizeof buf, p));
  pclose(p);
  EXPECT_STREQ(buf, "sum of squares: 328350\n");
}

TEST(Driver, CompileErrorPointsAtTheUsersLine) {
  const result r = cuemu("run " + program("compile_error.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "compile_error.cu:4")) << r.out;
  EXPECT_TRUE(has(r, "undeclared_name")) << r.out;
}

TEST(Driver, UntranslatableLaunchIsAnErrorWithFileAndLine) {
  const result r = cuemu("run " + program("unclosed_launch.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "unclosed_launch.cu:7: error:")) << r.out;
}

TEST(Driver, BadCommandLines) {
  result r = cuemu("run --frobnicate " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "unknown option '--frobnicate'")) << r.out;
  r = cuemu("run --schedule=sideways " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "--schedule")) << r.out;
  r = cuemu("run --workers=0 " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  r = cuemu("run -arch=sm_9x " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "invalid architecture")) << r.out;
  r = cuemu("run " + program("no_such_file.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "no_such_file.cu: no such file")) << r.out;
  r = cuemu("launch " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "unknown command 'launch'")) << r.out;
  r = cuemu("run -ftz=maybe " + program("hello.cu"));
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "option -ftz takes true or false, not 'maybe'")) << r.out;
  r = cuemu("run " + program("hello.cu") + " --prec-div");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r, "option --prec-div needs a value")) << r.out;
}

TEST(Driver, DeadlockEndsWithAReportAndNonZeroStatus) {
  const result r = cuemu("run " + program("deadlock.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: deadlock in kernel half_barrier block (0,0,0) thread (32,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "deadlock.cu:9")) << r.out;
  EXPECT_TRUE(has(r, "waits in __syncthreads at ")) << r.out;
  EXPECT_TRUE(has(r, "after launch: cudaErrorLaunchFailure")) << r.out;
}

TEST(Driver, StackOverflowNamesStackSize) {
  const result r = cuemu("run " + program("stack_overflow.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: stack overflow in kernel recurse block (0,0,0) thread (0,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "stack_overflow.cu:")) << r.out;
  EXPECT_TRUE(has(r, "--stack-size")) << r.out;
}

TEST(Driver, InvalidMemoryAccessNamesTheLine) {
  const result r = cuemu("run " + program("out_of_bounds.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: invalid memory access in kernel scatter block (0,0,0) thread (1,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "out_of_bounds.cu:5")) << r.out;
}

// The threads of a kernel that does not synchronise run as plain calls, one after another (the
// sync-free batch), which keep only threadIdx up to date: the report still names the thread that
// faulted, in a one- and a two-dimensional block.
TEST(Driver, InvalidMemoryAccessInASyncFreeKernelNamesItsThread) {
  result r = cuemu("run " + program("fault_in_batch.cu") + " -- 1d");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: invalid memory access in kernel touch1d block (3,0,0) thread (200,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "fault_in_batch.cu:11")) << r.out;
  r = cuemu("run " + program("fault_in_batch.cu") + " -- 2d");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: invalid memory access in kernel touch2d block (1,0,0) thread (5,4,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "fault_in_batch.cu:17")) << r.out;
}

// A divisor that is 0 at run time gives the GPU's all ones (the g++ plugin: no report, as a GPU
// reports none); under clang as the host compiler x86 traps, and the report says what and where.
// A divisor that is 0 at compile time is a trap g++ put there: the report says so.
TEST(Driver, IntegerDivisionByZeroIsTheGpusOrAReport) {
  result r = cuemu("run " + program("undefined_arithmetic.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cudaSuccess fffffffd fffffff8 ffffffff 0000000a")) << r.out;  // 7/-2, 8/-1, 9/0, 10/1
  if (std::system("command -v clang++ > /dev/null 2>&1") == 0) {
    r = cuemu("run -ccbin clang++ " + program("undefined_arithmetic.cu"));
    EXPECT_NE(r.status, 0) << r.out;
    EXPECT_TRUE(has(r, "cuemu: arithmetic exception in kernel divide block (0,0,0) thread (2,0,0) at ")) << r.out;
    EXPECT_TRUE(has(r, "undefined_arithmetic.cu:8")) << r.out;
    EXPECT_TRUE(has(r, "a GPU returns all ones")) << r.out;
  }
  r = cuemu("run -g " + program("undefined_arithmetic.cu") + " -- constant");
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: illegal instruction in kernel modulo_constant block (0,0,0) thread (0,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "undefined_arithmetic.cu:")) << r.out;  // the trap has no line: the launch's
  EXPECT_TRUE(has(r, "proved the code undefined")) << r.out;
}

TEST(Driver, RunawayLoopEndsAtTheTimeout) {
  const result r = cuemu("run --timeout=1 " + program("runaway.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_LT(r.seconds, 30) << r.out;
  EXPECT_TRUE(has(r, "cuemu: timeout in kernel spin block (")) << r.out;
  EXPECT_TRUE(has(r, "thread (3,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "runaway.cu:6")) << r.out;
}

// Inline PTX: the instructions with a CPU meaning run (griddepcontrol as no-ops, membar.gl as a
// fence, %laneid as the emulator's lane), any other is a translation error naming the line.
TEST(Driver, InlinePtxWithACpuMeaningRuns) {
  const result r = cuemu("run " + program("ptx_griddep.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  // 2 blocks of 8x6 threads: lanes 0..31 and 0..15 each (496 + 120); thread (0,5) is lane 40 % 32.
  EXPECT_EQ(r.out, "lane sum: 1232\nlane of thread (0,5) in block 1: 8\nblocks: 2\n");
}

TEST(Driver, UnsupportedInlinePtxIsAnErrorWithFileLineAndInstruction) {
  const result r = cuemu("run " + program("ptx_unsupported.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "ptx_unsupported.cu:6: error: inline PTX cannot run on the CPU emulator: "
                     "'ldmatrix.sync.aligned.m8n8.x4.shared.b16' (use plain C++ loads and stores, or guard it with "
                     "#ifdef __CUEMU__)"))
      << r.out;
}

TEST(Driver, TrapEndsTheKernelWithLaunchFailure) {
  const result r = cuemu("run " + program("trap.cu"));
  EXPECT_EQ(r.status, 3) << r.out;  // the program's own exit status
  EXPECT_TRUE(has(r, "cuemu: trap in kernel guard block (1,0,0) thread (2,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "trap.cu:6\n")) << r.out;
  EXPECT_TRUE(has(r, "launch: cudaErrorLaunchFailure unspecified launch failure")) << r.out;
}

TEST(Driver, OneArgumentLaunchConfigurationMeansOneThreadPerBlock) {
  const result r = cuemu("run " + program("one_argument_launch.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "blockDim 1 1 1, gridDim 3, threads 3")) << r.out;
}

TEST(Driver, DeviceAssertGivesCudaErrorAssert) {
  const result r = cuemu("run " + program("device_assert.cu"));
  // The program sees cudaErrorAssert, as on a GPU; its own exit status (main returns 0) stands.
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "first: cudaSuccess")) << r.out;
  // CUDA's own line, then the report; the error is sticky like on a GPU.
  EXPECT_TRUE(has(r, "device_assert.cu:6: void check_positive(const int*): block: [0,0,0], thread: [5,0,0] Assertion `v[threadIdx.x] > 0` failed.")) << r.out;
  EXPECT_TRUE(has(r, "cuemu: device-side assertion failed in kernel check_positive block (0,0,0) thread (5,0,0) at ")) << r.out;
  EXPECT_TRUE(has(r, "second: cudaErrorAssert")) << r.out;
  EXPECT_TRUE(has(r, "later: cudaErrorAssert")) << r.out;
}

// --- hostile and unusual input (valid CUDA as nvcc takes it, bad input with a clear error) ---

TEST(Driver, AcceptsTheNvccOptionsABuildPasses) {
  const std::string dep = testing::TempDir() + "/hello_dep.d";
  const result r = cuemu(
      "run -lineinfo -G --use_fast_math -Xptxas -v --expt-relaxed-constexpr --extended-lambda "
      "--expt-extended-lambda -rdc=true -gencode arch=compute_80,code=sm_80 "
      "--generate-code=arch=compute_90,code=[sm_90,compute_90] --generate-line-info -ccbin g++ "
      "-Werror all-warnings -MD -MF " + dep + " -Xcompiler -Wall -Xlinker --as-needed -m64 "
      "-ftz=true -prec-div=false -maxrregcount 64 --default-stream per-thread -t 2 -std=c++17 "
      "-x cu " + program("hello.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "sum of squares: 328350\n");
}

// A build with the host compiler's stricter warnings as errors: the emulator's headers (included
// as the user's, not as system headers) must not warn. Their launch functions once named their
// parameters gridDim and blockDim, which -Wshadow reports.
TEST(Driver, StrictWarningsAsErrorsSeeNoneFromTheEmulatorsHeaders) {
  const result r = cuemu("run -Xcompiler -Wall,-Wextra,-Wshadow,-Werror " + program("hello.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "sum of squares: 328350\n");
}

// The loop path's translation under the same flags: a thread's copy of a pointer parameter it
// advances is bound under the parameter's name, which -Wshadow saw until the bindings were
// exempted; the kernel then fell back to coroutines and the build printed the error.
TEST(Driver, StrictWarningsAsErrorsSeeNoneFromTheLoopPath) {
  const result r =
      cuemu("run -v -Xcompiler -Wall,-Wextra,-Wshadow,-Werror " + program("parameter_across_barrier.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  // Sums of 0..511 in blocks of 128, plus n = 512.
  EXPECT_TRUE(has(r, "\n8640 25024 41408 57792 \n")) << r.out;
  EXPECT_TRUE(has(r, "kernel block_sums: loops over threads")) << r.out;
  EXPECT_FALSE(has(r, "warning")) << r.out;
  EXPECT_FALSE(has(r, "did not compile with its region forms")) << r.out;
}

TEST(Driver, GencodeChoosesTheHighestArchitecture) {
  const std::string src = testing::TempDir() + "/arch_query.cu";
  FILE* f = std::fopen(src.c_str(), "w");
  std::fputs("#include <cstdio>\nint main() { cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);\n"
             "  std::printf(\"sm_%d%d\\n\", p.major, p.minor); return 0; }\n", f);
  std::fclose(f);
  result r = cuemu("run -gencode arch=compute_75,code=sm_75 -gencode=arch=compute_86,code=sm_86 " + src);
  EXPECT_EQ(r.out, "sm_86\n") << r.out;
  r = cuemu("run -arch=sm_80 -gencode arch=compute_90,code=sm_90 " + src);  // -arch wins
  EXPECT_EQ(r.out, "sm_80\n") << r.out;
}

TEST(Driver, DashXCuTranslatesAnySuffix) {
  const std::string copy = testing::TempDir() + "/hello_as.cpp";
  ASSERT_EQ(std::system(("cp " + program("hello.cu") + " " + copy).c_str()), 0);
  const result r = cuemu("run -x cu " + copy);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "sum of squares: 328350\n");
}

TEST(Driver, DependencyFileAsNvccWritesIt) {
  const std::string obj = testing::TempDir() + "/hello_dep.o", dep = testing::TempDir() + "/hello_dep2.d";
  const result r = cuemu("cc -c -MD -MF " + dep + " -MT custom_target " + program("hello.cu") + " -o " + obj);
  ASSERT_EQ(r.status, 0) << r.out;
  FILE* f = std::fopen(dep.c_str(), "r");
  ASSERT_NE(f, nullptr);
  std::string text;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, f)) text += buf;
  std::fclose(f);
  EXPECT_EQ(text.rfind("custom_target:", 0), 0u) << text;
  EXPECT_NE(text.find("hello.cu"), std::string::npos) << text;
}

TEST(Driver, NvccVersionMacros) {
  result r = cuemu("run " + program("nvcc_macros.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "nvcc 13.0.88, runtime 13000, api 13.0\n");
  r = cuemu("run -D__CUDACC_VER_MAJOR__=11 " + program("nvcc_macros.cu"));  // overridable
  EXPECT_EQ(r.out, "not nvcc 12+\n") << r.out;
  r = cuemu("run --use_fast_math " + program("nvcc_macros.cu"));
  EXPECT_EQ(r.out, "nvcc 13.0.88, runtime 13000, api 13.0\nfast math\n") << r.out;
  r = cuemu("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(has(r, "release 13.0")) << r.out;
}

TEST(Driver, TimeoutValuesNeverReportACorrectKernel) {
  for (const char* t : {"1e10", "inf", "1e300", "0"}) {
    const result r = cuemu(std::string("run --timeout=") + t + " " + program("hello.cu"));
    EXPECT_EQ(r.status, 0) << t << "\n" << r.out;
    EXPECT_EQ(r.out, "sum of squares: 328350\n") << t;
    EXPECT_LT(r.seconds, 10) << t;
  }
  for (const char* t : {"nan", "-1", "soon", ""}) {
    const result r = cuemu(std::string("run --timeout=") + t + " " + program("hello.cu"));
    EXPECT_EQ(r.status, 2) << t << "\n" << r.out;
    EXPECT_TRUE(has(r, "invalid --timeout")) << r.out;
  }
}

TEST(Driver, OutOfRangeOptionsAreRefusedBeforeBuilding) {
  const char* bad[][2] = {{"--workers=0", "--workers"},        {"--workers=100000", "--workers"},
                          {"--stack-size=1", "--stack-size"},  {"--stack-size=4096M", "--stack-size"},
                          {"--stack-size=12Q", "--stack-size"},
                          {"--schedule=random:999999999999999999999999", "--schedule"},
                          {"-arch=sm_20", "architecture"},     {"-x fortran", "-x fortran"},
                          {"-gencode arch=compute_xx,code=sm_xx", "-gencode"}};
  for (const auto& b : bad) {
    const result r = cuemu(std::string("run -v ") + b[0] + " " + program("hello.cu"));
    EXPECT_EQ(r.status, 2) << b[0] << "\n" << r.out;
    EXPECT_TRUE(has(r, b[1])) << b[0] << "\n" << r.out;
    EXPECT_FALSE(has(r, "CUEMU_")) << r.out;  // the option, not the environment variable
    // Checked before building: -v shows every command run, and none was.
    EXPECT_FALSE(has(r, "\n+ ") || r.out.rfind("+ ", 0) == 0) << "built before checking: " << b[0] << "\n" << r.out;
  }
}

TEST(Driver, DirectoryAsInputIsNamed) {
  const std::string dir = testing::TempDir() + "/looks_like.cu";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const result r = cuemu("run " + dir);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.out, "cuemu: " + dir + ": is a directory, not a source file\n");
}

TEST(Driver, ExitInAKernelIsRefusedAtCompileTime) {
  const result r = cuemu("run " + program("exit_in_kernel.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "exit_in_kernel.cu:5: error: exit() called in the __global__ function bail"))
      << r.out;
}

TEST(Driver, KernelParametersOverCudasLimitAreACompileError) {
  const result r = cuemu("run " + program("huge_parameters.cu"));
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, "more than 32764 bytes")) << r.out;
  EXPECT_TRUE(has(r, "huge_parameters.cu:")) << r.out;
}

TEST(Driver, LargeLocalArrayIsAStackOverflow) {
  const result r = cuemu("run " + program("big_local_array.cu"));
  EXPECT_NE(r.status, 0) << r.out;
  EXPECT_TRUE(has(r, "cuemu: stack overflow in kernel big block (0,0,0) thread (")) << r.out;
  EXPECT_TRUE(has(r, "big_local_array.cu:")) << r.out;
  // Never a line past the end of the 16-line file (the sync-free loop's code in cuemu/launch.h
  // carried the user's file name with the header's line, e.g. big_local_array.cu:83).
  for (int line = 17; line < 400; ++line)
    EXPECT_FALSE(has(r, "big_local_array.cu:" + std::to_string(line) + "\n")) << r.out;
  EXPECT_TRUE(has(r, "--stack-size")) << r.out;
  EXPECT_FALSE(has(r, "--check=memcheck")) << r.out;
  // With a stack that holds it, the kernel runs.
  const result ok = cuemu("run --stack-size=2M " + program("big_local_array.cu"));
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_EQ(ok.out, "cudaSuccess\n");
}

TEST(Driver, HostCrashSaysWhatAndWhere) {
  result r = cuemu("run " + program("host_crash.cu"));
  EXPECT_EQ(r.status, 128 + 11) << r.out;
  EXPECT_TRUE(has(r, "cuemu: segmentation fault (invalid memory access) in host code at ")) << r.out;
  EXPECT_TRUE(has(r, "host_crash.cu:7 in write_through(int*)")) << r.out;
  r = cuemu("run " + program("host_crash.cu") + " -- abort");
  EXPECT_EQ(r.status, 128 + 6) << r.out;
  EXPECT_TRUE(has(r, "cuemu: abort() in host code at ")) << r.out;
  EXPECT_TRUE(has(r, "host_crash.cu:14")) << r.out;
}

// SIGINT and SIGTERM to the driver: the program gets the signal and is waited for, the
// temporary directory is removed, and the driver ends by the same signal.
TEST(Driver, SignalsReachTheProgramAndNothingIsLeftBehind) {
  for (int sig : {SIGTERM, SIGINT}) {
    const std::string tmp = testing::TempDir() + "/signal_tmp_" + std::to_string(sig);
    ASSERT_EQ(std::system(("rm -rf " + tmp + " && mkdir -p " + tmp).c_str()), 0);
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    const pid_t pid = fork();
    if (pid == 0) {
      dup2(out[1], 1);
      close(out[0]);
      setenv("TMPDIR", tmp.c_str(), 1);
      const std::string prog = program("long_kernel.cu");
      execl(CUEMU_EXE, CUEMU_EXE, "run", prog.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    char buf[64] = {0};
    ASSERT_GT(read(out[0], buf, sizeof buf - 1), 0);  // "launching": the program runs
    EXPECT_STREQ(buf, "launching\n");
    usleep(200 * 1000);
    kill(pid, sig);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << status;
    close(out[0]);
    // The program is gone and the temporary directory with it.
    // (the bracket keeps pgrep's own command line from matching)
    const std::string left = "pgrep -f 'signal_tm[p]_" + std::to_string(sig) + "/cuemu-' >/dev/null";
    EXPECT_NE(std::system(left.c_str()), 0) << "a process was left running";
    EXPECT_EQ(std::system(("test -z \"$(ls -A " + tmp + ")\"").c_str()), 0) << "left in " << tmp;
  }
}

namespace {

std::string expected(const char* name) { return read_text_file(std::string(EXPECTED_DIR) + "/" + name); }

}  // namespace

// nvcc compiles a .cu twice; __CUDA_ARCH__ is the architecture in device code and undefined in
// host code, for the same __host__ __device__ function. Expectations recorded on an H200.
TEST(CudaArch, DeviceCodeSeesTheArchitectureHostCodeNone) {
  const result r = cuemu("run " + program("cuda_arch.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("cuda_arch.sm_90.txt"));
  const result r80 = cuemu("run -arch=sm_80 " + program("cuda_arch.cu"));
  EXPECT_EQ(r80.status, 0) << r80.out;
  EXPECT_EQ(r80.out, expected("cuda_arch.sm_80.txt"));
}

TEST(CudaArch, SameUnderEveryCheckingMode) {
  const result r = cuemu("run --check=all " + program("cuda_arch.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(without_driver_lines(r.out), expected("cuda_arch.sm_90.txt") + expected("cuda_arch.sm_90.txt")) << r.out;
  EXPECT_TRUE(has(r, "cuemu: checking summary: memcheck+synccheck: clean, racecheck+streams+synccheck: clean")) << r.out;
}

// Internal-linkage kernels and device variables of the same names in two files stay apart,
// built together or compiled separately and linked.
TEST(CudaArch, InternalLinkageStaysWithinItsFile) {
  const result r = cuemu("run " + program("arch_unit_a.cu") + " " + program("arch_unit_b.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("arch_units.txt"));
  const std::string dir = testing::TempDir();
  for (const char* unit : {"a", "b"}) {
    const result c = cuemu(std::string("cc -c ") + program((std::string("arch_unit_") + unit + ".cu").c_str()) +
                           " -o " + dir + "/arch_unit_" + unit + ".o");
    ASSERT_EQ(c.status, 0) << c.out;
  }
  const result l = cuemu("cc " + dir + "/arch_unit_a.o " + dir + "/arch_unit_b.o -o " + dir + "/arch_units");
  ASSERT_EQ(l.status, 0) << l.out;
  FILE* p = popen((dir + "/arch_units").c_str(), "r");
  std::string out;
  char buf[256];
  while (p && std::fgets(buf, sizeof buf, p)) out += buf;
  if (p) pclose(p);
  EXPECT_EQ(out, expected("arch_units.txt"));
}

// Two passes only when the preprocessed texts differ: a file that never tests __CUDA_ARCH__ is
// compiled once.
TEST(CudaArch, OneCompilationWhenNothingTestsIt) {
  const auto compilations = [](const result& r) {
    int n = 0;
    for (std::size_t at = r.out.find(" -c -x c++-cpp-output"); at != std::string::npos;
         at = r.out.find(" -c -x c++-cpp-output", at + 1))
      ++n;
    return n;
  };
  const result one = cuemu("cc -c -v " + program("hello.cu") + " -o " + testing::TempDir() + "/hello_v.o");
  EXPECT_EQ(one.status, 0) << one.out;
  EXPECT_EQ(compilations(one), 1) << one.out;
  const result two = cuemu("cc -c -v " + program("cuda_arch.cu") + " -o " + testing::TempDir() + "/cuda_arch_v.o");
  EXPECT_EQ(two.status, 0) << two.out;
  EXPECT_EQ(compilations(two), 2) << two.out;
}

// The GPU's own words for a trap (recorded on an H200: expected/trap.txt).
TEST(Driver, TrapReportsWhatTheGpuReports) {
  const std::string gpu = expected("trap.txt");
  const std::string first_line = gpu.substr(0, gpu.find('\n') + 1);
  const result r = cuemu("run " + program("trap.cu"));
  EXPECT_TRUE(has(r, first_line)) << r.out;
  EXPECT_NE(gpu.find("exit status " + std::to_string(r.status)), std::string::npos) << r.out;
}

// A CUDA toolkit's headers never stand in for the emulator's: including one (found through -I,
// -isystem or a default directory) is an error naming the header and the including line; the
// toolkit header's own failures are not shown. A fake toolkit (a directory with
// cuda_runtime_api.h) makes this independent of the machine.
TEST(ToolkitHeaders, AToolkitHeaderIsAnErrorNamingItAndTheLine) {
  const std::string dir = testing::TempDir() + "/fake_toolkit";
  std::system(("mkdir -p '" + dir + "/include/cuda' '" + dir + "/src'").c_str());
  std::ofstream(dir + "/include/cuda_runtime_api.h") << "#error the toolkit's runtime header\n";
  std::ofstream(dir + "/include/fancy_intrinsics.h") << "#error the toolkit's own failure\n#include <cuda/thing>\n";
  std::ofstream(dir + "/include/cuda/thing") << "asm(\"bar.sync 0;\");\n";
  std::ofstream(dir + "/src/uses.cu") << "#include <cstdio>\n\n#include <fancy_intrinsics.h>\nint main() { return 0; }\n";
  std::ofstream(dir + "/src/uses.cpp") << "#include <cuda/thing>\nint f() { return 1; }\n";
  std::ofstream(dir + "/src/main.cu") << "int f();\nint main() { return f() - 1; }\n";
  for (const char* flag : {"-I", "-isystem "}) {
    const result r = cuemu(std::string("run ") + flag + "'" + dir + "/include' '" + dir + "/src/uses.cu'");
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_TRUE(has(r, dir + "/src/uses.cu:3: error: cuemu does not provide <fancy_intrinsics.h>; the CUDA toolkit's copy found at "))
        << r.out;
    EXPECT_FALSE(has(r, "the toolkit's own failure")) << r.out;
    EXPECT_FALSE(has(r, "<cuda/thing>")) << r.out;  // included by the toolkit itself: not another error
  }
  const result c = cuemu("run -I '" + dir + "/include' '" + dir + "/src/main.cu' '" + dir + "/src/uses.cpp'");
  EXPECT_EQ(c.status, 2) << c.out;
  EXPECT_TRUE(has(c, dir + "/src/uses.cpp: error: cuemu does not provide <cuda/thing>")) << c.out;
  // The emulator's own headers come first: cuda_runtime_api.h of the toolkit is never reached.
  const result ok = cuemu("run -I '" + dir + "/include' " + program("cuda_arch.cu"));
  EXPECT_EQ(ok.status, 0) << ok.out;
  EXPECT_EQ(ok.out, expected("cuda_arch.sm_90.txt"));
}

// NVTX v3 (header-only host C) is compiled from the toolkit as the program's own code, as
// cuda-samples' cudaGraphsPerfScaling needs: its ranges and marks do nothing without a profiler.
// A program may also name its own device function __globaltimer (that sample does): the
// emulator's headers do not take the name.
TEST(ToolkitHeaders, NvtxRangesCompileAndDoNothing) {
  struct stat st;
  if (stat("/usr/local/include/nvtx3/nvToolsExt.h", &st) != 0)
    GTEST_SKIP() << "no toolkit nvtx3 in /usr/local/include";
  const std::string src = testing::TempDir() + "/uses_nvtx.cu";
  std::ofstream(src)
      << "#include <cstdio>\n#include <nvtx3/nvToolsExt.h>\n"
         "__device__ __forceinline__ unsigned long long __globaltimer() {\n"
         "  unsigned long long t;\n  asm volatile(\"mov.u64 %0, %globaltimer;\" : \"=l\"(t));\n"
         "  return t;\n}\n"
         "__global__ void k(unsigned long long* t) { *t = __globaltimer(); }\n"
         "int main() {\n  nvtxRangePushA(\"outer\");\n  nvtxMarkA(\"mark\");\n"
         "  unsigned long long* t;\n  cudaMallocManaged(&t, 8);\n  k<<<1, 1>>>(t);\n"
         "  cudaDeviceSynchronize();\n  const int depth = nvtxRangePop();\n"
         "  std::printf(\"timer set %d, pop %d\\n\", *t != 0, depth);\n  return 0;\n}\n";
  const result r = cuemu("run " + src);
  EXPECT_EQ(r.status, 0) << r.out;
  // Without an injected tool, nvtxRangePop answers -2 (NVTX_NO_PUSH_POP_TRACKING).
  EXPECT_EQ(r.out, "timer set 1, pop -2\n");
}

TEST(ToolkitHeaders, TheMachinesToolkitDoesNotLeakIn) {
  struct stat st;
  if (stat("/usr/local/include/cuda_runtime_api.h", &st) != 0) GTEST_SKIP() << "no toolkit in /usr/local/include";
  // (cuRAND's device headers are the exception: compiled as device code, tests/curand.)
  const std::string src = testing::TempDir() + "/uses_cublas.cu";
  std::ofstream(src) << "#include <cublas_v2.h>\nint main() { cublasHandle_t h; return cublasCreate(&h); }\n";
  const result r = cuemu("run " + src);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, src + ":1: error: cuemu does not provide <cublas_v2.h>; the CUDA toolkit's copy found at "
                             "/usr/local/include/cublas_v2.h is not used"))
      << r.out;
}

TEST(ToolkitHeaders, AMissingCudaHeaderIsNamedAsOneCuemuLacks) {
  const std::string src = testing::TempDir() + "/uses_missing.cu";
  std::ofstream(src) << "\n#include <cuda/not_a_header_anywhere>\nint main() { return 0; }\n";
  const result r = cuemu("run " + src);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(has(r, src + ":2: error: cuemu does not provide <cuda/not_a_header_anywhere>\n")) << r.out;
}

// Inline PTX beyond the fixed table (translate/ptx.h): byte permutes in every mode, bit-field
// and shift edge cases, wrapping atomics, ordered loads and stores, shuffles with predicates,
// votes and lane masks, all as an H200 computes them (expected/ptx_general.txt).
TEST(Driver, GeneralInlinePtxComputesWhatTheGpuDoes) {
  const result r = cuemu("run " + program("ptx_general.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("ptx_general.txt"));
}

// An ordered vector load never sees half of a vector store (two workers, so the two blocks run
// at once; the writer starts when the reader runs). Element by element it did, in most runs.
TEST(Driver, OrderedPtxVectorAccessesAreNotTorn) {
  const result r = cuemu("run --workers=2 " + program("ptx_vector_atomicity.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "ordered: torn 0\nvolatile: torn 0\n16-byte: torn 0\n");
  // They are atomics to racecheck too: no race between the writer and the reader.
  const result c = cuemu("run --workers=2 --check=racecheck " + program("ptx_vector_atomicity.cu"));
  EXPECT_EQ(c.status, 0) << c.out;
  EXPECT_EQ(c.out, "ordered: torn 0\nvolatile: torn 0\n16-byte: torn 0\n");
}

// The 4-way SIMD video instructions (vabsdiff4 and kin, as stereoDisparity uses): signed and
// unsigned bytes, saturation and the .add merge, as an H200 computes them.
TEST(Driver, SimdVideoInlinePtxComputesWhatTheGpuDoes) {
  const result r = cuemu("run " + program("ptx_video.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("ptx_video.txt"));
}

// The SIMD video intrinsics (saturating, averaging, comparing, absolute and negating forms, sums
// of absolute differences), __dp2a_lo/_hi and sm_90's DPX functions on 64 operand pairs.
TEST(Driver, SimdAndDpxIntrinsicsComputeWhatTheGpuDoes) {
  const result r = cuemu("run " + program("simd_dpx.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("simd_dpx.txt"));
}

// The SIMD video intrinsics simd_dpx.cu leaves out (wrap-around add and subtract, absolute
// differences, minimum and maximum, per halfword and per byte) and __dp4a, on 256 operand pairs.
TEST(Driver, WrappingSimdIntrinsicsComputeWhatTheGpuDoes) {
  const result r = cuemu("run " + program("simd_wrap.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("simd_wrap.txt"));
}

// The 2-way SIMD video instructions in inline PTX (plain, .sat, .add; signed and unsigned
// halfwords), signed vavrg4 (negative sums round down) and %globaltimer_hi.
TEST(Driver, TwoWayVideoInlinePtxComputesWhatTheGpuDoes) {
  const result r = cuemu("run " + program("ptx_video2.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("ptx_video2.txt"));
}

// nvcuda::wmma (<mma.h>): every shape and type the emulator provides, both layouts of loads and
// stores, element-wise work on fragments, mma_sync in place, four warps per block; and
// __float_to_tf32's rounding (expected/wmma.txt, recorded on an H200). The same under every
// checking mode (compute-sanitizer's racecheck is clean on the H200).
TEST(Driver, WarpMatrixMultiplyGivesWhatTheGpuGives) {
  for (const char* mode : {"", "--check=memcheck", "--check=racecheck", "--check=synccheck",
                           "--workers=1 --schedule=reverse"}) {
    const result r = cuemu(std::string("run ") + mode + " " + program("wmma.cu"));
    EXPECT_EQ(r.status, 0) << mode << "\n" << r.out;
    EXPECT_EQ(r.out, expected("wmma.txt")) << mode;
  }
}

// cp.async into `__shared__ alignas(16)` memory: 16-, 8- and 4-byte copies, a partial source
// zero-filled, commit and wait (expected/cp_async.txt, recorded on an H200); clean under every
// checking mode.
TEST(Driver, AsyncCopiesToSharedMemoryGiveWhatTheGpuGives) {
  const result r = cuemu("run " + program("cp_async.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("cp_async.txt"));
  const result c = cuemu("run --check=all " + program("cp_async.cu"));
  EXPECT_EQ(c.status, 0) << c.out;
}

// Texture objects over linear memory: element fetches, zeros outside the resource, the
// descriptors read back (expected/texture_linear.txt, recorded on an H200).
TEST(Driver, LinearTextureObjectsFetchAsTheGpuDoes) {
  const result r = cuemu("run " + program("texture_linear.cu"));
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, expected("texture_linear.txt"));
}
