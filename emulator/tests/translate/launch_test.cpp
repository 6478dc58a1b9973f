// Kernel launches: callee<<<A, B[, C[, D]]>>>(args) ->
//   ((void)::cuemu::detail::push_call_configuration(A, B[, C[, D]]), callee(args))
#include "test_util.h"

namespace cuemu::translate::test {
namespace {

TEST(Launch, TwoArguments) {
  EXPECT_EQ(rw("k<<<1, 2>>>(a, b);"), PUSH + "1, 2), k(a, b));");
}

TEST(Launch, ThreeAndFourArguments) {
  EXPECT_EQ(rw("k<<<g, b, smem>>>(p);"), PUSH + "g, b, smem), k(p));");
  EXPECT_EQ(rw("k<<<g,b,0,stream>>>();"), PUSH + "g, b, 0, stream), k());");
}

TEST(Launch, ShiftsInsideTheConfiguration) {
  EXPECT_EQ(rw("k<<<n >> 5, 1 << s>>>(x);"), PUSH + "n >> 5, 1 << s), k(x));");
}

TEST(Launch, TemplateIdWithShiftInParentheses) {
  EXPECT_EQ(rw("ns::k<T, (8 >> 1)><<<g, b>>>(x);"), PUSH + "g, b), ns::k<T, (8 >> 1)>(x));");
}

TEST(Launch, NestedTemplateIdClosedByShiftToken) {
  EXPECT_EQ(rw("k<A<int>><<<1, 1>>>(p);"), PUSH + "1, 1), k<A<int>>(p));");
  EXPECT_EQ(rw("k<uint4, 4><<<1, 1>>>(p);"), PUSH + "1, 1), k<uint4, 4>(p));");
}

TEST(Launch, QualifiedNames) {
  EXPECT_EQ(rw("x; ::a::b::k<<<1,1>>>(p);"), "x; " + PUSH + "1, 1), ::a::b::k(p));");
  EXPECT_EQ(rw("a::template k<int><<<1, 1>>>(p);"), PUSH + "1, 1), a::template k<int>(p));");
}

TEST(Launch, ParenthesisedAndSubscriptedCallees) {
  EXPECT_EQ(rw("(*fp)<<<1, 1>>>(x);"), PUSH + "1, 1), (*fp)(x));");
  EXPECT_EQ(rw("table[i]<<<1, 1>>>(x);"), PUSH + "1, 1), table[i](x));");
  EXPECT_EQ(rw("s.fns[0]<<<1, 1>>>(x);"), PUSH + "1, 1), s.fns[0](x));");
}

TEST(Launch, StopsAtKeywordsAndControlParentheses) {
  EXPECT_EQ(rw("if (c) k<<<1, 1>>>(x); else k<<<2, 2>>>(y);"),
            "if (c) " + PUSH + "1, 1), k(x)); else " + PUSH + "2, 2), k(y));");
  EXPECT_EQ(rw("while (c) (*fp)<<<1, 1>>>(x);"), "while (c) " + PUSH + "1, 1), (*fp)(x));");
  EXPECT_EQ(rw("return k<<<1, 1>>>(x);"), "return " + PUSH + "1, 1), k(x));");
}

TEST(Launch, BracketsAndBracesInTheConfiguration) {
  EXPECT_EQ(rw("k<<<dim3(a, b), {32, 1, 1}, sz[i]>>>(p);"), PUSH + "dim3(a, b), {32, 1, 1}, sz[i]), k(p));");
}

TEST(Launch, WhitespaceAfterTheConfigurationIsKept) {
  EXPECT_EQ(rw("  k<<<1, 1>>>   (p) ;"), "  " + PUSH + "1, 1), k   (p)) ;");
}

TEST(Launch, InsideTemplatesAndLambdas) {
  EXPECT_EQ(rw("template <class T> void run(T* p, cudaStream_t s) { k<T, 4><<<1, 32, 0, s>>>(p); }"),
            "template <class T> void run(T* p, cudaStream_t s) { " + PUSH + "1, 32, 0, s), k<T, 4>(p)); }");
  EXPECT_EQ(rw("auto f = [&] { k<<<1, 1>>>(p); };"), "auto f = [&] { " + PUSH + "1, 1), k(p)); };");
}

TEST(Launch, TwoLaunchesOnOneLineAndLaunchArgumentsWithCalls) {
  EXPECT_EQ(rw("a<<<1,1>>>(f(x), g(y)); b<<<2,2>>>();"),
            PUSH + "1, 1), a(f(x), g(y))); " + PUSH + "2, 2), b());");
}

TEST(Launch, MultiLineLaunchKeepsTheLineCount) {
  const std::string in = "k<<<grid,\n     block>>>(a,\n  b);\nnext;\n";
  const std::string out = rw(in);
  EXPECT_EQ(out, PUSH + "grid, block), k\n(a,\n  b));\nnext;\n");
  EXPECT_EQ(count_lines(out), count_lines(in));
}

TEST(Launch, LiteralsAndOperatorTemplateAreUntouched) {
  const std::string in =
      "const char* s = \"k<<<1,1>>>(p)\"; const char* r = R\"x(k<<<1, 1>>>(p))x\"; char c = '<';\n"
      "auto& o = operator<<<int>(os, v);\n";
  EXPECT_EQ(rw(in), in);
}

// Real `g++ -E` output of:
//   #define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
//   __global__ void k(int* p, int n);
//   void host(int* p, int n) {
//     // k<<<1, 1>>>(p, n) in a comment
//     LAUNCH(k, (n + 255) / 256, 256, p, n); /* k<<<2, 2>>>() */
//     const char* s = "k<<<1, 1>>>(p)";
//   }
// with -D__global__=__cuemu_global__: the macro expanded, the comments gone.
TEST(Launch, ProducedByAMacroInRealPreprocessorOutput) {
  const std::string in =
      "# 0 \"m.cu\"\n"
      "# 0 \"<built-in>\"\n"
      "# 0 \"<command-line>\"\n"
      "# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n"
      "# 0 \"<command-line>\" 2\n"
      "# 1 \"m.cu\"\n"
      "\n"
      "__cuemu_global__ void k(int* p, int n);\n"
      "void host(int* p, int n) {\n"
      "\n"
      "  k<<<(n + 255) / 256, 256>>>(p, n);\n"
      "  const char* s = \"k<<<1, 1>>>(p)\";\n"
      "}\n";
  const std::string out = rw(in);
  const std::string expected =
      "# 0 \"m.cu\"\n"
      "# 0 \"<built-in>\"\n"
      "# 0 \"<command-line>\"\n"
      "# 1 \"/usr/include/stdc-predef.h\" 1 3 4\n"
      "# 0 \"<command-line>\" 2\n"
      "# 1 \"m.cu\"\n"
      "\n" +
      G + " void k(int* p, int n);\n"
      "void host(int* p, int n) {\n"
      "\n"
      "  " + PUSH + "(n + 255) / 256, 256), k(p, n));\n"
      "  const char* s = \"k<<<1, 1>>>(p)\";\n"
      "}\n";
  EXPECT_EQ(out, expected);
}

// g++ -E wraps a system header's macro (NULL as the stream) in line markers: the launch keeps
// its line count and ends with the last marker, so that what follows keeps its line.
TEST(Launch, LineMarkersInsideTheConfiguration) {
  const std::string in =
      "# 4 \"m.cu\"\n"
      "  k<<<1, 1, 0,\n"
      "# 5 \"m.cu\" 3 4\n"
      "             __null\n"
      "# 5 \"m.cu\"\n"
      "                 >>>(p);\n"
      "  f();\n";
  EXPECT_EQ(rw(in), "# 4 \"m.cu\"\n  " + PUSH + "1, 1, 0, __null), k\n\n\n# 5 \"m.cu\"\n(p));\n  f();\n");
}

TEST(Launch, PragmaInsideIsAnError) {
  const std::string in =
      "# 4 \"m.cu\"\n"
      "  k<<<1,\n"
      "#pragma GCC diagnostic push\n"
      "  2>>>(p);\n";
  const result r = rewrite(in, "t.cu");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].message, "a kernel launch split by a #pragma cannot be rewritten");
}

}  // namespace
}  // namespace cuemu::translate::test
