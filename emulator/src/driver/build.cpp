#include "driver/build.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cuemu::driver {
namespace {

bool is_cpp(const std::string& in) {
  return has_suffix(in, ".cpp") || has_suffix(in, ".cc") || has_suffix(in, ".cxx") ||
         has_suffix(in, ".c") || has_suffix(in, ".C");
}

}  // namespace

void use_host_compiler(const options& o, paths& p) {
  if (o.host_compiler.empty()) return;
  struct stat st;
  p.cxx = stat(o.host_compiler.c_str(), &st) == 0 && S_ISDIR(st.st_mode) ? o.host_compiler + "/g++"
                                                                         : o.host_compiler;
}

std::string base_name(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void remove_tree(const std::string& path) {
  if (DIR* d = opendir(path.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name == "." || name == "..") continue;
      const std::string p = path + "/" + name;
      struct stat st;
      if (lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(p);
      else unlink(p.c_str());
    }
    closedir(d);
  }
  rmdir(path.c_str());
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

bool is_cuda_input(const options& o, std::size_t i) {
  const std::string& lang = i < o.input_langs.size() ? o.input_langs[i] : std::string();
  return lang.empty() ? has_suffix(o.inputs[i], ".cu") : lang == "cu";
}

int build_object(const options& o, const paths& p, variant v, std::size_t i,
                 const std::string& dir, std::string& object) {
  const std::string& in = o.inputs[i];
  const int index = static_cast<int>(i);
  const std::string stem = dir + "/" + std::to_string(index) + "_" + base_name(in);
  const bool forced_cpp = i < o.input_langs.size() && o.input_langs[i] == "c++";
  if (is_cuda_input(o, i)) {
    object = stem + ".o";
    return compile_cu(o, p, v, in, object);
  }
  if (is_cpp(in) || forced_cpp) {
    object = stem + ".o";
    return compile_cpp(o, p, v, in, object);
  }
  if (has_suffix(in, ".o") || has_suffix(in, ".a") || has_suffix(in, ".so")) {
    object = in;
    return 0;
  }
  std::fprintf(stderr, "cuemu: %s: unknown file type (expected .cu, .cpp, .cc, .o or .a)\n",
               in.c_str());
  return 2;
}

int build_program(const options& o, const paths& p, variant v, const std::string& dir,
                  const std::string& program) {
  std::vector<std::string> objects;
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    std::string obj;
    if (int rc = build_object(o, p, v, i, dir, obj); rc != 0) return rc;
    objects.push_back(obj);
  }
  const std::string defaults = dir + "/cuemu_defaults.cpp";
  if (int rc = write_defaults_source(o, defaults); rc != 0) return rc;
  const std::string obj = dir + "/cuemu_defaults.o";
  options plain_cpp = o;  // the user's -I/-D/-include are for the user's files
  plain_cpp.preprocessor.clear();
  if (int rc = compile_cpp(plain_cpp, p, v, defaults, obj); rc != 0) return rc;
  objects.push_back(obj);
  return link_program(o, p, v, objects, program);
}

int compile_only(const options& o, const paths& p, variant v) {
  if (o.inputs.size() != 1 && !o.output.empty()) {
    std::fprintf(stderr, "cuemu: -c with -o takes one input file\n");
    return 2;
  }
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    const std::string& in = o.inputs[i];
    std::string out = o.output;
    if (out.empty()) {
      out = base_name(in);
      out = out.substr(0, out.rfind('.')) + ".o";
    }
    // -MD/-MMD: the dependency file as nvcc writes it (FILE.d beside the object, or -MF).
    std::string depfile;
    if (o.dependencies) depfile = !o.depfile.empty() ? o.depfile : out.substr(0, out.rfind('.')) + ".d";
    if (is_cuda_input(o, i)) {
      if (int rc = compile_cu(o, p, v, in, out, depfile, o.dep_target); rc != 0) return rc;
    } else if (int rc = compile_cpp(o, p, v, in, out, depfile); rc != 0) {
      return rc;
    }
  }
  return 0;
}

}  // namespace cuemu::driver
