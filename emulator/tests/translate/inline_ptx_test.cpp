// Inline asm: the few PTX instructions with a CPU meaning are rewritten to C++, any other PTX is
// an error naming the user's line and the instruction, and asm that is not PTX (a compiler
// barrier, x86, asm labels, system headers) is left as it is.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "test_util.h"

namespace cuemu::translate::test {
namespace {

// The translated text is compiled as preprocessed: __ATOMIC_SEQ_CST is spelled as its value.
const std::string FENCE = "__atomic_thread_fence(5 /* __ATOMIC_SEQ_CST */)";
const std::string BARRIER = "__asm__ __volatile__(\"\" ::: \"memory\")";

std::string in_function(const std::string& body) { return "void f(unsigned& lane, int c) {\n  " + body + "\n}\n"; }

void expect_one_error(std::string_view in, const std::string& file, int line, const std::string& message) {
  const result r = rewrite(in, "fallback.cu");
  ASSERT_EQ(r.errors.size(), 1u) << in;
  EXPECT_EQ(r.errors[0].file, file) << in;
  EXPECT_EQ(r.errors[0].line, line) << in;
  EXPECT_EQ(r.errors[0].message, message) << in;
}

std::string ptx_error(const std::string& instruction, const std::string& hint) {
  return "inline PTX cannot run on the CPU emulator: '" + instruction + "' (" + hint +
         ", or guard it with #ifdef __CUEMU__)";
}

TEST(InlinePtx, GridDependencyControlIsANoOp) {
  EXPECT_EQ(rw(in_function("asm volatile(\"griddepcontrol.wait;\");")), in_function("((void)0);"));
  EXPECT_EQ(rw(in_function("asm(\"griddepcontrol.launch_dependents;\");")), in_function("((void)0);"));
  // A "memory" clobber keeps a compiler barrier.
  EXPECT_EQ(rw(in_function("asm volatile(\"griddepcontrol.wait;\" ::: \"memory\");")), in_function(BARRIER + ";"));
  EXPECT_EQ(rw(in_function("__asm__ __volatile__ (\"griddepcontrol.launch_dependents;\" : : : \"memory\");")),
            in_function(BARRIER + ";"));
}

TEST(InlinePtx, MemoryBarriersAreSequentiallyConsistentFences) {
  for (const char* i : {"membar.gl;", "membar.cta;", "membar.sys;", "fence.sc.gpu;", "fence.acq_rel.gpu;",
                        "membar.gl", "  fence.sc.gpu ;  "}) {
    EXPECT_EQ(rw(in_function(std::string("asm volatile(\"") + i + "\" ::: \"memory\");")), in_function(FENCE + ";"))
        << i;
    EXPECT_EQ(rw(in_function(std::string("__asm(\"") + i + "\");")), in_function(FENCE + ";")) << i;
  }
}

TEST(InlinePtx, LaneIdReadsTheEmulatorsLane) {
  EXPECT_EQ(rw(in_function("asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));")),
            in_function("(lane) = ::cuemu::detail::lane_id();"));
  EXPECT_EQ(rw(in_function("asm(\"mov.u32 %0, %laneid;\" : \"=r\"(s.v[c + 1]));")),
            in_function("(s.v[c + 1]) = ::cuemu::detail::lane_id();"));
  EXPECT_EQ(rw(in_function("asm(\"mov.u32\\t%0,  %%laneid;\\n\" : [out] \"=r\" (lane) : );")),
            in_function("(lane) = ::cuemu::detail::lane_id();"));
}

TEST(InlinePtx, SeveralLiteralsAndInstructionsInOneTemplate) {
  // Adjacent literals (as a macro leaves them after preprocessing), escapes decoded.
  EXPECT_EQ(rw(in_function("asm volatile(\"membar.gl;\\n\\t\" \"griddepcontrol.wait;\" \"\\n\\t\" "
                           "\"griddepcontrol.launch_dependents;\" ::: \"memory\");")),
            in_function("do { " + FENCE + "; " + BARRIER + "; } while (0);"));
  EXPECT_EQ(rw(in_function("asm volatile(\"griddepcontrol.wait;\" \"griddepcontrol.launch_dependents;\");")),
            in_function("((void)0);"));
  EXPECT_EQ(rw(in_function("asm volatile(\"membar.cta;\\n\\tmov.u32 %0, %%laneid;\" : \"=r\"(lane) :: \"memory\");")),
            in_function("do { " + FENCE + "; (lane) = ::cuemu::detail::lane_id(); } while (0);"));
}

TEST(InlinePtx, StatementContextsAndLinesAreKept) {
  EXPECT_EQ(rw(in_function("if (c) asm volatile(\"membar.gl;\"); else asm volatile(\"membar.cta;\");")),
            in_function("if (c) " + FENCE + "; else " + FENCE + ";"));
  EXPECT_EQ(rw(in_function("for (;;) asm(\"griddepcontrol.wait;\");")), in_function("for (;;) ((void)0);"));
  // A statement over several lines: the lines after it keep their numbers.
  const std::string in = "void f() {\n  asm volatile(\"membar.gl;\"\n               :\n               :\n"
                         "               : \"memory\");\n  int y = __builtin_LINE();\n}\n";
  const std::string out = rw(in);
  EXPECT_EQ(out, "void f() {\n  " + FENCE + "\n\n\n;\n  int y = __builtin_LINE();\n}\n");
  EXPECT_EQ(count_lines(out), count_lines(in));
}

TEST(InlinePtx, UnsupportedInstructionNamesTheUsersLine) {
  expect_one_error("# 1 \"k.cu\"\n# 30 \"k.cu\"\n__cuemu_global__ void k(const uint4* p, uint4* q) {\n"
                   "  uint4 v;\n  asm volatile(\"cp.async.bulk.global.shared::cta [%0], [%1], 16;\"\n"
                   "               :: \"l\"(q), \"l\"(p));\n"
                   "  *q = v;\n}\n",
                   "k.cu", 32, ptx_error("cp.async.bulk.global.shared::cta", "use plain C++ loads and stores"));
}

TEST(InlinePtx, TheLineIsThatOfTheLiteralWithTheInstruction) {
  expect_one_error("# 7 \"m.cu\"\nvoid f(int& a, int b) {\n  asm volatile(\"membar.gl;\\n\\t\"\n"
                   "               \"match.any.sync.b32 %0, %1, -1;\" : \"=r\"(a) : \"r\"(b));\n}\n",
                   "m.cu", 9, ptx_error("match.any.sync.b32", "use the CUDA C++ intrinsic, e.g. __match_any_sync"));
}

TEST(InlinePtx, HintsForInstructionsWithoutACpuMeaning) {
  const std::pair<const char*, const char*> cases[] = {
      {"cvt.rn.f16.f32 %0, %1;", "use the CUDA C++ intrinsic, e.g. __float2half_rn"},
      {"match.any.sync.b32 %0, %1, -1;", "use the CUDA C++ intrinsic, e.g. __match_any_sync"},
      {"redux.sync.add.u32 %0, %1, -1;", "use the CUDA C++ intrinsic, e.g. __reduce_add_sync"},
      {"cp.async.bulk.global.shared::cta [%0], [%1], 16;", "use plain C++ loads and stores"},
      {"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];", "use plain C++ loads and stores"},
      {"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};", "write it in CUDA C++"},
      {"sad.u32 %0, %1, %1, %1;", "use the CUDA C++ intrinsic, e.g. __sad"},
  };
  for (const auto& [inst, hint] : cases) {
    const std::string name = std::string(inst).substr(0, std::string(inst).find_first_of(" ;"));
    expect_one_error(in_function(std::string("asm volatile(\"") + inst + "\" : \"=r\"(lane) : \"r\"(c));"),
                     "fallback.cu", 2, ptx_error(name, hint));
  }
}

// Beyond the table, PTX is translated by translate/ptx.h: each operand bound to a local of its
// constraint's type, each instruction a call of cuemu/ptx.h, the outputs written back. (What the
// instructions compute is checked against an H200 by the driver test PtxGeneral.)
TEST(InlinePtx, GeneralTranslationBindsOperandsAndRegisters) {
  const std::string out = rw(in_function(
      "asm(\"{\\n\\t.reg .pred p;\\n\\tsetp.ne.b32 p, %1, 0;\\n\\tselp.u32 %0, 1, 0, p;\\n\\t}\" "
      ": \"=r\"(lane) : \"r\"(c));"));
  EXPECT_NE(out.find("do { unsigned int __cuemu_p0{}; unsigned int __cuemu_p1 = ::cuemu::ptx::operand<unsigned int>(c); "
                     "bool __cuemu_r_p{}; "),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("::cuemu::ptx::assign(lane, __cuemu_p0); } while (0);"), std::string::npos) << out;
  const std::string atom = rw(in_function("asm volatile(\"atom.add.acquire.gpu.u32 %0,[%1],%2;\" : \"=r\"(lane) : "
                                          "\"l\"(&c), \"r\"(c) : \"memory\");"));
  EXPECT_NE(atom.find("::cuemu::ptx::atom_add<unsigned int>(::cuemu::ptx::ptr("), std::string::npos) << atom;
  // A guard on an undeclared predicate has no meaning.
  expect_one_error(in_function("asm(\"@p membar.gl;\");"), "fallback.cu", 2,
                   ptx_error("membar.gl", "write it in CUDA C++"));
}

TEST(InlinePtx, SpecialRegistersWithoutACpuMeaningAreErrors) {
  // %smid: the multiprocessor a block runs on has no counterpart here.
  expect_one_error(in_function("asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(lane));"), "fallback.cu", 2,
                   ptx_error("mov.u32 %0, %smid", "write it in CUDA C++"));
  // These have one: the linear thread index, the clock.
  for (const char* reg : {"%%tid.x", "%%clock64", "%%lanemask_lt", "%%warpid"})
    EXPECT_TRUE(rewrite(in_function(std::string("asm volatile(\"mov.u32 %0, ") + reg + ";\" : \"=r\"(lane));"),
                        "fallback.cu").errors.empty())
        << reg;
}

TEST(InlinePtx, NamespaceScopePtxIsAnError) {
  expect_one_error("asm(\"membar.gl;\");\n", "fallback.cu", 1, ptx_error("membar.gl", "write it in CUDA C++"));
}

TEST(InlinePtx, NonPtxAsmIsLeftAlone) {
  for (const char* s : {
           "asm volatile(\"\" ::: \"memory\");",
           "__asm__ __volatile__(\"\" : : : \"memory\");",
           "asm volatile(\"pause\");",
           "__asm__ __volatile__(\"rep; nop\" ::: \"memory\");",
           "unsigned lo, hi; __asm__ __volatile__(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi));",
           "int a, b, d; asm volatile(\"cpuid\" : \"=a\"(a), \"=b\"(b), \"=c\"(c), \"=d\"(d) : \"a\"(0));",
           "int x; asm(\"movl %1, %%eax\\n\\tmovl %%eax, %0\" : \"=r\"(x) : \"r\"(c) : \"%eax\");",
           "register int r asm(\"eax\");",
       }) {
    EXPECT_EQ(rw(in_function(s)), in_function(s)) << s;
  }
  // asm labels of declarations (glibc's scanf family).
  const std::string labels =
      "extern int fscanf (FILE *__restrict __stream, const char *__restrict __format, ...) __asm__ (\"\" "
      "\"__isoc99_fscanf\") ;\nextern int sscanf (const char *__s, const char *__format, ...) noexcept (true) "
      "__asm__ (\"\" \"__isoc99_sscanf\");\nint g(int) asm(\"g_impl\");\n";
  EXPECT_EQ(rw(labels), labels);
}

TEST(InlinePtx, SystemHeadersKeepTheirAsmAndFailOnlyWhenUntranslatablePtxRuns) {
  const std::string sys = "# 1 \"/usr/include/x.h\" 1 3 4\nstatic inline int g(int b) { int a; "
                          "__asm__ __volatile__(\"bswap %0\" : \"=r\"(a) : \"0\"(b)); return a; }\n";
  EXPECT_EQ(rw(sys), sys);
  // A library's PTX without a CPU meaning is a run-time report, if that path ever runs.
  EXPECT_EQ(rw("# 1 \"/usr/include/x.h\" 1 3 4\nstatic inline void g(int b) {\n"
               "asm(\"mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0}, {%0}, {%0}, {%0};\" :: \"r\"(b)); }\n"),
            "# 1 \"/usr/include/x.h\" 1 3 4\nstatic inline void g(int b) {\n"
            "::cuemu::detail::device_unsupported(\"inline PTX 'mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32'\", "
            "\"/usr/include/x.h\", 2); }\n");
  // The same x86 asm in the user's file is taken for PTX.
  expect_one_error("# 1 \"u.cu\"\nstatic inline int g(int b) { int a; "
                   "__asm__ __volatile__(\"bswap %0\" : \"=r\"(a) : \"0\"(b)); return a; }\n",
                   "u.cu", 1, ptx_error("bswap", "write it in CUDA C++"));
}

TEST(InlinePtx, EveryUnsupportedStatementIsReported) {
  const result r = rewrite("void f() {\n  asm(\"pmevent 1;\");\n  asm(\"membar.gl;\");\n  asm(\"ldmatrix.sync;\");\n}\n", "f.cu");
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].line, 2);
  EXPECT_EQ(r.errors[0].message, ptx_error("pmevent", "write it in CUDA C++"));
  EXPECT_EQ(r.errors[1].line, 4);
}

// Through the real preprocessor: a template built by macros, and portable code whose PTX fast
// path sits under #ifdef __CUDA_ARCH__ (which the emulator does not define).
TEST(InlinePtx, ThroughThePreprocessor) {
  char tmpl[] = "/tmp/cuemu_ptx_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  std::ofstream(dir + "/p.cu") << R"cu(#define FENCE_INSN "membar.gl;"
#define NL "\n\t"
#define PDL_WAIT() asm volatile(FENCE_INSN NL "griddepcontrol.wait;" ::: "memory")
__device__ unsigned lane_or_fallback(unsigned tid) {
  PDL_WAIT();
#ifdef __CUDA_ARCH__
  unsigned v;
  asm("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(&tid));
  return v;
#else
  return tid % 32;
#endif
}
)cu";
  const std::string cmd = std::string(CUEMU_TEST_CXX) + " -E -x c++ -D__device__= '" + dir + "/p.cu' -o '" + dir +
                          "/p.ii'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::stringstream ss;
  ss << std::ifstream(dir + "/p.ii").rdbuf();
  const result r = rewrite(ss.str(), "p.cu");
  std::system(("rm -rf '" + dir + "'").c_str());
  EXPECT_TRUE(r.errors.empty()) << r.errors[0].file << ":" << r.errors[0].line << ": " << r.errors[0].message;
  EXPECT_NE(r.text.find("  do { " + FENCE + "; " + BARRIER + "; } while (0);\n"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("ld.global"), std::string::npos);
  EXPECT_NE(r.text.find("return tid % 32;"), std::string::npos);
}

}  // namespace
}  // namespace cuemu::translate::test
