// The host and device passes of a two-pass build (translate/rewriter.h): what each pass leaves
// of device functions, kernels and device variables, and how internal-linkage ones are named.
#include <regex>

#include "test_util.h"

namespace cuemu::translate::test {
namespace {

result run(std::string_view in, pass p) {
  options o;
  o.compile_pass = p;
  o.unit = "u1";
  return rewrite(in, "t.cu", o);
}

// The rewritten text with every run of white space made one space (the passes keep lines and
// columns by leaving spaces where text was removed; the tests look at the tokens).
std::string tokens(std::string_view in, pass p) {
  const result r = run(in, p);
  for (const diagnostic& e : r.errors) ADD_FAILURE() << e.file << ":" << e.line << ": " << e.message;
  std::string out = std::regex_replace(r.text, std::regex("\\s+"), " ");
  while (!out.empty() && out.front() == ' ') out.erase(0, 1);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string host(std::string_view in) { return tokens(in, pass::host); }
std::string device(std::string_view in) { return tokens(in, pass::device); }
std::string single(std::string_view in) { return tokens(in, pass::single); }

TEST(Passes, HostPassLeavesOutDeviceOnlyFunctionBodies) {
  EXPECT_EQ(host("__cuemu_device__ int f(int x) { return x + 1; }"), "int f(int x) ;");
  EXPECT_EQ(host("template <class T> __cuemu_device__ __forceinline T g(T x) noexcept { return x; }"),
            "template <class T> __forceinline T g(T x) noexcept ;");
  EXPECT_EQ(host("struct S { __cuemu_device__ S() : a(1), b{2} { a = 3; } int a, b; };"),
            "struct S { S() ; int a, b; };");
  EXPECT_EQ(host("struct S { __cuemu_device__ int get() const & { return 1; } };"), "struct S { int get() const & ; };");
  EXPECT_EQ(host("__cuemu_device__ bool operator<(A a, A b) { return a.x < b.x; }"), "bool operator<(A a, A b) ;");
  EXPECT_EQ(host("__cuemu_device__ __noinline__ int h() { return 1; }"), "__attribute__((noinline)) int h() ;");
  // The same in a single pass and in the device pass: only the markers go.
  EXPECT_EQ(single("__cuemu_device__ int f(int x) { return x + 1; }"), "int f(int x) { return x + 1; }");
  EXPECT_EQ(device("__cuemu_device__ int f(int x) { return x + 1; }"), "int f(int x) { return x + 1; }");
}

TEST(Passes, HostPassKeepsWhatHostCodeMayNeed) {
  // __host__ __device__, constexpr, a deduced return type, an out-of-class member definition.
  EXPECT_EQ(host("__cuemu_host__ __cuemu_device__ int f() { return 1; }"), "int f() { return 1; }");
  EXPECT_EQ(host("__cuemu_device__ __cuemu_host__ int f() { return 1; }"), "int f() { return 1; }");
  EXPECT_EQ(host("__cuemu_device__ constexpr int f() { return 1; }"), "constexpr int f() { return 1; }");
  EXPECT_EQ(host("__cuemu_device__ auto f() { return 1; }"), "auto f() { return 1; }");
  EXPECT_EQ(host("__cuemu_device__ auto f() -> int { return 1; }"), "auto f() -> int ;");
  EXPECT_EQ(host("__cuemu_device__ int S::f() { return 1; }"), "int S::f() { return 1; }");
  // An extended lambda keeps its body.
  EXPECT_EQ(host("void g() { auto l = [=] __cuemu_device__ (int i) { return i; }; }"),
            "void g() { auto l = [=] (int i) { return i; }; }");
}

TEST(Passes, HostPassDeclaresTheDevicePassesVariables) {
  EXPECT_EQ(host("__cuemu_device__ int x = 1, y[4] = {1, 2};"), "extern int x , y[4] ;");
  EXPECT_EQ(host("__cuemu_constant__ float c[2]{1.f, 2.f};"), "extern float c[2];");
  EXPECT_EQ(host("namespace n { __cuemu_managed__ int m; }"), "namespace n { extern int m; }");
  EXPECT_EQ(host("__cuemu_device__ int* p = nullptr;"), "extern int* p ;");
  // Left alone: const objects (internal linkage, the same in both passes), declarations,
  // templates, and anything not at namespace scope.
  EXPECT_EQ(host("__cuemu_constant__ const float k = 2.f;"), "const float k = 2.f;");
  EXPECT_EQ(host("__cuemu_device__ constexpr int k = 2;"), "constexpr int k = 2;");
  EXPECT_EQ(host("__cuemu_device__ const int* q = nullptr;"), "extern const int* q ;");
  EXPECT_EQ(host("extern __cuemu_device__ int x;"), "extern int x;");
  EXPECT_EQ(host("template <class T> __cuemu_device__ T v = T();"), "template <class T> T v = T();");
  EXPECT_EQ(device("__cuemu_device__ int x = 1, y[4] = {1, 2};"), "int x = 1, y[4] = {1, 2};");
}

TEST(Passes, InternalLinkageDeviceVariablesGetOneNameInBothPasses) {
  const std::string in = "# 1 \"t.cu\"\nstatic __cuemu_device__ int counter = 100;";
  const std::string h = host(in), d = device(in);
  const std::smatch m = [&] {
    std::smatch s;
    std::regex_search(d, s, std::regex("int counter asm\\(\"(__cuemu_u1_[0-9]+_counter)\"\\) = 100;"));
    return s;
  }();
  ASSERT_FALSE(m.empty()) << d;
  EXPECT_NE(h.find("extern int counter asm(\"" + m[1].str() + "\") ;"), std::string::npos) << h;
  EXPECT_EQ(single(in), "# 1 \"t.cu\" static int counter = 100;");
}

TEST(Passes, AnonymousNamespaceDeviceVariablesAreAnErrorOnlyInTwoPasses) {
  const std::string in = "namespace { __cuemu_device__ int hidden; }";
  EXPECT_EQ(single(in), "namespace { int hidden; }");
  const result r = run(in, pass::host);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("'hidden' is in an anonymous namespace"), std::string::npos);
}

TEST(Passes, HostPassOnlyDeclaresKernels) {
  EXPECT_EQ(host("__cuemu_global__ void k(int* p) { p[0] = 1; }"), "void k(int* p) ;");
  EXPECT_EQ(host("template <class T> __cuemu_global__ void k(T* p) { p[0] = 1; }"),
            "template <class T> void k(T* p) ;");
  EXPECT_EQ(host("template __cuemu_global__ void k<float>(float*); int x;"), "int x;");
  // The device pass defines it as a single pass does, and keeps it even when only named.
  std::string defined = single("__cuemu_global__ void k(int* p) { p[0] = 1; }");
  defined.insert(0, "__attribute__((used)) ");
  EXPECT_EQ(device("__cuemu_global__ void k(int* p) { p[0] = 1; }"), defined);
}

TEST(Passes, StaticKernelsArePublishedByTheDevicePassUnderOneName) {
  const std::string in = "# 1 \"t.cu\"\nstatic __cuemu_global__ void k(int* p);\nstatic __cuemu_global__ void k(int* p) { p[0] = 1; }";
  const std::string h = host(in), d = device(in);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(d, m, std::regex("extern \"C\" void \\(\\*const (__cuemu_u1_[0-9]+_k)\\)\\(int\\*\\) = &k;"))) << d;
  // The device pass keeps the kernel static; the host pass declares it once, as a reference.
  EXPECT_NE(d.find("static __attribute__((used)) void k(int* p) {"), std::string::npos) << d;
  EXPECT_EQ(h, "# 1 \"t.cu\" extern \"C\" void (*const " + m[1].str() + ")(int*); static void (&k)(int*) = *" + m[1].str() + ";");
}

TEST(Passes, InternalLinkageKernelTemplatesAreAnErrorNamingTheReason) {
  const result r = run("template <class T> static __cuemu_global__ void k(T* p) { }", pass::device);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].message.find("a static template"), std::string::npos) << r.errors[0].message;
  const result a = run("namespace { __cuemu_global__ void k(int* p) { } }", pass::host);
  ASSERT_EQ(a.errors.size(), 1u);
  EXPECT_NE(a.errors[0].message.find("in an anonymous namespace"), std::string::npos) << a.errors[0].message;
  EXPECT_TRUE(run("namespace { __cuemu_global__ void k(int* p) { } }", pass::single).errors.empty());
}

TEST(Passes, LeftOutBodiesKeepLinesAndLineMarkers) {
  const std::string in = "__cuemu_device__ int f() {\n  int a = 1;\n# 40 \"other.h\"\n  return a;\n}\nint after;\n";
  const result r = run(in, pass::host);
  ASSERT_TRUE(r.errors.empty());
  EXPECT_EQ(count_lines(r.text), count_lines(in));
  EXPECT_NE(r.text.find("\n# 40 \"other.h\"\n"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("\nint after;\n"), std::string::npos) << r.text;
}


// A region form that cuemu-regions found without floating-point arithmetic (`__cuemu_vectorise`
// after `__cuemu_regions(OK)`) lets g++ vectorise the kernel; every other kernel keeps the
// vectoriser off (it would keep a GPU's contractions apart). The marker itself is removed.
TEST(Passes, KernelsWithoutFloatingPointAreVectorised) {
  options o;
  o.compile_pass = pass::device;
  o.contract_fp = true;
  const std::string with =
      rewrite("__cuemu_global__ void k(int* p) {__cuemu_regions(true) __cuemu_vectorise p[0] = 1; }", "t.cu", o).text;
  EXPECT_NE(with.find("\"expensive-optimizations\", \"tree-vectorize\")"), std::string::npos) << with;
  EXPECT_EQ(with.find("no-tree-vectorize"), std::string::npos) << with;
  EXPECT_EQ(with.find("__cuemu_vectorise"), std::string::npos) << with;
  EXPECT_NE(with.find("p[0] = 1;"), std::string::npos) << with;
  for (const char* other : {"__cuemu_global__ void k(float* p) {__cuemu_regions(true) p[0] = 1; }",
                            "__cuemu_global__ void k(int* p) { p[0] = 1; }"}) {
    const std::string without = rewrite(other, "t.cu", o).text;
    EXPECT_NE(without.find("\"no-tree-vectorize\""), std::string::npos) << without;
  }
}

}  // namespace
}  // namespace cuemu::translate::test
