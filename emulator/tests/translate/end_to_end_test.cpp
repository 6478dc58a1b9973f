// End to end through the real host compiler: g++ -E a small .cu with the emulator's marker
// definitions, rewrite it, and check that g++ -fsyntax-only accepts the result (prefixed with
// stub declarations of the cuemu::detail hooks, so this test does not depend on the runtime's
// headers), that __builtin_LINE() still gives the user's line, and that a compile error points
// at the user's file:line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "translate/rewriter.h"

namespace cuemu::translate {
namespace {

const char* const kSource = R"cu(#include <cstddef>
#define LAUNCH(kern, n, ...) kern<<<((n) + 127) / 128, 128>>>(__VA_ARGS__)
namespace ns {
template <class T, int N>
__global__ void __launch_bounds__(128) scale(T* __restrict__ p, int n) {
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ T tile[N], total;
  tile[0] = p[0]; total = tile[0]; static_assert(sizeof(tile) == N * sizeof(T), "an array");
  smem[0] = 1;
  if (n > 0) p[n - 1] = tile[0] * static_cast<T>(smem[0]);
}
template <> __global__ void scale<double, 4>(double*, int) {}
}  // namespace ns
template __global__ void ns::scale<float, 8>(float*, int);
extern __shared__ float namespace_scope_dyn[];
__global__ void plain(float* p, int, const float* __restrict__ q) { static __shared__ __align__(16) volatile int flag; flag = 1; p[0] = q[0] + namespace_scope_dyn[0] + flag; }
template <typename... Ts> __global__ void variadic(Ts... xs) { (void)sizeof...(xs); }
extern "C" __global__ void ck(void) {}
__global__ void declared_only(int);
__noinline__ int helper(int x) { return x + 1; }
__attribute__((__noinline__)) int helper2(int x) { return x + 2; }
void host(float* p, int n) {
  LAUNCH(plain, n, p, n, p);  // a <<<comment>>>
  ns::scale<float, (16 >> 1)><<<n >> 5, 1 << 3, 0, 0>>>(p, n);
  const char* s = "k<<<1, 1>>>(p)";
  (void)s;
  variadic<<<1, 1>>>(1, 2.0, p);
  ck<<<1,
       1>>>();
  static_assert(__builtin_LINE() == 30, "output line 30 is still user line 30");
#ifdef BREAK
  int broken = "not an int";
#endif
}
)cu";

const char* const kStubs = R"(namespace cuemu { namespace detail {
struct dim3_stub { dim3_stub(unsigned, unsigned = 1, unsigned = 1) {} };
int push_call_configuration(dim3_stub, dim3_stub, unsigned long = 0, void* = nullptr);
bool is_launch_call() noexcept;
template <auto F, class... A>
void launch_from_stub(const char*, const char*, A&&...) {}
struct kernel_registrar { template <class... P> kernel_registrar(void (*)(P...), const char*) {} };
void* dynamic_shared_memory() noexcept;
struct worker_tls_init { explicit worker_tls_init(const void* (*)()) {} };
// Defined, not just declared: its Key is a lambda, a local type (g++ rejects an undefined
// function template used with one).
template <class T, class Key> T& block_shared(Key) noexcept { static T* p; return *p; }
}}
)";

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class EndToEnd : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/cuemu_translate_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    std::ofstream(dir_ + "/k.cu") << kSource;
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }

  // g++ -E with the emulator's markers; the rewritten text (stubs prepended) in dir_/k.out.ii.
  void preprocess_and_rewrite(const std::string& extra_flags, const options& opts = {}) {
    const std::string repo = CUEMU_REPO_ROOT;
    const std::string include = repo + "/emulator/include";
    const std::string host_defines = include + "/cuemu/host_defines.h";
    // The emulator's own header defines the markers under __CUEMU_TRANSLATE__; without it the
    // markers (and what the header would define) are given on the command line.
    const std::string markers =
        std::ifstream(host_defines).good()
            ? "-include '" + host_defines + "'"
            : "'-D__global__=__cuemu_global__' '-D__shared__=__cuemu_shared__' "
              "'-D__align__(n)=__attribute__((aligned(n)))' '-D__launch_bounds__(...)=' "
              "'-D__restrict__=__restrict'";
    const std::string cmd = std::string(CUEMU_TEST_CXX) + " -E -x c++ -std=c++17 -D__CUEMU_TRANSLATE__ -I'" +
                            include + "' " + markers + " " + extra_flags + " '" + dir_ + "/k.cu' -o '" + dir_ +
                            "/k.ii' 2> '" + dir_ + "/e.txt'";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n" << read_file(dir_ + "/e.txt");
    const std::string pre = read_file(dir_ + "/k.ii");
    const result r = rewrite(pre, "k.cu", opts);
    for (const diagnostic& e : r.errors) ADD_FAILURE() << e.file << ":" << e.line << ": " << e.message;
    EXPECT_EQ(std::count(r.text.begin(), r.text.end(), '\n'), std::count(pre.begin(), pre.end(), '\n'));
    EXPECT_EQ(r.text.find("<<<"), r.text.find("\"k<<<1, 1>>>(p)\"") + 2);  // only the string keeps <<<
    EXPECT_EQ(r.text.find("__cuemu_global__"), std::string::npos);
    EXPECT_EQ(r.text.find("__cuemu_shared__"), std::string::npos);
    std::ofstream(dir_ + "/k.out.ii") << kStubs << r.text;
  }

  int syntax_check(const std::string& extra_flags = "") {
    const std::string cmd = std::string(CUEMU_TEST_CXX) + " -std=c++17 -fsyntax-only " + extra_flags +
                            " -x c++ -fpreprocessed '" +
                            dir_ + "/k.out.ii' 2> '" + dir_ + "/e.txt'";
    return std::system(cmd.c_str());
  }

  std::string dir_;
};

TEST_F(EndToEnd, PreprocessedRewrittenSourceCompiles) {
  preprocess_and_rewrite("");
  EXPECT_EQ(syntax_check(), 0) << read_file(dir_ + "/e.txt");
}

// --check=memcheck/racecheck: __shared__ variables become references to per-block objects
// (the array in a template kernel, the scalars in a plain one) and still compile.
TEST_F(EndToEnd, SharedAsBlockObjectsCompiles) {
  options opts;
  opts.shared_as_block_objects = true;
  preprocess_and_rewrite("", opts);
  const std::string out = read_file(dir_ + "/k.out.ii");
  EXPECT_NE(out.find("T (&tile)[N] = ::cuemu::detail::block_shared<T [N]>([] {}); "
                     "T &total = ::cuemu::detail::block_shared<T>([] {});"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("volatile int &flag = ::cuemu::detail::block_shared<volatile int>([] {});"),
            std::string::npos)
      << out;
  // `T (&x)` without bounds would draw -Wparentheses ("unnecessary parentheses").
  EXPECT_EQ(syntax_check("-Werror=parentheses"), 0) << read_file(dir_ + "/e.txt");
}

TEST_F(EndToEnd, CompileErrorsPointAtTheUsersFileAndLine) {
  preprocess_and_rewrite("-DBREAK");
  EXPECT_NE(syntax_check(), 0);
  const std::string errors = read_file(dir_ + "/e.txt");
  EXPECT_NE(errors.find("k.cu:32:"), std::string::npos) << errors;
}

// 130k lines of preprocessed libstdc++ (templates full of `>>`, `operator<<`, raw strings) must
// come out byte for byte unchanged and without a single error.
TEST_F(EndToEnd, StandardLibraryPassesThroughUnchanged) {
  std::ofstream(dir_ + "/std.cpp") << "#include <bits/stdc++.h>\n";
  const std::string cmd = std::string(CUEMU_TEST_CXX) + " -E -x c++ -std=c++17 '" + dir_ + "/std.cpp' -o '" +
                          dir_ + "/std.ii' 2> '" + dir_ + "/e.txt'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_file(dir_ + "/e.txt");
  const std::string pre = read_file(dir_ + "/std.ii");
  ASSERT_GT(pre.size(), 100000u);
  const result r = rewrite(pre, "std.cpp");
  EXPECT_TRUE(r.errors.empty()) << r.errors[0].file << ":" << r.errors[0].line << ": " << r.errors[0].message;
  EXPECT_TRUE(r.text == pre);
}

}  // namespace
}  // namespace cuemu::translate
