// cuemu: build CUDA programs for the CPU emulator and run them.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/build.h"
#include "driver/host_link.h"
#include "driver/nvcc.h"
#include "driver/options.h"
#include "driver/process.h"
#include "driver/toolchain.h"

using namespace cuemu::driver;

namespace {

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

// Runs the built program. Every process of it (the program may start others: fork and exec of
// itself, as cuda-samples' IPC samples do) appends a line to the file CUEMU_REPORTS names for each
// report that fails a process (check/report.cpp): a report in a process whose exit status the
// program ignores, or in one that ends with _exit(0), still fails the run. (A fork that does not
// exec, such as a death test's child, is left to its parent.)
int run_program(const std::vector<std::string>& argv, std::vector<std::string> env, bool verbose,
                const std::string& reports, const std::string& out = {}) {
  unlink(reports.c_str());
  env.push_back("CUEMU_REPORTS=" + reports);
  int status = run_process(argv, env, verbose, out);
  const std::vector<std::string> lines = read_lines(reports);
  unlink(reports.c_str());
  if (status == 0 && !lines.empty()) {
    std::fprintf(stderr,
                 "cuemu: the program exited 0, but %zu report%s came from its processes (the "
                 "first: process %s): the run fails\n",
                 lines.size(), lines.size() == 1 ? "" : "s", lines.front().c_str());
    status = 1;
  }
  return status;
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
    const int status = run_program(argv_run, env, o.verbose, dir + "/reports", out);
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
  // The toolkit directory's bin/nvcc and bin/cuemu-host-link are links to this program.
  const std::string self = base_name(argv[0]);
  if (self == "nvcc") return nvcc_main(argc, argv);
  if (self == "cuemu-host-link") return host_link_main(argc, argv);
  const options o = parse_options(argc, argv);
  paths p = locate_paths();
  use_host_compiler(o, p);
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
  if (race_build(o)) variants.push_back(variant::racecheck);
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
      status = run_program(argv_run, run_environment(o, v), o.verbose, vdir + "/reports");
    }
    statuses.emplace_back(v, status);
    if (rc == 0) rc = status;
    if (termination_signal()) break;
  }
  const int modes = o.memcheck + o.racecheck + o.synccheck + o.streams;
  if (o.command == mode::run && modes > 1 && !statuses.empty()) {
    std::string line;
    for (const auto& [v, status] : statuses) {
      std::string name = checks_of_build(o, v == variant::memcheck);
      for (char& c : name)
        if (c == ',') c = '+';
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
