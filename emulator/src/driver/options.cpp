#include "driver/options.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

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

// Bytes with an optional K or M suffix; false if malformed or out of [lo, hi].
bool parse_bytes(std::string v, unsigned long long lo, unsigned long long hi) {
  unsigned long long scale = 1;
  if (!v.empty() && (v.back() == 'K' || v.back() == 'k')) scale = 1024, v.pop_back();
  else if (!v.empty() && (v.back() == 'M' || v.back() == 'm')) scale = 1024 * 1024, v.pop_back();
  if (!is_unsigned(v) || v.size() > 12) return false;
  const unsigned long long n = std::strtoull(v.c_str(), nullptr, 10) * scale;
  return n >= lo && n <= hi;
}

// The compute capability in "sm_90", "compute_90a", "90": 0 if malformed.
int arch_number(std::string num) {
  if (starts_with(num, "sm_") || starts_with(num, "compute_") || starts_with(num, "lto_"))
    num = num.substr(num.find('_') + 1);
  while (!num.empty() && (num.back() == 'a' || num.back() == 'f')) num.pop_back();
  if (!is_unsigned(num) || num.size() < 2 || num.size() > 3) return 0;
  return std::atoi(num.c_str());
}

// nvcc options with no meaning on the CPU, accepted so that a build's nvcc command line works as
// it is: with no value, and with a value (as "-opt value" or "-opt=value").
const char* const kIgnored[] = {
    "-lineinfo", "--generate-line-info", "--expt-relaxed-constexpr", "--expt-extended-lambda",
    "--extended-lambda", "-extended-lambda", "-expt-relaxed-constexpr", "-expt-extended-lambda",
    "-Wno-deprecated-gpu-targets", "-rdc=true", "-rdc=false", "-m64", "-res-usage",
    "--resource-usage", "--keep-device-functions", "-src-in-ptx", "--source-in-ptx",
    "-restrict", "--restrict", "-Wreorder", "--Wreorder", "--Wno-deprecated-gpu-targets",
    "-Wext-lambda-captures-this", "--display-error-number", "-no-compress", "--no-compress"};
const char* const kIgnoredWithValue[] = {
    "-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options", "-Xfatbin", "--fatbin-options",
    "-Werror", "--Werror", "-maxrregcount", "--maxrregcount", "-t", "--threads", "-rdc", "--relocatable-device-code", "-code",
    "--gpu-code", "-diag-suppress", "--diag-suppress", "-diag-warn", "--diag-warn",
    "-split-compile", "--split-compile", "-Xarchive", "--archive-options", "-Xcudafe",
    "--cudafe-options", "--generate-code"};

}  // namespace

bool parse_check_list(const std::string& v, options& o, std::string* bad) {
  std::size_t pos = 0;
  while (pos <= v.size()) {
    const std::size_t comma = v.find(',', pos);
    const std::string m = v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (m == "memcheck" || m == "all") o.memcheck = true;
    if (m == "racecheck" || m == "all") o.racecheck = true;
    if (m == "synccheck" || m == "all") o.synccheck = true;
    if (m == "streams" || m == "all") o.streams = true;
    if (m != "memcheck" && m != "racecheck" && m != "synccheck" && m != "streams" && m != "all" &&
        m != "none") {
      if (bad) *bad = m;
      return false;
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return true;
}

std::string checks_of_build(const options& o, bool memcheck_build) {
  std::string s;
  auto add = [&s](bool on, const char* m) {
    if (on) s += (s.empty() ? "" : ",") + std::string(m);
  };
  add(memcheck_build && o.memcheck, "memcheck");
  add(!memcheck_build && o.racecheck, "racecheck");
  add(!memcheck_build && o.streams, "streams");
  add(o.synccheck, "synccheck");
  return s;
}

bool shell_words(const std::string& s, std::vector<std::string>& words) {
  std::string w;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < s.size()) w += s[++i];
      else w += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < s.size()) {
      w += s[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else {
      w += c;
      in_word = true;
    }
  }
  if (quote) return false;
  if (in_word) words.push_back(w);
  return true;
}

bool read_response_file(const std::string& path, std::vector<std::string>& words, std::string& error) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    error = "cannot read options file '" + path + "'";
    return false;
  }
  std::stringstream ss;
  ss << f.rdbuf();
  if (!shell_words(ss.str(), words)) {
    error = "unterminated quote in options file '" + path + "'";
    return false;
  }
  return true;
}

void print_usage() {
  std::puts(
      "usage: cuemu run [OPTIONS] FILE... [-- ARGS...]   build, then run with ARGS\n"
      "       cuemu cc  [OPTIONS] FILE... -o OUT          build only (-c: compile to an object)\n"
      "       cuemu translate [OPTIONS] FILE.cu -o OUT.cpp [--depfile OUT.d] [--pass=host|device]\n"
      "\n"
      "FILE: .cu is translated; .cpp/.cc/.cxx compile as C++ against the emulator's headers;\n"
      "      .o/.a are linked.\n"
      "nvcc-like options: -I DIR, -D NAME[=V], -U NAME, -include FILE, -std=c++17|c++20, -O0..-O3, -g,\n"
      "      -G, -o OUT, -l LIB, -L DIR, -c, -dc, -arch=sm_XX (emulated compute capability, default sm_90),\n"
      "      -gencode arch=compute_XX,code=sm_XX (the highest listed is emulated), -x cu|c++,\n"
      "      -Xcompiler FLAGS, -Xlinker FLAGS, -ccbin COMPILER, -MD/-MMD -MF FILE -MT TARGET,\n"
      "      -fmad=true|false (kernels' a*b+c, and the math library's own pairs, as fused multiply-adds, as nvcc; default true),\n"
      "      -ftz=true|false, -prec-div=true|false, -prec-sqrt=true|false, --use_fast_math (all\n"
      "      three, fast math functions, __USE_FAST_MATH__): device code's float results as nvcc's;\n"
      "      accepted and ignored: -lineinfo,\n"
      "      --generate-line-info, -Xptxas, -Xnvlink, --expt-relaxed-constexpr, --extended-lambda,\n"
      "      -rdc=true|false, -Werror KIND, -maxrregcount N,\n"
      "      -t N, -m64, -res-usage (README: the options table)\n"
      "emulator options (for run, and recorded as defaults in programs built by cc):\n"
      "      --check=memcheck,racecheck,synccheck,streams|all   --schedule=forward|reverse|random[:SEED]\n"
      "      --streams=async|sync (sync: stream work runs inside the call that issues it)\n"
      "      --exec=loops|fibers (loops, the default: a kernel whose barrier regions the translator\n"
      "      proved safe runs them as loops over its threads; -v says which kernels and why not)\n"
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
  if (cmd == "--version" || cmd == "-V") {
    std::puts("cuemu: the CUDA CPU emulator, speaking nvcc's command line\n"
              "Cuda compilation tools, release 13.0, V13.0.88 (emulated: no GPU code is made)");
    std::exit(0);
  }
  if (cmd == "run") o.command = mode::run;
  else if (cmd == "cc") o.command = mode::cc;
  else if (cmd == "translate") o.command = mode::translate;
  else usage_error("unknown command '" + cmd + "' (expected run, cc or translate)");

  for (int i = 2; i < argc; ++i) {  // it applies to the options before it too
    const std::string a = argv[i];
    if (a == "--") break;
    if (a == "-forward-unknown-to-host-compiler" || a == "--forward-unknown-to-host-compiler" ||
        a == "-forward-unknown-to-host-linker" || a == "--forward-unknown-to-host-linker")
      o.forward_unknown = true;
  }
  bool arch_given = false;
  int gencode_arch = 0;
  std::string lang;  // -x
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
    if (take_value(a, "-fmad", i, argc, argv, v) || take_value(a, "--fmad", i, argc, argv, v)) {
      if (v != "true" && v != "false") usage_error("option -fmad takes true or false, not '" + v + "'");
      o.fmad = v == "true";
      continue;
    }
    {
      bool* flag = nullptr;
      std::string name;
      for (auto [n, f] : {std::pair<const char*, bool*>{"ftz", &o.ftz}, {"prec-div", &o.prec_div},
                          {"prec-sqrt", &o.prec_sqrt}}) {
        if (take_value(a, (std::string("-") + n).c_str(), i, argc, argv, v) ||
            take_value(a, (std::string("--") + n).c_str(), i, argc, argv, v)) {
          flag = f;
          name = n;
          break;
        }
      }
      if (flag) {
        if (v != "true" && v != "false")
          usage_error("option -" + name + " takes true or false, not '" + v + "'");
        *flag = v == "true";
        continue;
      }
    }
    bool ignored = false;
    for (const char* n : kIgnored) ignored = ignored || a == n;
    if (ignored) continue;
    for (const char* n : kIgnoredWithValue) {
      if (std::string(n) == "--generate-code") continue;  // honoured below, like -gencode
      if (take_value(a, n, i, argc, argv, v)) {
        ignored = true;
        break;
      }
    }
    if (ignored) continue;
    if (take_value(a, "-gencode", i, argc, argv, v) ||
        take_value(a, "--generate-code", i, argc, argv, v)) {
      // arch=compute_XX,code=[sm_XX,...]: the highest architecture listed is the one emulated.
      const std::size_t at = v.find("arch=");
      const std::size_t comma = at == std::string::npos ? std::string::npos : v.find(',', at);
      const int n = at == std::string::npos
                        ? 0
                        : arch_number(v.substr(at + 5, comma == std::string::npos ? std::string::npos : comma - at - 5));
      if (n < 50) usage_error("invalid " + a + " '" + v + "' (expected arch=compute_XX,code=sm_XX)");
      gencode_arch = std::max(gencode_arch, n);
      continue;
    }
    if (take_value(a, "-x", i, argc, argv, v) || take_value(a, "--x", i, argc, argv, v)) {
      if (v != "cu" && v != "c++" && v != "c" && v != "none")
        usage_error("invalid -x " + v + " (expected cu, c++ or none)");
      lang = v == "none" ? "" : v == "c" ? "c++" : v;
      continue;
    }
    if (take_value(a, "-ccbin", i, argc, argv, v) || take_value(a, "--compiler-bindir", i, argc, argv, v)) {
      o.host_compiler = v;
      continue;
    }
    if (take_value(a, "-Xlinker", i, argc, argv, v) || take_value(a, "--linker-options", i, argc, argv, v)) {
      o.link.push_back("-Wl," + v);
      continue;
    }
    if (a == "-MD" || a == "-MMD" || a == "--generate-dependencies-with-compile" ||
        a == "--generate-nonsystem-dependencies-with-compile") {
      o.dependencies = true;
      continue;
    }
    if (take_value(a, "-MF", i, argc, argv, v) || take_value(a, "--dependency-output", i, argc, argv, v)) {
      o.depfile = v;
      continue;
    }
    if (take_value(a, "-MT", i, argc, argv, v) || take_value(a, "--dependency-target-name", i, argc, argv, v)) {
      o.dep_target = v;
      continue;
    }
    if (a == "--use_fast_math" || a == "-use_fast_math") {
      o.fast_math = true;
      continue;
    }
    if (a == "-dc" || a == "--device-c") {  // separable compilation: a plain object here
      o.compile_only = true;
      continue;
    }
    if (a == "-forward-unknown-to-host-compiler" || a == "--forward-unknown-to-host-compiler" ||
        a == "-forward-unknown-to-host-linker" || a == "--forward-unknown-to-host-linker") {
      o.forward_unknown = true;
      continue;
    }
    if (starts_with(a, "-isystem=")) {  // CMake's form for nvcc (CMAKE_INCLUDE_SYSTEM_FLAG_CUDA)
      if (a.size() == 9) usage_error("option -isystem= needs a directory");
      o.preprocessor.push_back("-isystem");
      o.preprocessor.push_back(a.substr(9));
      continue;
    }
    if (a == "-include" || a == "--pre-include" || take_value(a, "--pre-include", i, argc, argv, v)) {
      // nvcc's pre-include: a file read before the source, in both passes.
      if (v.empty()) {
        if (i + 1 >= argc) usage_error("option " + a + " needs a file name");
        v = argv[++i];
      }
      o.preprocessor.push_back("-include");
      o.preprocessor.push_back(v);
      continue;
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
    } else if (starts_with(a, "-std=") || starts_with(a, "--std=") || a == "-std" || a == "--std") {
      v = a.find('=') == std::string::npos ? (i + 1 < argc ? argv[++i] : "") : a.substr(a.find('=') + 1);
      if (v == "c++11" || v == "c++14" || v == "c++03") v = "c++17";  // a superset here
      if (v != "c++17" && v != "c++20" && v != "gnu++17" && v != "gnu++20")
        usage_error("unsupported " + a + " (expected -std=c++17 or -std=c++20)");
      o.std = v;
    } else if (a == "-O" || a == "-O0" || a == "-O1" || a == "-O2" || a == "-O3" || a == "-Os") {
      o.compile.push_back(a == "-O" ? "-O1" : a);
    } else if (a == "-g" || a == "-G" || a == "--debug" || a == "--device-debug") {
      o.compile.push_back("-g");
    } else if (a == "-c") {
      o.compile_only = true;
    } else if (take_value(a, "-arch", i, argc, argv, v) ||
               take_value(a, "--gpu-architecture", i, argc, argv, v)) {
      if (v == "native" || v == "all" || v == "all-major") continue;  // the default sm_90
      const int n = arch_number(v);
      if (n == 0) usage_error("invalid architecture '" + v + "' (expected e.g. -arch=sm_90)");
      if (n < 50) usage_error("architecture '" + v + "' is older than any CUDA 12/13 supports");
      o.arch = n;
      arch_given = true;
    } else if (take_value(a, "-Xcompiler", i, argc, argv, v) ||
               take_value(a, "--compiler-options", i, argc, argv, v)) {
      // nvcc hands each comma-separated item to the host compiler's command line, which a shell
      // reads: quotes are removed and spaces separate (PyTorch passes '-fPIC' in quotes).
      std::size_t pos = 0;
      while (pos <= v.size()) {
        std::size_t comma = v.find(',', pos);
        std::vector<std::string> words;
        if (!shell_words(v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos), words))
          usage_error("unterminated quote in " + a + " '" + v + "'");
        for (const auto& f : words) o.compile.push_back(f);
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
    } else if (take_value(a, "--check", i, argc, argv, v)) {
      std::string bad;
      if (!parse_check_list(v, o, &bad))
        usage_error("unknown check '" + bad + "' in " + a +
                    " (expected memcheck, racecheck, synccheck, streams, all or none)");
    } else if (take_value(a, "--streams", i, argc, argv, v)) {
      if (v != "async" && v != "sync") usage_error("invalid " + a + " (expected async or sync)");
      o.env.push_back("CUEMU_STREAMS=" + v);
    } else if (take_value(a, "--default-stream", i, argc, argv, v) ||
               take_value(a, "-default-stream", i, argc, argv, v)) {
      // nvcc's: legacy (the default), per-thread, null (an alias of legacy).
      if (v == "per-thread") o.preprocessor.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
      else if (v != "legacy" && v != "null")
        usage_error("invalid " + a + " (expected legacy, null or per-thread)");
    } else if (take_value(a, "--exec", i, argc, argv, v)) {
      if (v != "loops" && v != "fibers") usage_error("invalid " + a + " (expected loops or fibers)");
      o.env.push_back("CUEMU_EXEC=" + v);
    } else if (take_value(a, "--schedule", i, argc, argv, v)) {
      const bool ok = v == "forward" || v == "reverse" || v == "random" ||
                      (starts_with(v, "random:") && is_unsigned(v.substr(7)) && v.size() - 7 <= 19);
      if (!ok) usage_error("invalid " + a + " (expected forward, reverse or random[:SEED])");
      o.env.push_back("CUEMU_SCHEDULE=" + v);
    } else if (take_value(a, "--workers", i, argc, argv, v)) {
      if (!is_unsigned(v) || v.size() > 4 || std::atoi(v.c_str()) < 1 || std::atoi(v.c_str()) > 4096)
        usage_error("invalid " + a + " (expected a number of worker threads from 1 to 4096)");
      o.env.push_back("CUEMU_WORKERS=" + v);
    } else if (take_value(a, "--stack-size", i, argc, argv, v)) {
      if (!parse_bytes(v, 16 * 1024, 1024ull * 1024 * 1024))
        usage_error("invalid " + a + " (expected bytes from 16K to 1024M, e.g. 262144 or 256K)");
      o.env.push_back("CUEMU_STACK_SIZE=" + v);
    } else if (take_value(a, "--timeout", i, argc, argv, v)) {
      char* end = nullptr;
      const double t = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(t >= 0))
        usage_error("invalid " + a + " (expected a number of seconds >= 0; 0 or inf: no limit)");
      o.env.push_back("CUEMU_TIMEOUT=" + v);
    } else if (take_value(a, "--compare-schedules", i, argc, argv, v)) {
      if (!is_unsigned(v) || std::atoi(v.c_str()) < 2 || std::atoi(v.c_str()) > 1000)
        usage_error("invalid " + a + " (expected a number of schedules from 2 to 1000)");
      o.compare_schedules = std::atoi(v.c_str());
    } else if (take_value(a, "--depfile", i, argc, argv, v)) {
      o.depfile = v;
    } else if (take_value(a, "--pass", i, argc, argv, v)) {
      if (v != "host" && v != "device") usage_error("invalid --pass '" + v + "' (expected host or device)");
      o.translate_pass = v;
    } else if (a == "--keep") {
      o.keep = true;
    } else if (a == "-v" || a == "--verbose") {
      o.verbose = true;
    } else if (a == "--version" || a == "-V") {
      std::puts("cuemu: the CUDA CPU emulator, speaking nvcc's command line\n"
                "Cuda compilation tools, release 13.0, V13.0.88 (emulated: no GPU code is made)");
      std::exit(0);
    } else if (a == "-w") {
      o.compile.push_back("-w");
    } else if (!a.empty() && a[0] == '-' && o.forward_unknown) {
      o.compile.push_back(a);  // as nvcc does: -opt or -opt=value, for the host compiler
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option '" + a + "'");
    } else {
      o.inputs.push_back(a);
      o.input_langs.push_back(lang);
    }
  }
  if (!arch_given && gencode_arch) o.arch = gencode_arch;
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
  if (o.command == mode::cc && o.memcheck && race_build(o))
    usage_error(std::string("--check=memcheck and --check=") + (o.racecheck ? "racecheck" : "streams") +
                " need two separate builds (AddressSanitizer and ThreadSanitizer cannot share a "
                "program); build them one at a time");
  if (o.command == mode::translate && (o.inputs.size() != 1 || o.output.empty()))
    usage_error("cuemu translate takes one .cu file and -o OUT.cpp");
  return o;
}

int fp_mode(const options& o) {
  if (o.fast_math) return 15;
  return (o.ftz ? 1 : 0) | (o.prec_div ? 0 : 2) | (o.prec_sqrt ? 0 : 4) | (o.fmad ? 0 : 16);
}

}  // namespace cuemu::driver
