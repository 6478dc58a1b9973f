// __shared__ under options::shared_as_block_objects (--check=memcheck/racecheck): every
// non-extern __shared__ declarator becomes a reference bound to this block's own heap object,
//   T (&name)[N]... = ::cuemu::detail::block_shared<T [N]...>([] {});
//   T &name = ::cuemu::detail::block_shared<T>([] {});  (no parentheses: g++ -Wall warns)
// extern __shared__ is lowered as in the default mode; namespace-scope __shared__ and
// initializers are errors.
#include "test_util.h"

namespace cuemu::translate::test {
namespace {

result rewrite_blocks(std::string_view in) {
  options o;
  o.shared_as_block_objects = true;
  return rewrite(in, "t.cu", o);
}

// Rewrites in the block-objects mode and fails the test on any error.
std::string rwb(std::string_view in) {
  result r = rewrite_blocks(in);
  for (const diagnostic& e : r.errors) ADD_FAILURE() << e.file << ":" << e.line << ": " << e.message;
  return r.text;
}

// The one error `in` must give (on line `line` of t.cu).
void expect_error(std::string_view in, const std::string& message, int line = 1) {
  const result r = rewrite_blocks(in);
  ASSERT_EQ(r.errors.size(), 1u) << in;
  EXPECT_EQ(r.errors[0].file, "t.cu") << in;
  EXPECT_EQ(r.errors[0].line, line) << in;
  EXPECT_EQ(r.errors[0].message, message) << in;
}

const std::string BS = " = ::cuemu::detail::block_shared<";
const std::string KEY = ">([] {});";
const std::string NAMESPACE_SCOPE =
    "namespace-scope __shared__ variables are not supported under --check=memcheck/racecheck; "
    "declare it inside the kernel";
const std::string INITIALIZER =
    "a __shared__ variable cannot have an initializer (CUDA does not allow one); assign it in the kernel";
const std::string UNSUPPORTED =
    "this __shared__ declaration cannot be rewritten for --check=memcheck/racecheck; "
    "expected '__shared__ T name[N]...;' (declare the type separately)";

TEST(SharedBlockObjects, Array) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ float s[256]; s[0] = 1; }"),
            "void f() { float (&s)[256]" + BS + "float [256]" + KEY + " s[0] = 1; }");
}

TEST(SharedBlockObjects, VolatileScalar) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ volatile int flag; }"),
            "void f() { volatile int &flag" + BS + "volatile int" + KEY + " }");
}

TEST(SharedBlockObjects, TemplateDependentMultiDimensionalBounds) {
  EXPECT_EQ(rwb("template <class T, int BLOCK> void f() { __cuemu_shared__ T tile[BLOCK][BLOCK + 1]; }"),
            "template <class T, int BLOCK> void f() { T (&tile)[BLOCK][BLOCK + 1]" + BS +
                "T [BLOCK][BLOCK + 1]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ int a[2][3][sizeof(T) * 4]; }"),
            "void f() { int (&a)[2][3][sizeof(T) * 4]" + BS + "int [2][3][sizeof(T) * 4]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ T s[N::value < 4 ? 4 : (M >> 1)]; }"),
            "void f() { T (&s)[N::value < 4 ? 4 : (M >> 1)]" + BS + "T [N::value < 4 ? 4 : (M >> 1)]" + KEY +
                " }");
}

TEST(SharedBlockObjects, SeveralDeclaratorsStayOnOneLine) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ int a[4], b; }"),
            "void f() { int (&a)[4]" + BS + "int [4]" + KEY + " int &b" + BS + "int" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ float *p, q[2], * const r; }"),
            "void f() { float *&p" + BS + "float *" + KEY + " float (&q)[2]" + BS + "float [2]" + KEY +
                " float * const &r" + BS + "float * const" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ int* const a[2], *b[3][4]; }"),
            "void f() { int * const (&a)[2]" + BS + "int * const [2]" + KEY + " int *(&b)[3][4]" + BS +
                "int * [3][4]" + KEY + " }");
}

TEST(SharedBlockObjects, StaticIsDropped) {
  EXPECT_EQ(rwb("void f() { static __cuemu_shared__ int x; }"), "void f() { int &x" + BS + "int" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ static int y[3]; }"),
            "void f() { int (&y)[3]" + BS + "int [3]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ unsigned static int z; }"),
            "void f() { unsigned int &z" + BS + "unsigned int" + KEY + " }");
}

TEST(SharedBlockObjects, AttributesAreDropped) {
  // __align__(16) as the emulator's host_defines.h expands it, before and after the marker.
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ __attribute__((aligned(16))) int a[4]; }"),
            "void f() { int (&a)[4]" + BS + "int [4]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __attribute__((aligned(16))) __cuemu_shared__ float4 v[8]; }"),
            "void f() { float4 (&v)[8]" + BS + "float4 [8]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { alignas(16) __cuemu_shared__ unsigned char buf[64]; }"),
            "void f() { unsigned char (&buf)[64]" + BS + "unsigned char [64]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ int s[4] __attribute__((aligned(8))); }"),
            "void f() { int (&s)[4]" + BS + "int [4]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ unsigned __attribute__((aligned(8))) char c[2]; }"),
            "void f() { unsigned char (&c)[2]" + BS + "unsigned char [2]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { [[maybe_unused]] __cuemu_shared__ int u; }"),
            "void f() { int &u" + BS + "int" + KEY + " }");
}

TEST(SharedBlockObjects, CvQualifiersAnywhereInTheSpecifiers) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ const volatile int a[2]; }"),
            "void f() { const volatile int (&a)[2]" + BS + "const volatile int [2]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { volatile __cuemu_shared__ int b; }"),
            "void f() { volatile int &b" + BS + "volatile int" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ int volatile c[4]; }"),
            "void f() { int volatile (&c)[4]" + BS + "int volatile [4]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ T const d; }"), "void f() { T const &d" + BS + "T const" + KEY + " }");
}

TEST(SharedBlockObjects, TemplateAndQualifiedTypes) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ ns::vec<T, 4> v[2]; }"),
            "void f() { ns::vec<T, 4> (&v)[2]" + BS + "ns::vec<T, 4> [2]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ typename cub::BlockReduce<T, 128>::TempStorage temp; }"),
            "void f() { typename cub::BlockReduce<T, 128>::TempStorage &temp" + BS +
                "typename cub::BlockReduce<T, 128>::TempStorage" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ ::a::b<c<int>> x; }"),
            "void f() { ::a::b<c<int>> &x" + BS + "::a::b<c<int>>" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ struct S s[2]; }"),
            "void f() { struct S (&s)[2]" + BS + "struct S [2]" + KEY + " }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ decltype(x) y; }"),
            "void f() { decltype(x) &y" + BS + "decltype(x)" + KEY + " }");
}

TEST(SharedBlockObjects, InsideFunctionsInNamespacesAndClasses) {
  EXPECT_EQ(rwb("namespace X { void f() { if (x) { __cuemu_shared__ int s[2]; } } }"),
            "namespace X { void f() { if (x) { int (&s)[2]" + BS + "int [2]" + KEY + " } } }");
  EXPECT_EQ(rwb("struct A { void f() { __cuemu_shared__ int s; } };"),
            "struct A { void f() { int &s" + BS + "int" + KEY + " } };");
}

TEST(SharedBlockObjects, ExternIsUnchanged) {
  EXPECT_EQ(rwb("void f() { extern __cuemu_shared__ float s[]; }"),
            "void f() { float* const s = reinterpret_cast<float*>" + DSM + " }");
  EXPECT_EQ(rwb("extern __cuemu_shared__ __attribute__((aligned(16))) uint4 smem[];"),
            "static thread_local uint4* const smem = reinterpret_cast<uint4*>" + DSM +
                " static const ::cuemu::detail::worker_tls_init __cuemu_tls_0([]() -> const void* "
                "{ return smem; });");
}

TEST(SharedBlockObjects, LinesArePreserved) {
  const std::string in =
      "void f() {\n  __cuemu_shared__ float a[N],\n                   b[N];\n  g(__builtin_LINE());\n}\n";
  const std::string out = rwb(in);
  EXPECT_EQ(out, "void f() {\n  float (&a)[N]" + BS + "float [N]" + KEY + " float (&b)[N]" + BS + "float [N]" +
                     KEY + "\n\n  g(__builtin_LINE());\n}\n");
  EXPECT_EQ(count_lines(out), count_lines(in));
}

TEST(SharedBlockObjects, LaterCodeIsStillRewritten) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ int s[2]; { k<<<1, 2>>>(s); } }"),
            "void f() { int (&s)[2]" + BS + "int [2]" + KEY + " { " + PUSH + "1, 2), k(s)); } }");
}

TEST(SharedBlockObjects, NamespaceScopeIsAnError) {
  for (const char* in : {"__cuemu_shared__ int counter;", "namespace X { __cuemu_shared__ float s[4]; }",
                         "extern \"C\" { static __cuemu_shared__ int a, b[2]; }"})
    expect_error(in, NAMESPACE_SCOPE);
  expect_error("void f();\nnamespace {\n__cuemu_shared__ int c;\n}\nvoid g() {}", NAMESPACE_SCOPE, 3);
}

TEST(SharedBlockObjects, InitializerIsAnError) {
  for (const char* in : {"void f() { __cuemu_shared__ int x = 0; }", "void f() { __cuemu_shared__ int a[2]{}; }",
                         "void f() { __cuemu_shared__ int b, c(1); }", "__cuemu_shared__ int d = 1;"})
    expect_error(in, INITIALIZER);
}

TEST(SharedBlockObjects, UnsupportedFormsAreErrors) {
  for (const char* in : {"void f() { __cuemu_shared__ float (*p)[4]; }", "void f() { __cuemu_shared__ float s[]; }",
                         "void f() { __cuemu_shared__ s; }"})
    expect_error(in, UNSUPPORTED);
  expect_error("void f() { __cuemu_shared__ int x }", "__shared__ declaration without a terminating ';'");
  expect_error("void f() {\n__cuemu_shared__ int\n#pragma GCC diagnostic push\nx;\n}",
               "a __shared__ declaration split by a #pragma cannot be rewritten", 2);
}

// A declaration that defines its type (CUB's `__shared__ union TempStorage { ... } temp;`): the
// type is defined first, named when it had no name, then the declarators refer to it.
TEST(SharedBlockObjects, DeclarationsDefiningTheirTypeDefineItFirst) {
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ union U { int a; float b; } u, v[2]; }"),
            "void f() { union U { int a; float b; }; U &u = ::cuemu::detail::block_shared<U>([] {}); "
            "U (&v)[2] = ::cuemu::detail::block_shared<U [2]>([] {}); }");
  EXPECT_EQ(rwb("void f() { __cuemu_shared__ struct { int a; } s; }"),
            "void f() { struct __cuemu_shared_type_11 { int a; }; __cuemu_shared_type_11 &s = "
            "::cuemu::detail::block_shared<__cuemu_shared_type_11>([] {}); }");
}

// g++ -E puts line markers inside a declaration whose macros come from system headers (CCCL's
// `__shared__` in a library macro); the rewrite keeps them on their lines.
TEST(SharedBlockObjects, LineMarkersInsideADeclarationStayOnTheirLines) {
  const std::string in = "void f() {\n__cuemu_shared__ int\n# 7 \"t.cu\"\nx;\n}";
  const std::string out = rwb(in);
  EXPECT_NE(out.find("int &x = ::cuemu::detail::block_shared<int>([] {});"), std::string::npos) << out;
  EXPECT_NE(out.find("\n# 7 \"t.cu\"\n"), std::string::npos) << out;
  EXPECT_EQ(count_lines(out), count_lines(in));
}

// The default mode reports an initializer too; its output for valid code is unchanged.
TEST(SharedDefaultMode, InitializerIsAnError) {
  for (const char* in : {"void f() { __cuemu_shared__ int x = 0; }", "void f() { static __cuemu_shared__ int a[2]{}; }",
                         "__cuemu_shared__ int d = 1, e;"}) {
    const result r = rewrite(in, "t.cu");
    ASSERT_EQ(r.errors.size(), 1u) << in;
    EXPECT_EQ(r.errors[0].line, 1);
    EXPECT_EQ(r.errors[0].message, INITIALIZER);
  }
  // Forms the default mode does not need to understand are left as they were.
  EXPECT_EQ(rw("void f() { __cuemu_shared__ struct { int a; } s; }"),
            "void f() { static thread_local struct { int a; } s; }");
  EXPECT_EQ(rw("void f() { __cuemu_shared__ int a[4], b; }"), "void f() { static thread_local int a[4], b; }");
}

}  // namespace
}  // namespace cuemu::translate::test
