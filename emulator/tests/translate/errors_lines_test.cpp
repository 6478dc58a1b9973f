// Errors name the user's file:line (through g++ -E line markers) and the construct; rewriting
// never changes which input line a later line of output corresponds to.
#include "test_util.h"
#include "translate/line_map.h"

namespace cuemu::translate::test {
namespace {

result rewrite_expecting_errors(std::string_view in) { return rewrite(in, "fallback.cu"); }

void expect_one_error(std::string_view in, const std::string& file, int line, const std::string& message) {
  const result r = rewrite_expecting_errors(in);
  ASSERT_EQ(r.errors.size(), 1u) << in;
  EXPECT_EQ(r.errors[0].file, file) << in;
  EXPECT_EQ(r.errors[0].line, line) << in;
  EXPECT_EQ(r.errors[0].message, message) << in;
}

const std::string unclosed = "unclosed kernel launch: '<<<' without a matching '>>>'";

TEST(Errors, UnclosedLaunchUsesTheLineMarkers) {
  expect_one_error("# 1 \"user.cu\"\nint x;\n# 40 \"user.cu\"\nvoid f() {\n  k<<<1, 2(p);\n}\n", "user.cu", 41,
                   unclosed);
}

TEST(Errors, BeforeAnyMarkerTheFileNameAndPhysicalLineAreUsed) {
  expect_one_error("\n\nvoid f() { k<<<1, 2; }\n", "fallback.cu", 3, unclosed);
}

// Found by the fuzzer (emulator/fuzz/corpus/line_number_overflow.cu): a line number no compiler
// writes overflowed the parser (undefined behaviour); such a directive is not a line marker.
TEST(Errors, LineMarkerWithAnImpossibleLineNumberIsNotAMarker) {
  expect_one_error("# 4444444444444444444444 \"user.cu\"\nint x;\nk<<<1;\n", "fallback.cu", 3, unclosed);
  line_map m("f.cu");
  EXPECT_FALSE(m.add_directive("# 99999999999999999999 \"x.cu\"", 1));
  EXPECT_TRUE(m.add_directive("# 2000000000 \"x.cu\"", 1));
}

TEST(Errors, MarkerWithFlagsAndEscapedFileName) {
  expect_one_error("# 7 \"inc/h.cuh\" 1 3 4\n\n\nk<<<1;\n", "inc/h.cuh", 9, unclosed);
  expect_one_error("# 3 \"dir\\\\a \\\"b\\\".cu\"\nk<<<1;\n", "dir\\a \"b\".cu", 3, unclosed);
  expect_one_error("#line 20 \"l.cu\"\nk<<<1;\n", "l.cu", 20, unclosed);
}

TEST(Errors, ReturningFromAnIncludedHeader) {
  // A marker with flag 2 returns to the includer: lines continue from its number.
  expect_one_error("# 1 \"main.cu\"\n# 1 \"h.cuh\" 1\nint a;\n# 2 \"main.cu\" 2\n\nk<<<>>>(p);\n", "main.cu", 3,
                   "empty argument in the <<<...>>> launch configuration");
}

TEST(Errors, LaunchConfigurationShape) {
  expect_one_error("k<<<1, 2, 3, 4, 5>>>(p);", "fallback.cu", 1,
                   "a <<<...>>> launch configuration takes 1 to 4 arguments, not 5");
  expect_one_error("k<<<>>>(p);", "fallback.cu", 1, "empty argument in the <<<...>>> launch configuration");
  expect_one_error("k<<<1, 1>>>;", "fallback.cu", 1, "expected a parenthesised argument list after '>>>'");
  expect_one_error("x = 1;\n;<<<1, 1>>>(p);", "fallback.cu", 2,
                   "cannot find the kernel before '<<<' (expected a name, a template-id or a parenthesised expression)");
}

TEST(Errors, UnclosedLaunchInsideParentheses) {
  expect_one_error("f(k<<<1, 1);\nint y;", "fallback.cu", 1, unclosed);
}

TEST(Errors, LaunchInsideAConfiguration) {
  expect_one_error("k<<<f(g<<<1, 1>>>()), 1>>>(p);", "fallback.cu", 1,
                   "a kernel launch inside another launch's <<<...>>> configuration is not supported");
}

TEST(Errors, ExternSharedWithSizeHasFileAndLine) {
  expect_one_error("# 10 \"s.cu\"\nvoid f() {\n  extern __cuemu_shared__ float s[64];\n}\n", "s.cu", 11,
                   "extern __shared__ must declare an unsized array: 'extern __shared__ T name[];' (or "
                   "'T name[][N]')");
}

TEST(Errors, UnparsableGlobal) {
  expect_one_error("# 5 \"g.cu\"\n__cuemu_global__ int x;\n", "g.cu", 5,
                   "cannot rewrite this __global__ function: no parameter list follows");
  expect_one_error("__cuemu_global__ void k(int n) int {}", "fallback.cu", 1,
                   "cannot rewrite this __global__ function: expected '{', ';' or '= delete' after the parameter list");
  expect_one_error("__cuemu_global__ void k(...) {}", "fallback.cu", 1,
                   "cannot rewrite this __global__ function: a kernel cannot be variadic");
  expect_one_error("__cuemu_global__ void k(int n, * p) {}", "fallback.cu", 1,
                   "cannot rewrite this __global__ function: cannot parse parameter 2 '* p'");
}

TEST(Errors, UnnamedFunctionPointerParameterInADefinition) {
  expect_one_error("__cuemu_global__ void k(int n,\n void (*)(int)) {}", "fallback.cu", 1,
                   "cannot rewrite this __global__ function: give parameter 2 a name (an unnamed "
                   "function-pointer parameter cannot be forwarded)");
  // In a declaration it needs no name.
  EXPECT_EQ(rw("__cuemu_global__ void k(int n, void (*)(int));"), G + " void k(int n, void (*)(int));");
}

TEST(Lines, LaterLinesStayInPlace) {
  const std::string in =
      "# 1 \"u.cu\"\n"
      "__cuemu_global__ void k(float* p, int n) {\n"  // prologue and registrar inserted
      "  extern __cuemu_shared__ float s[];\n"       // replaced
      "  __cuemu_shared__ int t;\n"                  // replaced
      "}\n"
      "void h(float* p) {\n"
      "  k<<<1,\n"                                   // a launch over three lines
      "      2>>>(p,\n"
      "           3);\n"
      "  int marker_line_10 = __builtin_LINE();\n"
      "}\n";
  const std::string out = rw(in);
  ASSERT_EQ(count_lines(out), count_lines(in));
  // Every line after the last rewrite is identical.
  std::vector<std::string> a, b;
  for (const std::string* s : {&in, &out}) {
    std::vector<std::string>& v = s == &in ? a : b;
    std::size_t start = 0;
    for (std::size_t nl; (nl = s->find('\n', start)) != std::string::npos; start = nl + 1)
      v.push_back(s->substr(start, nl - start));
  }
  EXPECT_EQ(b[0], a[0]);
  EXPECT_EQ(b[5], a[5]);
  EXPECT_EQ(b[9], a[9]);
  EXPECT_EQ(b[10], a[10]);
  EXPECT_EQ(b[6], "  " + PUSH + "1, 2), k");
  EXPECT_EQ(b[7], "(p,");
  EXPECT_EQ(b[8], "           3));");
}

TEST(Lines, ErrorsAfterRewritesStillPointAtTheirLine) {
  const result r = rewrite_expecting_errors(
      "# 100 \"v.cu\"\n__cuemu_global__ void k(int n) {\n}\nvoid h() {\n  k<<<1, 1>>>(2);\n  k<<<1, 1>>>;\n}\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].file, "v.cu");
  EXPECT_EQ(r.errors[0].line, 104);
}

}  // namespace
}  // namespace cuemu::translate::test
