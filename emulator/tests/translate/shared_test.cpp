// __shared__: `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared
// memory (static thread_local at namespace scope); every other __shared__ becomes
// `static thread_local` (or `thread_local` next to an existing `static`).
#include "test_util.h"

namespace cuemu::translate::test {
namespace {

TEST(Shared, ExternAtFunctionScope) {
  EXPECT_EQ(rw("void f() { extern __cuemu_shared__ float s[]; s[0] = 1; }"),
            "void f() { float* const s = reinterpret_cast<float*>" + DSM + " s[0] = 1; }");
}

// An unsized array of arrays (cuda-samples' tensor-core GEMMs): a pointer to the rows.
TEST(Shared, ExternArrayOfArrays) {
  EXPECT_EQ(rw("void f() { extern __cuemu_shared__ half shmem[][8 * 16 + 8]; }"),
            "void f() { half (* const shmem)[8 * 16 + 8] = reinterpret_cast<half (*)[8 * 16 + 8]>"
            "(::cuemu::detail::dynamic_shared_memory()); }");
  EXPECT_EQ(rw("void f() { extern __cuemu_shared__ int m[][2][3]; }"),
            "void f() { int (* const m)[2][3] = reinterpret_cast<int (*)[2][3]>"
            "(::cuemu::detail::dynamic_shared_memory()); }");
}

TEST(Shared, ExternWithAlignedAttributeAfterTheMarker) {
  // __align__(16) as the emulator's host_defines.h expands it.
  EXPECT_EQ(rw("void f() {\n  extern __cuemu_shared__ __attribute__((aligned(16))) unsigned char smem[];\n}"),
            "void f() {\n  unsigned char* const smem = reinterpret_cast<unsigned char*>" + DSM + "\n}");
}

TEST(Shared, ExternWithAlignasBeforeAndAttributeAfter) {
  EXPECT_EQ(rw("void f() { alignas(16) extern __cuemu_shared__ float4 buf[]; }"),
            "void f() { float4* const buf = reinterpret_cast<float4*>" + DSM + " }");
  EXPECT_EQ(rw("void f() { extern __cuemu_shared__ int s[] __attribute__((aligned(8))); }"),
            "void f() { int* const s = reinterpret_cast<int*>" + DSM + " }");
  EXPECT_EQ(rw("void f() { extern unsigned __attribute__((aligned(8))) __cuemu_shared__ char s[]; }"),
            "void f() { unsigned char* const s = reinterpret_cast<unsigned char*>" + DSM + " }");
}

TEST(Shared, ExternKeepsCvQualifiersAndTemplateTypes) {
  EXPECT_EQ(rw("void f() { extern __cuemu_shared__ volatile const int s[]; }"),
            "void f() { volatile const int* const s = reinterpret_cast<volatile const int*>" + DSM + " }");
  EXPECT_EQ(rw("void f() { extern __cuemu_shared__ ns::vec<T, 4> s[]; }"),
            "void f() { ns::vec<T, 4>* const s = reinterpret_cast<ns::vec<T, 4>*>" + DSM + " }");
}

// At namespace scope the pointer is a lazily initialised thread_local, and a worker_tls_init
// (named after the declaration's byte offset) initialises it on each worker.
static std::string ns_decl(const char* type, const char* name, std::size_t offset) {
  return std::string("static thread_local ") + type + "* const " + name + " = reinterpret_cast<" +
         type + "*>" + DSM + " static const ::cuemu::detail::worker_tls_init __cuemu_tls_" +
         std::to_string(offset) + "([]() -> const void* { return " + name + "; });";
}

TEST(Shared, ExternAtNamespaceScope) {
  EXPECT_EQ(rw("extern __cuemu_shared__ float s[];"), ns_decl("float", "s", 0));
  EXPECT_EQ(rw("namespace X { extern __cuemu_shared__ float s[]; }"),
            "namespace X { " + ns_decl("float", "s", 14) + " }");
  EXPECT_EQ(rw("namespace { extern __cuemu_shared__ float s[]; }"),
            "namespace { " + ns_decl("float", "s", 12) + " }");
  EXPECT_EQ(rw("namespace a::b { extern __cuemu_shared__ float s[]; }"),
            "namespace a::b { " + ns_decl("float", "s", 17) + " }");
  EXPECT_EQ(rw("inline namespace v1 { extern __cuemu_shared__ float s[]; }"),
            "inline namespace v1 { " + ns_decl("float", "s", 22) + " }");
  EXPECT_EQ(rw("extern \"C\" { extern __cuemu_shared__ float s[]; }"),
            "extern \"C\" { " + ns_decl("float", "s", 13) + " }");
  EXPECT_EQ(rw("extern \"C++\" { namespace N { extern __cuemu_shared__ float s[]; } }"),
            "extern \"C++\" { namespace N { " + ns_decl("float", "s", 29) + " } }");
}

TEST(Shared, ExternAtNamespaceScopeWithAlignment) {
  EXPECT_EQ(rw("extern __cuemu_shared__ __attribute__((aligned(16))) uint4 smem[];"),
            ns_decl("uint4", "smem", 0));
}

TEST(Shared, ExternInsideAFunctionInsideANamespace) {
  EXPECT_EQ(rw("namespace X { void f() { if (x) { extern __cuemu_shared__ int s[]; } } }"),
            "namespace X { void f() { if (x) { int* const s = reinterpret_cast<int*>" + DSM + " } } }");
}

TEST(Shared, ExternSpanningLinesKeepsTheLineCount) {
  const std::string in = "void f() {\n  extern __cuemu_shared__\n    float s[];\n  g();\n}\n";
  const std::string out = rw(in);
  EXPECT_EQ(out, "void f() {\n  float* const s = reinterpret_cast<float*>" + DSM + "\n\n  g();\n}\n");
  EXPECT_EQ(count_lines(out), count_lines(in));
}

TEST(Shared, StaticSharedBecomesThreadLocal) {
  EXPECT_EQ(rw("void f() { __cuemu_shared__ float tile[32][33]; }"),
            "void f() { static thread_local float tile[32][33]; }");
  EXPECT_EQ(rw("__cuemu_shared__ int counter;"), "static thread_local int counter;");
  EXPECT_EQ(rw("void f() { __cuemu_shared__ __attribute__((aligned(16))) int a[4]; }"),
            "void f() { static thread_local __attribute__((aligned(16))) int a[4]; }");
}

TEST(Shared, ExistingStaticIsNotRepeated) {
  EXPECT_EQ(rw("void f() { static __cuemu_shared__ int x; }"), "void f() { static thread_local int x; }");
  EXPECT_EQ(rw("void f() { __cuemu_shared__ static int y; }"), "void f() { thread_local static int y; }");
}

TEST(Shared, SharedInLaterStatementIsIndependent) {
  EXPECT_EQ(rw("void f() { static int a; __cuemu_shared__ int b; }"),
            "void f() { static int a; static thread_local int b; }");
}

TEST(Shared, ExternNotAnUnsizedArrayIsAnError) {
  for (const char* in : {"void f() { extern __cuemu_shared__ float s[64]; }",
                         "void f() { extern __cuemu_shared__ float s; }",
                         "void f() { extern __cuemu_shared__ float a[], b[]; }",
                         "void f() { extern __cuemu_shared__ s[]; }",
                         "void f() { extern __cuemu_shared__ float s[][]; }",
                         "void f() { extern __cuemu_shared__ float s[4][]; }"}) {
    const result r = rewrite(in, "t.cu");
    ASSERT_EQ(r.errors.size(), 1u) << in;
    EXPECT_EQ(r.errors[0].file, "t.cu");
    EXPECT_EQ(r.errors[0].line, 1);
    EXPECT_EQ(r.errors[0].message,
              "extern __shared__ must declare an unsized array: 'extern __shared__ T name[];' (or "
              "'T name[][N]')");
  }
}

}  // namespace
}  // namespace cuemu::translate::test
