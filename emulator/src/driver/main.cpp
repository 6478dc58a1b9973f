// cuemu: build CUDA programs for the CPU emulator and run them.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

#include "driver/options.h"
#include "driver/process.h"
#include "driver/toolchain.h"

using namespace cuemu::driver;

namespace {

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string make_work_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/cuemu-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back(0);
  if (!mkdtemp(buf.data())) {
    std::perror("cuemu: cannot create a temporary directory");
    std::exit(2);
  }
  return buf.data();
}

// Compiles one input into an object in `dir`; objects and archives pass through.
int build_object(const options& o, const paths& p, const std::string& in, const std::string& dir,
                 int index, std::string& object) {
  const std::string stem = dir + "/" + std::to_string(index) + "_" + base_name(in);
  if (has_suffix(in, ".cu")) {
    const std::string translated = stem + ".ii";
    if (int rc = translate_cu(o, p, in, translated, ""); rc != 0) return rc;
    object = stem + ".o";
    return compile_translated(o, p, translated, object);
  }
  if (has_suffix(in, ".cpp") || has_suffix(in, ".cc") || has_suffix(in, ".cxx") ||
      has_suffix(in, ".c") || has_suffix(in, ".C")) {
    object = stem + ".o";
    return compile_cpp(o, p, in, object);
  }
  if (has_suffix(in, ".o") || has_suffix(in, ".a") || has_suffix(in, ".so")) {
    object = in;
    return 0;
  }
  std::fprintf(stderr, "cuemu: %s: unknown file type (expected .cu, .cpp, .cc, .o or .a)\n",
               in.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse_options(argc, argv);
  const paths p = locate_paths();

  if (o.command == mode::translate) return translate_cu(o, p, o.inputs[0], o.output, o.depfile);

  if (o.command == mode::cc && o.compile_only) {
    if (o.inputs.size() != 1 && !o.output.empty()) {
      std::fprintf(stderr, "cuemu: -c with -o takes one input file\n");
      return 2;
    }
    for (const auto& in : o.inputs) {
      std::string out = o.output;
      if (out.empty()) {
        out = base_name(in);
        out = out.substr(0, out.rfind('.')) + ".o";
      }
      if (has_suffix(in, ".cu")) {
        const std::string translated = out + ".ii";
        if (int rc = translate_cu(o, p, in, translated, ""); rc != 0) return rc;
        const int rc = compile_translated(o, p, translated, out);
        if (!o.keep) std::remove(translated.c_str());
        if (rc != 0) return rc;
      } else if (int rc = compile_cpp(o, p, in, out); rc != 0) {
        return rc;
      }
    }
    return 0;
  }

  const std::string dir = make_work_dir();
  std::vector<std::string> objects;
  int rc = 0;
  for (std::size_t i = 0; i < o.inputs.size() && rc == 0; ++i) {
    std::string obj;
    rc = build_object(o, p, o.inputs[i], dir, static_cast<int>(i), obj);
    objects.push_back(obj);
  }
  const std::string defaults = dir + "/cuemu_defaults.cpp";
  if (rc == 0) rc = write_defaults_source(o, defaults);
  if (rc == 0) {
    std::string obj = dir + "/cuemu_defaults.o";
    options plain = o;
    rc = compile_cpp(plain, p, defaults, obj);
    objects.push_back(obj);
  }
  const std::string program = o.command == mode::cc ? o.output : dir + "/" + base_name(o.inputs[0]) + ".out";
  if (rc == 0) rc = link_program(o, p, objects, program);
  if (rc == 0 && o.command == mode::run) {
    std::vector<std::string> argv_run{program};
    for (const auto& a : o.program_args) argv_run.push_back(a);
    rc = run_process(argv_run, o.env, o.verbose);
  }
  if (o.keep) {
    std::fprintf(stderr, "cuemu: kept the intermediate files in %s\n", dir.c_str());
  } else {
    std::string rm = "rm -rf '" + dir + "'";
    if (std::system(rm.c_str()) != 0) {}
  }
  return rc;
}
