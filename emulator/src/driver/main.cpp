// cuemu: build CUDA programs for the CPU emulator and run them.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
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

// Removes a directory and what is in it (the driver's temporary directory: no links followed).
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

bool is_cpp(const std::string& in) {
  return has_suffix(in, ".cpp") || has_suffix(in, ".cc") || has_suffix(in, ".cxx") ||
         has_suffix(in, ".c") || has_suffix(in, ".C");
}

// The language of input i: -x before it, else its suffix.
bool is_cuda_input(const options& o, std::size_t i) {
  const std::string& lang = i < o.input_langs.size() ? o.input_langs[i] : std::string();
  return lang.empty() ? has_suffix(o.inputs[i], ".cu") : lang == "cu";
}

// Compiles one input into an object in `dir`; objects and archives pass through.
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
  if (int rc = compile_cpp(o, p, v, defaults, obj); rc != 0) return rc;
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

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines;
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return lines;
  std::string line;
  int c;
  while ((c = std::fgetc(f)) != EOF) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(c);
    }
  }
  if (!line.empty()) lines.push_back(line);
  std::fclose(f);
  return lines;
}

// Runs the program under N schedules and compares their standard output line by line: a
// correct CUDA program prints the same whatever order threads, warps and blocks run in.
int compare_schedules(const options& o, variant v, const std::string& program, const std::string& dir) {
  std::vector<std::string> schedules{"forward", "reverse"};
  for (int i = 1; static_cast<int>(schedules.size()) < o.compare_schedules; ++i)
    schedules.push_back("random:" + std::to_string(i));
  std::vector<std::string> reference;
  int reference_status = 0;
  for (std::size_t k = 0; k < schedules.size(); ++k) {
    std::vector<std::string> env = run_environment(o, v);
    env.push_back("CUEMU_SCHEDULE=" + schedules[k]);
    std::vector<std::string> argv_run{program};
    for (const auto& a : o.program_args) argv_run.push_back(a);
    const std::string out = dir + "/stdout." + std::to_string(k);
    const int status = run_process(argv_run, env, o.verbose, out);
    const std::vector<std::string> lines = read_lines(out);
    if (k == 0) {
      reference = lines;
      reference_status = status;
      for (const auto& l : lines) std::printf("%s\n", l.c_str());
      std::fflush(stdout);
      continue;
    }
    std::size_t i = 0;
    while (i < reference.size() && i < lines.size() && reference[i] == lines[i]) ++i;
    if (i < reference.size() || i < lines.size() || status != reference_status) {
      std::fprintf(stderr,
                   "cuemu: output differs between --schedule=%s and --schedule=%s (the program "
                   "depends on the order in which CUDA threads run: a race or missing "
                   "synchronisation)\n",
                   schedules[0].c_str(), schedules[k].c_str());
      if (status != reference_status)
        std::fprintf(stderr, "  exit status %d under %s, %d under %s\n", reference_status,
                     schedules[0].c_str(), status, schedules[k].c_str());
      else
        std::fprintf(stderr, "  first difference at output line %zu:\n    %s: %s\n    %s: %s\n", i + 1,
                     schedules[0].c_str(), i < reference.size() ? reference[i].c_str() : "<end of output>",
                     schedules[k].c_str(), i < lines.size() ? lines[i].c_str() : "<end of output>");
      return 1;
    }
  }
  std::fprintf(stderr, "cuemu: %zu schedules (forward, reverse, random:1..) gave identical output\n",
               schedules.size());
  return reference_status;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse_options(argc, argv);
  paths p = locate_paths();
  if (!o.host_compiler.empty()) {  // -ccbin: a compiler, or the directory it is in
    struct stat st;
    p.cxx = stat(o.host_compiler.c_str(), &st) == 0 && S_ISDIR(st.st_mode) ? o.host_compiler + "/g++"
                                                                           : o.host_compiler;
  }
  // Inputs that cannot be read are named before anything is built.
  for (const auto& in : o.inputs) {
    struct stat st;
    if (stat(in.c_str(), &st) != 0) {
      std::fprintf(stderr, "cuemu: %s: no such file\n", in.c_str());
      return 2;
    }
    if (S_ISDIR(st.st_mode)) {
      std::fprintf(stderr, "cuemu: %s: is a directory, not a source file\n", in.c_str());
      return 2;
    }
  }

  // AddressSanitizer and ThreadSanitizer cannot share a program: --check=all builds and runs
  // the program once per sanitizer (synccheck rides along with each).
  std::vector<variant> variants;
  if (o.memcheck) variants.push_back(variant::memcheck);
  if (o.racecheck) variants.push_back(variant::racecheck);
  if (variants.empty()) variants.push_back(variant::plain);

  if (o.command == mode::translate)
    return translate_cu(o, p, variants.front(), o.inputs[0], o.output, o.depfile, o.output);
  if (o.command == mode::cc && o.compile_only) return compile_only(o, p, variants.front());

  forward_termination_signals();
  const std::string dir = make_work_dir();
  // Every mode runs, and the exit status is non-zero when any of them failed or reported: a
  // CI gate must not pass because the last mode was clean.
  int rc = 0;
  std::vector<std::pair<variant, int>> statuses;
  for (variant v : variants) {
    const std::string vdir = dir + "/" + variant_name(v);
    if (mkdir(vdir.c_str(), 0700) != 0) {
      std::perror("cuemu: cannot create a temporary directory");
      rc = 2;
      break;
    }
    const std::string program =
        o.command == mode::cc ? o.output : vdir + "/" + base_name(o.inputs[0]) + ".out";
    if (int b = build_program(o, p, v, vdir, program); b != 0) {
      rc = b;
      break;
    }
    int status = 0;
    if (o.command == mode::run && o.compare_schedules) {
      status = compare_schedules(o, v, program, vdir);
    } else if (o.command == mode::run) {
      if (variants.size() > 1) std::fprintf(stderr, "cuemu: running the %s build\n", variant_name(v));
      std::vector<std::string> argv_run{program};
      for (const auto& a : o.program_args) argv_run.push_back(a);
      status = run_process(argv_run, run_environment(o, v), o.verbose);
    }
    statuses.emplace_back(v, status);
    if (rc == 0) rc = status;
    if (termination_signal()) break;
  }
  const int modes = o.memcheck + o.racecheck + o.synccheck;
  if (o.command == mode::run && modes > 1 && !statuses.empty()) {
    std::string line;
    for (const auto& [v, status] : statuses) {
      std::string name = variant_name(v);
      if (o.synccheck) name += "+synccheck";
      line += (line.empty() ? "" : ", ") + name + (status == 0 ? ": clean" : ": exit status " + std::to_string(status));
    }
    std::fprintf(stderr, "cuemu: checking summary: %s%s\n", line.c_str(),
                 rc == 0 ? "" : " (the run fails)");
  }
  if (o.keep) {
    std::fprintf(stderr, "cuemu: kept the intermediate files in %s\n", dir.c_str());
  } else {
    remove_tree(dir);
  }
  if (const int sig = termination_signal()) {  // end as the signal would have ended us
    signal(sig, SIG_DFL);
    raise(sig);
  }
  return rc;
}
