// __global__ functions: the marker is blanked; definitions get the host-call prologue after `{`
// and, when not templates, a registrar after `}`; explicit instantiations get a registrar.
// Also __noinline__.
#include "test_util.h"

namespace cuemu::translate::test {
namespace {

TEST(Global, PlainDefinitionSpelledOut) {
  EXPECT_EQ(rw("__cuemu_global__ void k(float* p, int n) { p[0] = n; }"),
            "                 void k(float* p, int n) {"
            "if (::cuemu::detail::is_launch_call()) { ::cuemu::detail::launch_from_stub<"
            "static_cast<void (*)(decltype(p), decltype(n))>(&k)>(\"k\", __PRETTY_FUNCTION__, p, n); return; }"
            " p[0] = n; }"
            " static const ::cuemu::detail::kernel_registrar __cuemu_kreg_0("
            "static_cast<void (*)(float*, int)>(&k), \"k\");");
}

TEST(Global, RegistrarsAreNumberedInOrder) {
  EXPECT_EQ(rw("__cuemu_global__ void a() {}\n__cuemu_global__ void b() {}"),
            G + " void a() {" + prologue("", "a", "a", "") + "}" + registrar(0, "", "a") + "\n" + G +
                " void b() {" + prologue("", "b", "b", "") + "}" + registrar(1, "", "b"));
}

TEST(Global, DeclarationOnlyLosesTheMarkerOnly) {
  EXPECT_EQ(rw("__cuemu_global__ void k(int, float*);"), G + " void k(int, float*);");
  EXPECT_EQ(rw("template <class T> __cuemu_global__ void k(T);"), "template <class T> " + G + " void k(T);");
}

TEST(Global, ParameterDeclaratorsAndRegistrarTypes) {
  EXPECT_EQ(rw("__cuemu_global__ void k(const float* __restrict a, int b[10], unsigned long long n, "
               "struct S s, void (*f)(int), int (&r)[4], T x = 3) {}"),
            G + " void k(const float* __restrict a, int b[10], unsigned long long n, struct S s, "
                "void (*f)(int), int (&r)[4], T x = 3) {" +
                prologue("const float* __restrict, decltype(b), decltype(n), decltype(s), decltype(f), decltype(r), decltype(x)",
                         "k", "k", ", a, b, n, s, f, r, x") +
                "}" +
                registrar(0, "const float* __restrict, int [10], unsigned long long, struct S, void (*)(int), "
                             "int (&)[4], T", "k"));
}

TEST(Global, MoreDeclarators) {
  EXPECT_EQ(rw("__cuemu_global__ void k(float4 const* p, ns::vec<int, 2> v, const int& c) {}"),
            G + " void k(float4 const* p, ns::vec<int, 2> v, const int& c) {" +
                prologue("decltype(p), decltype(v), decltype(c)", "k", "k", ", p, v, c") + "}" +
                registrar(0, "float4 const*, ns::vec<int, 2>, const int&", "k"));
}

TEST(Global, AttributesInParameters) {
  EXPECT_EQ(rw("__cuemu_global__ void k(int __attribute__((unused)) a, float b __attribute__((unused))) {}"),
            G + " void k(int __attribute__((unused)) a, float b __attribute__((unused))) {" +
                prologue("decltype(a), decltype(b)", "k", "k", ", a, b") + "}" +
                registrar(0, "int __attribute__((unused)), float __attribute__((unused))", "k"));
}

TEST(Global, UnnamedParametersGetNames) {
  EXPECT_EQ(rw("__cuemu_global__ void k(const float*, int, const T, unsigned long long, int[4]) {}"),
            G + " void k(const float* __cuemu_p0, int __cuemu_p1, const T __cuemu_p2, unsigned long long __cuemu_p3, int __cuemu_p4[4]) {" +
                prologue("decltype(__cuemu_p0), decltype(__cuemu_p1), decltype(__cuemu_p2), decltype(__cuemu_p3), "
                         "decltype(__cuemu_p4)",
                         "k", "k", ", __cuemu_p0, __cuemu_p1, __cuemu_p2, __cuemu_p3, __cuemu_p4") +
                "}" + registrar(0, "const float*, int, const T, unsigned long long, int[4]", "k"));
}

TEST(Global, VoidAndEmptyParameterLists) {
  EXPECT_EQ(rw("__cuemu_global__ void k(void) {}"),
            G + " void k(void) {" + prologue("", "k", "k", "") + "}" + registrar(0, "", "k"));
  EXPECT_EQ(rw("__cuemu_global__ void k() {}"), G + " void k() {" + prologue("", "k", "k", "") + "}" + registrar(0, "", "k"));
}

TEST(Global, Template) {
  EXPECT_EQ(rw("template <class T, int N> __cuemu_global__ void k(T* p, int n) { p[n] = N; }"),
            "template <class T, int N> " + G + " void k(T* p, int n) {" +
                prologue("decltype(p), decltype(n)", "k<T, N>", "k", ", p, n") + " p[n] = N; }");
}

// A top-level __restrict parameter is cast with its spelled type: g++ 12 rejects
// static_cast<void (*)(decltype(p))>(&k<T>) for `T* __restrict p` in a template.
TEST(Global, RestrictPointerParametersUseTheSpelledType) {
  EXPECT_EQ(rw("template <class T> __cuemu_global__ void k(const T* __restrict a, T* __restrict const b, T* __restrict* c) {}"),
            "template <class T> " + G + " void k(const T* __restrict a, T* __restrict const b, T* __restrict* c) {" +
                prologue("const T* __restrict, T* __restrict const, decltype(c)", "k<T>", "k", ", a, b, c") + "}");
}

TEST(Global, TemplateOnSeparateLinesWithSpecifiersBetween) {
  EXPECT_EQ(rw("template <typename V, typename I>\nstatic __attribute__((used)) __cuemu_global__ void\nk(V* p, I i) {}\n"),
            "template <typename V, typename I>\nstatic __attribute__((used)) " + G + " void\nk(V* p, I i) {" +
                prologue("decltype(p), decltype(i)", "k<V, I>", "k", ", p, i") + "}\n");
}

TEST(Global, TemplateWithPacksAndNonTypeParameters) {
  EXPECT_EQ(rw("template <typename... Ts> __cuemu_global__ void k(Ts... xs) {}"),
            "template <typename... Ts> " + G + " void k(Ts... xs) {" +
                prologue("decltype(xs)...", "k<Ts...>", "k", ", xs...") + "}");
  EXPECT_EQ(rw("template <int N, class T, int... Is> __cuemu_global__ void k(T t, int n) {}"),
            "template <int N, class T, int... Is> " + G + " void k(T t, int n) {" +
                prologue("decltype(t), decltype(n)", "k<N, T, Is...>", "k", ", t, n") + "}");
}

TEST(Global, UnnamedTemplateParametersGetNames) {
  EXPECT_EQ(rw("template <typename, int, template <class> class TT, class = void, std::size_t> "
               "__cuemu_global__ void k(int n) {}"),
            "template <typename __cuemu_t0, int __cuemu_t1, template <class> class TT, class __cuemu_t3 = void, "
            "std::size_t __cuemu_t4> " + G + " void k(int n) {" +
                prologue("decltype(n)", "k<__cuemu_t0, __cuemu_t1, TT, __cuemu_t3, __cuemu_t4>", "k", ", n") + "}");
}

TEST(Global, DefaultTemplateArgumentsWithNestedAngles) {
  EXPECT_EQ(rw("template <class T, class U = A<T>> __cuemu_global__ void k(T t) {}"),
            "template <class T, class U = A<T>> " + G + " void k(T t) {" +
                prologue("decltype(t)", "k<T, U>", "k", ", t") + "}");
}

TEST(Global, ExplicitSpecialization) {
  EXPECT_EQ(rw("template <> __cuemu_global__ void k<float, 4>(float* p) {}"),
            "template <> " + G + " void k<float, 4>(float* p) {" +
                prologue("decltype(p)", "k<float, 4>", "k<float, 4>", ", p") + "}" +
                registrar(0, "float*", "k<float, 4>"));
}

TEST(Global, ExplicitInstantiation) {
  EXPECT_EQ(rw("template __cuemu_global__ void k<float>(float*, int);"),
            "template " + G + " void k<float>(float*, int);" + registrar(0, "float*, int", "k<float>"));
}

TEST(Global, ExternCAndStatic) {
  EXPECT_EQ(rw("extern \"C\" __cuemu_global__ void ck(int* p) {}"),
            "extern \"C\" " + G + " void ck(int* p) {" + prologue("decltype(p)", "ck", "ck", ", p") + "}" +
                registrar(0, "int*", "ck"));
  EXPECT_EQ(rw("static __cuemu_global__ void sk(int* p) {}"),
            "static " + G + " void sk(int* p) {" + prologue("decltype(p)", "sk", "sk", ", p") + "}" +
                registrar(0, "int*", "sk"));
}

TEST(Global, QualifiedOutOfLineDefinition) {
  EXPECT_EQ(rw("__cuemu_global__ void ns::inner::k(int n) {}"),
            G + " void ns::inner::k(int n) {" + prologue("decltype(n)", "ns::inner::k", "ns::inner::k", ", n") + "}" +
                registrar(0, "int", "ns::inner::k"));
  EXPECT_EQ(rw("__cuemu_global__ void ::k(int n) {}"),
            G + " void ::k(int n) {" + prologue("decltype(n)", "::k", "::k", ", n") + "}" + registrar(0, "int", "::k"));
}

TEST(Global, AttributesAndNoexceptAroundTheDeclarator) {
  EXPECT_EQ(rw("__cuemu_global__ void __attribute__((used)) k(int n) noexcept __attribute__((cold)) {}"),
            G + " void __attribute__((used)) k(int n) noexcept __attribute__((cold)) {" +
                prologue("decltype(n)", "k", "k", ", n") + "}" + registrar(0, "int", "k"));
}

TEST(Global, BodyContentsAreRewrittenNormally) {
  EXPECT_EQ(rw("__cuemu_global__ void k(int n) { __cuemu_shared__ int t[4]; auto f = [] { return 1; }; "
               "{ extern __cuemu_shared__ float d[]; } }"),
            G + " void k(int n) {" + prologue("decltype(n)", "k", "k", ", n") +
                " static thread_local int t[4]; auto f = [] { return 1; }; { float* const d = "
                "reinterpret_cast<float*>" + DSM + " } }" + registrar(0, "int", "k"));
}

TEST(Global, KernelInsideANamespaceAndALaunchOfIt) {
  EXPECT_EQ(rw("namespace ns {\n__cuemu_global__ void k(int n) {}\n}\nvoid h() { ns::k<<<1, 1>>>(3); }\n"),
            "namespace ns {\n" + G + " void k(int n) {" + prologue("decltype(n)", "k", "k", ", n") + "}" +
                registrar(0, "int", "k") + "\n}\nvoid h() { " + PUSH + "1, 1), ns::k(3)); }\n");
}

TEST(Global, MultiLineParametersKeepLines) {
  const std::string in = "__cuemu_global__ void k(int a,\n                        float b)\n{\n}\n";
  const std::string out = rw(in);
  EXPECT_EQ(out, G + " void k(int a,\n                        float b)\n{" +
                     prologue("decltype(a), decltype(b)", "k", "k", ", a, b") + "\n}" +
                     registrar(0, "int, float", "k") + "\n");
  EXPECT_EQ(count_lines(out), count_lines(in));
}

TEST(NoInline, OutsideAttributesBecomesTheAttribute) {
  EXPECT_EQ(rw("__noinline__ void f();\nstatic __noinline__ int g() { return 1; }"),
            "__attribute__((noinline)) void f();\nstatic __attribute__((noinline)) int g() { return 1; }");
}

TEST(NoInline, InsideAttributesStays) {
  const std::string in = "__attribute__((__noinline__)) void f();\n__attribute__((used, __noinline__)) void g();";
  EXPECT_EQ(rw(in), in);
  EXPECT_EQ(rw("__attribute__((__noinline__)) void f(); __noinline__ void g();"),
            "__attribute__((__noinline__)) void f(); __attribute__((noinline)) void g();");
}

}  // namespace
}  // namespace cuemu::translate::test
