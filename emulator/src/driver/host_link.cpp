#include "driver/host_link.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/options.h"
#include "driver/process.h"
#include "driver/toolchain.h"

namespace cuemu::driver {

bool is_cuda_runtime_library(const char* arg) {
  const std::string a = arg;
  for (const char* lib : {"cudart", "cudart_static", "cudadevrt", "culibos"})
    if (a == std::string("-l") + lib) return true;
  const std::size_t slash = a.rfind('/');
  const std::string name = slash == std::string::npos ? a : a.substr(slash + 1);
  return name == "libcudart.so" || name.rfind("libcudart.so.", 0) == 0 || name == "libcudart_static.a" ||
         name == "libcudadevrt.a" || name == "libculibos.a";
}

namespace {

[[noreturn]] void link_error(const std::string& what) {
  std::fprintf(stderr, "cuemu-host-link: %s\n", what.c_str());
  std::exit(2);
}

}  // namespace

int host_link_main(int argc, char** argv) {
  // @FILE arguments (CMake's object and library lists) are read here, so that CUDA's runtime
  // libraries in them are seen; the rest goes to the host compiler as it was.
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '@' && argv[i][1]) {
      std::vector<std::string> words;
      std::string error;
      if (!read_response_file(argv[i] + 1, words, error)) link_error(error);
      args.insert(args.end(), words.begin(), words.end());
    } else {
      args.push_back(argv[i]);
    }
  }
  options o;
  // --cuemu-check=LIST (nvcc's link passes its own), else CUEMU_CHECK.
  std::string check;
  if (const char* env = std::getenv("CUEMU_CHECK")) check = env;
  for (const auto& a : args)
    if (a.rfind("--cuemu-check=", 0) == 0) check = a.substr(14);
  if (!check.empty() && !parse_check_list(check, o))
    link_error("invalid checking mode '" + check +
               "' (CUEMU_CHECK or --cuemu-check=: memcheck, racecheck, synccheck or streams, comma-separated, or none)");
  if (o.memcheck && race_build(o))
    link_error(std::string("CUEMU_CHECK names memcheck and ") + (o.racecheck ? "racecheck" : "streams") +
               ": they need two separate builds (AddressSanitizer and ThreadSanitizer cannot share "
               "a program)");
  const variant v = o.memcheck ? variant::memcheck : race_build(o) ? variant::racecheck : variant::plain;
  const paths p = locate_paths();

  std::vector<std::string> cmd{p.cxx};
  if (v == variant::memcheck) cmd.push_back("-fsanitize=address");
  bool inputs = false, shared = false;
  for (const auto& a : args) shared = shared || a == "-shared";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-l" && i + 1 < args.size() && is_cuda_runtime_library(("-l" + args[i + 1]).c_str())) {
      ++i;
      continue;
    }
    if (is_cuda_runtime_library(a.c_str()) || a.rfind("--cuemu-check=", 0) == 0) continue;
    if (a == "-o" && i + 1 < args.size()) {
      cmd.insert(cmd.end(), {a, args[++i]});
      continue;
    }
    if (!a.empty() && a[0] != '-') inputs = true;
    cmd.push_back(a);
  }
  if (!inputs) link_error("no input files (usage: cuemu-host-link [host compiler link options] OBJECTS -o OUT)");

  // A shared library leaves the runtime to the program that loads it (one runtime per process,
  // as with libcudart.so): its references to the runtime are resolved by the program's.
  if (shared) return run_process(cmd) == 0 ? 0 : 1;

  // The checking mode becomes the program's default (the environment still wins at run time).
  // The runtime comes in through a linker script, so that a build system reading this link's
  // -v output (CMake's implicit link libraries) does not take the runtime of this mode for all.
  const std::string dir = make_work_dir();
  const std::string defaults = dir + "/cuemu_defaults.cpp", defaults_o = dir + "/cuemu_defaults.o";
  const std::string script = dir + "/cuemu_runtime.ld";
  options d = o;
  d.compile = {"-fPIC"};  // also for -shared
  int rc = write_defaults_source(d, defaults);
  if (rc == 0) rc = compile_cpp(d, p, variant::plain, defaults, defaults_o);
  if (rc == 0) {
    std::ofstream w(script);
    w << "INPUT(\"" << defaults_o << "\" \"" << p.runtime_lib[static_cast<int>(v)] << "\" \""
      << p.boost_context << "\")\n";
    if (!w) rc = 2, std::fprintf(stderr, "cuemu-host-link: cannot write %s\n", script.c_str());
  }
  if (rc == 0) {
    cmd.insert(cmd.end(), {script, "-pthread"});
    rc = run_process(cmd) == 0 ? 0 : 1;
  }
  remove_tree(dir);
  return rc;
}

}  // namespace cuemu::driver
