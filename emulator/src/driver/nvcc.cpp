#include "driver/nvcc.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/host_link.h"
#include "driver/options.h"
#include "driver/process.h"
#include "driver/toolchain.h"

namespace cuemu::driver {
namespace {

[[noreturn]] void fatal(const std::string& what) {
  std::fprintf(stderr, "nvcc fatal   : %s\n", what.c_str());
  std::exit(1);
}

bool is_executable(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(p.c_str(), X_OK) == 0;
}

// argv with every --options-file FILE (-optf FILE) replaced by its words (nested files too).
void expand_options_files(const std::vector<std::string>& in, std::vector<std::string>& out, int depth) {
  if (depth > 16) fatal("options files nested more than 16 deep");
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::string& a = in[i];
    std::string file;
    if (a == "--options-file" || a == "-optf") {
      if (i + 1 >= in.size()) fatal("option " + a + " needs a file name");
      file = in[++i];
    } else if (a.rfind("--options-file=", 0) == 0) {
      file = a.substr(15);
    } else if (a.rfind("-optf=", 0) == 0) {
      file = a.substr(6);
    } else {
      out.push_back(a);
      continue;
    }
    std::vector<std::string> words;
    std::string error;
    if (!read_response_file(file, words, error)) fatal(error);
    expand_options_files(words, out, depth + 1);
  }
}

void print_version() {
  // The first line is nvcc's own: CMake identifies an NVIDIA CUDA compiler by it
  // (CMAKE_CUDA_COMPILER_ID_VENDOR_REGEX_NVIDIA), and the V line gives the toolkit's version.
  std::puts("nvcc: NVIDIA (R) Cuda compiler driver\n"
            "cuemu: the CUDA CPU emulator's nvcc (CUDA C++ built for the CPU; no GPU code is made)\n"
            "Cuda compilation tools, release 13.0, V13.0.88\n"
            "Build cuemu_13.0.r13.0/emulator");
}

// What `nvcc -v` prints before its steps; CMake reads TOP, NVVMIR_LIBRARY_DIR, PATH, INCLUDES
// and LIBRARIES (and takes the link step naming LIBRARIES as the host link).
void print_environment(const std::string& top) {
  const char* path = std::getenv("PATH");
  std::fprintf(stderr, "#$ _NVVM_BRANCH_=nvvm\n#$ _SPACE_= \n#$ _CUDART_=cudart\n#$ _HERE_=%s/bin\n#$ _THERE_=%s/bin\n"
              "#$ _TARGET_SIZE_=\n#$ _TARGET_DIR_=\n#$ _TARGET_SIZE_=64\n#$ TOP=%s\n"
              "#$ NVVMIR_LIBRARY_DIR=%s/nvvm/libdevice\n#$ PATH=%s/bin:%s\n#$ INCLUDES=\"-I%s/include\"  \n"
              "#$ LIBRARIES=  -L%s/lib64\n#$ CUDAFE_FLAGS=\n#$ PTXAS_FLAGS=\n",
              top.c_str(), top.c_str(), top.c_str(), top.c_str(), top.c_str(), path ? path : "",
              top.c_str(), top.c_str());
}

}  // namespace

std::string toolkit_root(const std::string& argv0) {
  std::string path = argv0;
  if (path.find('/') == std::string::npos) {
    const char* env = std::getenv("PATH");
    std::string dirs = env ? env : "";
    std::size_t pos = 0;
    while (pos <= dirs.size()) {
      const std::size_t colon = dirs.find(':', pos);
      const std::string d = dirs.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
      if (!d.empty() && is_executable(d + "/" + argv0)) {
        path = d + "/" + argv0;
        break;
      }
      if (colon == std::string::npos) break;
      pos = colon + 1;
    }
  }
  // A link to the toolkit's nvcc (e.g. ~/bin/nvcc) is followed until a directory holding the
  // host link beside it: that is the toolkit's bin/.
  auto dir_of = [](const std::string& f) {
    const std::size_t slash = f.rfind('/');
    return slash == std::string::npos ? std::string(".") : slash == 0 ? std::string("/") : f.substr(0, slash);
  };
  for (int level = 0; level < 16 && !is_executable(dir_of(path) + "/cuemu-host-link"); ++level) {
    char target[PATH_MAX];
    const ssize_t n = readlink(path.c_str(), target, sizeof target - 1);
    if (n <= 0) break;
    target[n] = 0;
    path = target[0] == '/' ? std::string(target) : dir_of(path) + "/" + target;
  }
  const std::string bin = dir_of(path);
  char buf[PATH_MAX];
  std::string real = realpath(bin.c_str(), buf) ? std::string(buf) : bin;
  const std::size_t up = real.rfind('/');
  return up == std::string::npos || up == 0 ? "/" : real.substr(0, up);
}

int nvcc_main(int argc, char** argv) {
  const std::string top = toolkit_root(argv[0]);
  std::vector<std::string> args;
  expand_options_files(std::vector<std::string>(argv + 1, argv + argc), args, 0);

  enum class action { link, dlink, preprocess, depend, library } act = action::link;
  bool verbose = false, shared = false, output_given = false, compile = false;
  std::string check, arch;
  std::vector<std::string> rest{"cuemu", "cc"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // "-name value" or "-name=value"
    auto value = [&](const char* name, std::string& v) {
      const std::size_t n = std::strlen(name);
      if (a == name) {
        if (i + 1 >= args.size()) fatal(std::string("option '") + name + "' needs a value");
        v = args[++i];
        return true;
      }
      if (a.size() > n && a.compare(0, n, name) == 0 && a[n] == '=') {
        v = a.substr(n + 1);
        return true;
      }
      return false;
    };
    std::string v;
    if (a == "--version" || a == "-V") {
      print_version();
      return 0;
    }
    if (a == "-v" || a == "--verbose") verbose = true;
    else if (a == "-dlink" || a == "--device-link") act = action::dlink;
    else if (a == "-E" || a == "--preprocess") act = action::preprocess;
    else if (a == "-M" || a == "--generate-dependencies" || a == "-MM" ||
             a == "--generate-nonsystem-dependencies")
      act = action::depend;
    else if (a == "-lib" || a == "--lib") act = action::library;
    else if (a == "-shared" || a == "--shared") shared = true;
    else if (a == "--keep" || a == "-keep" || a == "-dryrun" || a == "--dryrun") {
      if (a.find("dryrun") != std::string::npos) fatal("option '" + a + "' is not supported by cuemu's nvcc");
    } else if (value("--keep-dir", v) || value("-keep-dir", v)) {
    } else if (value("--cudart", v) || value("-cudart", v)) {
      if (v != "static" && v != "shared" && v != "none")
        fatal("invalid value '" + v + "' for option '--cudart' (expected none, shared or static)");
    } else if (value("--cuemu-check", v)) {
      check = v;
    } else if (value("--cuemu-arch", v)) {
      arch = v;
    } else if (a == "-ptx" || a == "--ptx" || a == "-cubin" || a == "--cubin" || a == "-fatbin" ||
               a == "--fatbin" || a == "-cuda" || a == "--cuda" || a == "-optix-ir" || a == "--optix-ir" ||
               a == "-ltoir" || a == "--ltoir" || a == "-lto" || a == "-dlto" || a == "-dlink-time-opt" ||
               a == "-run" || a == "--run") {
      fatal("option '" + a + "' makes GPU code or runs it, which cuemu's nvcc does not: it builds "
            "CUDA C++ for the CPU emulator");
    } else if (a == "-l" && i + 1 < args.size() && is_cuda_runtime_library(("-l" + args[i + 1]).c_str())) {
      ++i;  // the emulator's runtime is linked anyway
    } else if (is_cuda_runtime_library(a.c_str())) {
    } else {
      if (a == "-o") output_given = true;
      if (a == "-c" || a == "-dc" || a == "--device-c" || a == "--compile") compile = true;
      rest.push_back(a == "--compile" ? "-c" : a);
    }
  }
  if (verbose) print_environment(top);
  if (check.empty()) {
    const char* env = std::getenv("CUEMU_CHECK");
    if (env) check = env;
  }
  if (!check.empty()) rest.push_back("--check=" + check);
  if (!arch.empty()) rest.push_back("-arch=" + arch);
  if (act == action::preprocess || act == action::depend || act == action::dlink || act == action::library)
    compile = false;
  if (!output_given && act == action::link && !compile) rest.insert(rest.end(), {"-o", "a.out"});
  if (!output_given && act == action::dlink) rest.insert(rest.end(), {"-o", "a_dlink.o"});
  if (!output_given && act == action::library) rest.insert(rest.end(), {"-o", "a.a"});
  // -E, -M: stdout unless -o; the cc command line needs -c there.
  if (act == action::preprocess || act == action::depend) rest.push_back("-c");

  std::vector<char*> cargv;
  for (auto& s : rest) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  options o = parse_options(static_cast<int>(rest.size()), cargv.data());
  if (act == action::preprocess || act == action::depend) o.compile_only = false;
  o.verbose = verbose;
  set_verbose_prefix("#$ ");
  if (verbose)
    std::fprintf(stderr, "#$ cuemu: -arch compute_%d: the emulated architecture (sm_%d)\n", o.arch, o.arch);
  paths p = locate_paths();
  use_host_compiler(o, p);
  const variant var = o.memcheck ? variant::memcheck : race_build(o) ? variant::racecheck : variant::plain;

  switch (act) {
    case action::preprocess:
    case action::depend: {
      if (!o.output.empty() && o.inputs.size() > 1) fatal("option -o with -E or -M takes one input file");
      for (const auto& in : o.inputs) {
        std::string target = o.dep_target;
        if (target.empty()) {
          target = base_name(in);
          target = target.substr(0, target.rfind('.')) + ".o";
        }
        if (int rc = preprocess_only(o, p, var, in, o.output, act == action::depend, target); rc != 0) return rc;
      }
      return 0;
    }
    case action::dlink: {
      // Device code is host code here: a device link has nothing to join. Its object stays
      // empty so that a build linking it works as with nvcc.
      std::vector<std::string> cmd{p.cxx, "-c", "-x", "c++", "/dev/null", "-fPIC", "-o", o.output};
      return run_process(cmd, {}, verbose) == 0 ? 0 : 2;
    }
    default:
      break;
  }
  if (o.compile_only) return compile_only(o, p, var);

  const std::string dir = make_work_dir();
  std::vector<std::string> objects;
  int rc = 0;
  for (std::size_t i = 0; i < o.inputs.size() && rc == 0; ++i) {
    std::string obj;
    rc = build_object(o, p, var, i, dir, obj);
    objects.push_back(obj);
  }
  if (rc == 0 && act == action::library) {
    std::remove(o.output.c_str());  // ar would add to an old archive
    std::vector<std::string> cmd{"ar", "rcs", o.output};
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    rc = run_process(cmd, {}, verbose) == 0 ? 0 : 2;
  } else if (rc == 0) {
    // The host link, as nvcc's: the host compiler's options, the objects, CUDA's runtime
    // libraries (which the host link replaces by the emulator's).
    const std::string launcher = top + "/bin/cuemu-host-link";
    if (!is_executable(launcher)) fatal("no cuemu-host-link beside this nvcc (" + launcher + "): use the toolkit the cuemu build makes");
    std::vector<std::string> cmd{launcher};
    if (!check.empty()) cmd.push_back("--cuemu-check=" + check);
    if (shared) cmd.push_back("-shared");
    for (const auto& c : o.compile) cmd.push_back(c);
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    for (const auto& l : o.link) cmd.push_back(l);
    cmd.insert(cmd.end(), {"-L" + top + "/lib64", "-lcudadevrt", "-lcudart_static", "-lrt", "-lpthread",
                           "-ldl", "-o", o.output});
    rc = run_process(cmd, {}, verbose) == 0 ? 0 : 2;
  }
  remove_tree(dir);
  return rc;
}

}  // namespace cuemu::driver
