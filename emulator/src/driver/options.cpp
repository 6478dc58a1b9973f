#include "driver/options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cuemu::driver {
namespace {

[[noreturn]] void usage_error(const std::string& what) {
  std::fprintf(stderr, "cuemu: %s\n(run 'cuemu --help' for usage)\n", what.c_str());
  std::exit(2);
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// "--name=value" or "--name value"; returns true and sets value if arg is this option.
bool take_value(const std::string& arg, const char* name, int& i, int argc, char** argv,
                std::string& value) {
  const std::size_t n = std::strlen(name);
  if (arg == name) {
    if (i + 1 >= argc) usage_error(std::string("option ") + name + " needs a value");
    value = argv[++i];
    return true;
  }
  if (arg.size() > n && starts_with(arg, name) && arg[n] == '=') {
    value = arg.substr(n + 1);
    return true;
  }
  return false;
}

bool is_unsigned(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

void print_usage() {
  std::puts(
      "usage: cuemu run [OPTIONS] FILE... [-- ARGS...]   build, then run with ARGS\n"
      "       cuemu cc  [OPTIONS] FILE... -o OUT          build only (-c: compile to an object)\n"
      "       cuemu translate [OPTIONS] FILE.cu -o OUT.cpp [--depfile OUT.d]\n"
      "\n"
      "FILE: .cu is translated; .cpp/.cc/.cxx compile as C++ against the emulator's headers;\n"
      "      .o/.a are linked.\n"
      "nvcc-like options: -I DIR, -D NAME[=V], -U NAME, -std=c++17|c++20, -O0..-O3, -g, -o OUT,\n"
      "      -l LIB, -L DIR, -c, -arch=sm_XX (emulated compute capability, default sm_90),\n"
      "      -Xcompiler FLAGS (host compiler flags, comma-separated)\n"
      "emulator options (for run, and recorded as defaults in programs built by cc):\n"
      "      --check=memcheck,racecheck,synccheck|all   --schedule=forward|reverse|random[:SEED]\n"
      "      --workers=N   --stack-size=BYTES[K|M]   --timeout=SECONDS\n"
      "      --compare-schedules=N (run N times: forward, reverse, random:1..; report when the\n"
      "      outputs differ, a cheap detector of order dependence)\n"
      "      --keep (keep the translated sources)   -v (show the commands)");
}

options parse_options(int argc, char** argv) {
  options o;
  if (argc < 2) {
    print_usage();
    std::exit(2);
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    print_usage();
    std::exit(0);
  }
  if (cmd == "run") o.command = mode::run;
  else if (cmd == "cc") o.command = mode::cc;
  else if (cmd == "translate") o.command = mode::translate;
  else usage_error("unknown command '" + cmd + "' (expected run, cc or translate)");

  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    std::string v;
    if (a == "--") {
      for (++i; i < argc; ++i) o.program_args.push_back(argv[i]);
      break;
    }
    if (a == "--help" || a == "-h") {
      print_usage();
      std::exit(0);
    }
    if (a == "-I" || a == "-D" || a == "-U" || a == "-isystem") {
      if (i + 1 >= argc) usage_error("option " + a + " needs a value");
      if (a == "-isystem") {
        o.preprocessor.push_back(a);
        o.preprocessor.push_back(argv[++i]);
      } else {
        o.preprocessor.push_back(a + argv[++i]);
      }
    } else if (starts_with(a, "-I") || starts_with(a, "-D") || starts_with(a, "-U")) {
      o.preprocessor.push_back(a);
    } else if (a == "-l" || a == "-L") {
      if (i + 1 >= argc) usage_error("option " + a + " needs a value");
      o.link.push_back(a + argv[++i]);
    } else if (starts_with(a, "-l") || starts_with(a, "-L")) {
      o.link.push_back(a);
    } else if (a == "-o") {
      if (i + 1 >= argc) usage_error("option -o needs a file name");
      o.output = argv[++i];
    } else if (starts_with(a, "-std=")) {
      v = a.substr(5);
      if (v != "c++17" && v != "c++20" && v != "gnu++17" && v != "gnu++20")
        usage_error("unsupported " + a + " (expected -std=c++17 or -std=c++20)");
      o.std = v;
    } else if (a == "-O" || a == "-O0" || a == "-O1" || a == "-O2" || a == "-O3" || a == "-Os") {
      o.compile.push_back(a == "-O" ? "-O1" : a);
    } else if (a == "-g" || a == "-G" || a == "-lineinfo") {
      if (a != "-lineinfo") o.compile.push_back("-g");
    } else if (a == "-c") {
      o.compile_only = true;
    } else if (take_value(a, "-arch", i, argc, argv, v) ||
               take_value(a, "--gpu-architecture", i, argc, argv, v)) {
      std::string num = v;
      if (starts_with(num, "sm_") || starts_with(num, "compute_")) num = num.substr(num.find('_') + 1);
      while (!num.empty() && (num.back() == 'a' || num.back() == 'f')) num.pop_back();
      if (!is_unsigned(num) || num.size() < 2 || num.size() > 3)
        usage_error("invalid architecture '" + v + "' (expected e.g. -arch=sm_90)");
      o.arch = std::atoi(num.c_str());
      if (o.arch < 50) usage_error("architecture '" + v + "' is older than any CUDA 12/13 supports");
    } else if (take_value(a, "-Xcompiler", i, argc, argv, v) ||
               take_value(a, "--compiler-options", i, argc, argv, v)) {
      std::size_t pos = 0;
      while (pos <= v.size()) {
        std::size_t comma = v.find(',', pos);
        std::string f = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (!f.empty()) o.compile.push_back(f);
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    } else if (take_value(a, "--check", i, argc, argv, v)) {
      std::size_t pos = 0;
      while (pos <= v.size()) {
        std::size_t comma = v.find(',', pos);
        std::string m = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        if (m == "memcheck" || m == "all") o.memcheck = true;
        if (m == "racecheck" || m == "all") o.racecheck = true;
        if (m == "synccheck" || m == "all") o.synccheck = true;
        if (m != "memcheck" && m != "racecheck" && m != "synccheck" && m != "all" && m != "none")
          usage_error("unknown check '" + m + "' in " + a +
                      " (expected memcheck, racecheck, synccheck, all or none)");
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    } else if (take_value(a, "--schedule", i, argc, argv, v)) {
      const bool ok = v == "forward" || v == "reverse" || v == "random" ||
                      (starts_with(v, "random:") && is_unsigned(v.substr(7)));
      if (!ok) usage_error("invalid " + a + " (expected forward, reverse or random[:SEED])");
      o.env.push_back("CUEMU_SCHEDULE=" + v);
    } else if (take_value(a, "--workers", i, argc, argv, v)) {
      if (!is_unsigned(v) || std::atoi(v.c_str()) < 1)
        usage_error("invalid " + a + " (expected a number of worker threads >= 1)");
      o.env.push_back("CUEMU_WORKERS=" + v);
    } else if (take_value(a, "--stack-size", i, argc, argv, v)) {
      std::string num = v;
      if (!num.empty() && (num.back() == 'K' || num.back() == 'k' || num.back() == 'M' || num.back() == 'm'))
        num.pop_back();
      if (!is_unsigned(num)) usage_error("invalid " + a + " (expected bytes, e.g. 262144 or 256K)");
      o.env.push_back("CUEMU_STACK_SIZE=" + v);
    } else if (take_value(a, "--timeout", i, argc, argv, v)) {
      char* end = nullptr;
      const double t = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || t < 0) usage_error("invalid " + a + " (expected seconds)");
      o.env.push_back("CUEMU_TIMEOUT=" + v);
    } else if (take_value(a, "--compare-schedules", i, argc, argv, v)) {
      if (!is_unsigned(v) || std::atoi(v.c_str()) < 2 || std::atoi(v.c_str()) > 1000)
        usage_error("invalid " + a + " (expected a number of schedules from 2 to 1000)");
      o.compare_schedules = std::atoi(v.c_str());
    } else if (take_value(a, "--depfile", i, argc, argv, v)) {
      o.depfile = v;
    } else if (a == "--keep") {
      o.keep = true;
    } else if (a == "-v" || a == "--verbose") {
      o.verbose = true;
    } else if (a == "--expt-relaxed-constexpr" || a == "--expt-extended-lambda" ||
               a == "--extended-lambda" || a == "-Wno-deprecated-gpu-targets" ||
               a == "--use_fast_math" || a == "-use_fast_math" || a == "-rdc=true" ||
               a == "-rdc=false") {
      // nvcc options with no meaning on the CPU: accepted so nvcc command lines work as they are.
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option '" + a + "'");
    } else {
      o.inputs.push_back(a);
    }
  }
  o.env.push_back("CUEMU_ARCH=" + std::to_string(o.arch));
  if (o.inputs.empty()) usage_error("no input files");
  if (o.command == mode::cc && o.output.empty() && !o.compile_only)
    usage_error("cuemu cc needs -o OUT");
  if (o.compare_schedules && o.command != mode::run)
    usage_error("--compare-schedules is an option of cuemu run");
  if (o.compare_schedules && std::find_if(o.env.begin(), o.env.end(), [](const std::string& e) {
        return e.rfind("CUEMU_SCHEDULE=", 0) == 0;
      }) != o.env.end())
    usage_error("--compare-schedules chooses the schedules itself; drop --schedule");
  if (o.command == mode::cc && o.memcheck && o.racecheck)
    usage_error("--check=memcheck and --check=racecheck need two separate builds (AddressSanitizer "
                "and ThreadSanitizer cannot share a program); build them one at a time");
  if (o.command == mode::translate && (o.inputs.size() != 1 || o.output.empty()))
    usage_error("cuemu translate takes one .cu file and -o OUT.cpp");
  return o;
}

}  // namespace cuemu::driver
