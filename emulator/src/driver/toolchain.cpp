#include "driver/toolchain.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cuemu_paths.h"
#include "driver/process.h"
#include "translate/rewriter.h"

namespace cuemu::driver {
namespace {

bool exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

std::vector<std::string> base_flags(const options& o) {
  std::vector<std::string> f{"-std=" + o.std};
  bool opt = false;
  for (const auto& c : o.compile)
    if (c.rfind("-O", 0) == 0) opt = true;
  if (!opt) f.push_back("-O2");
  bool debug = false;
  for (const auto& c : o.compile)
    if (c.rfind("-g", 0) == 0) debug = true;
  // Line tables only: fault and timeout reports can then name the user's file:line.
  if (!debug) f.push_back("-g1");
  for (const auto& c : o.compile) f.push_back(c);
  return f;
}

}  // namespace

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

paths locate_paths() {
  paths p;
  const std::string here = executable_dir();
  if (exists(here + "/../include/cuemu/cuda_runtime.h") && exists(here + "/../lib/libcuemu_runtime.a")) {
    p.include_dir = here + "/../include/cuemu";
    p.runtime_lib = here + "/../lib/libcuemu_runtime.a";
  } else {
    p.include_dir = CUEMU_BUILD_INCLUDE_DIR;
    p.runtime_lib = CUEMU_BUILD_RUNTIME_LIB;
  }
  p.boost_context = CUEMU_BOOST_CONTEXT_LIB;
  const char* cxx = std::getenv("CUEMU_CXX");
  p.cxx = cxx && *cxx ? cxx : CUEMU_HOST_CXX;
  return p;
}

int translate_cu(const options& o, const paths& p, const std::string& in, const std::string& out,
                 const std::string& depfile) {
  if (!exists(in)) {
    std::fprintf(stderr, "cuemu: %s: no such file\n", in.c_str());
    return 2;
  }
  const std::string pre = out + ".ii";
  std::vector<std::string> cmd{p.cxx, "-E", "-x", "c++", "-std=" + o.std, "-D__CUEMU_TRANSLATE__",
                               "-I" + p.include_dir};
  for (const auto& f : o.preprocessor) cmd.push_back(f);
  if (!depfile.empty()) {
    cmd.insert(cmd.end(), {"-MD", "-MF", depfile, "-MT", out});
  }
  cmd.insert(cmd.end(), {in, "-o", pre});
  if (int rc = run_process(cmd, {}, o.verbose); rc != 0) return 2;

  std::ifstream f(pre, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  if (!o.keep) std::remove(pre.c_str());
  const translate::result r = translate::rewrite(text, in);
  if (!r.errors.empty()) {
    for (const auto& e : r.errors)
      std::fprintf(stderr, "%s:%d: error: %s\n", e.file.c_str(), e.line, e.message.c_str());
    return 2;
  }
  std::ofstream w(out, std::ios::binary);
  w << r.text;
  if (!w) {
    std::fprintf(stderr, "cuemu: cannot write %s\n", out.c_str());
    return 2;
  }
  return 0;
}

int compile_translated(const options& o, const paths& p, const std::string& in,
                       const std::string& out) {
  std::vector<std::string> cmd{p.cxx, "-c", "-x", "c++-cpp-output"};
  for (const auto& f : base_flags(o)) cmd.push_back(f);
  cmd.insert(cmd.end(), {in, "-o", out});
  return run_process(cmd, {}, o.verbose) == 0 ? 0 : 2;
}

int compile_cpp(const options& o, const paths& p, const std::string& in, const std::string& out) {
  if (!exists(in)) {
    std::fprintf(stderr, "cuemu: %s: no such file\n", in.c_str());
    return 2;
  }
  std::vector<std::string> cmd{p.cxx, "-c", "-I" + p.include_dir};
  for (const auto& f : o.preprocessor) cmd.push_back(f);
  for (const auto& f : base_flags(o)) cmd.push_back(f);
  if (has_suffix(in, ".c")) cmd.insert(cmd.begin() + 2, {"-x", "c++"});
  cmd.insert(cmd.end(), {in, "-o", out});
  return run_process(cmd, {}, o.verbose) == 0 ? 0 : 2;
}

int write_defaults_source(const options& o, const std::string& out) {
  // Options given to `cuemu cc` become the program's defaults; the environment still wins.
  std::ofstream w(out);
  w << "#include <cstdlib>\nnamespace {\nstruct cuemu_build_defaults {\n  cuemu_build_defaults() {\n";
  for (const auto& e : o.env) {
    const std::size_t eq = e.find('=');
    w << "    setenv(\"" << e.substr(0, eq) << "\", \"" << e.substr(eq + 1) << "\", 0);\n";
  }
  w << "  }\n} cuemu_build_defaults_instance;\n}  // namespace\n";
  return w ? 0 : 2;
}

int link_program(const options& o, const paths& p, const std::vector<std::string>& objects,
                 const std::string& out) {
  std::vector<std::string> cmd{p.cxx};
  for (const auto& c : o.compile)
    if (c == "-g" || c.rfind("-fsanitize", 0) == 0) cmd.push_back(c);
  for (const auto& obj : objects) cmd.push_back(obj);
  cmd.insert(cmd.end(), {"-o", out, p.runtime_lib, p.boost_context, "-pthread"});
  for (const auto& l : o.link) cmd.push_back(l);
  return run_process(cmd, {}, o.verbose) == 0 ? 0 : 2;
}

}  // namespace cuemu::driver
