// The cuemu command line: nvcc-like options plus the emulator's own.
#pragma once

#include <string>
#include <vector>

namespace cuemu::driver {

enum class mode { run, cc, translate };

struct options {
  mode command = mode::run;
  std::vector<std::string> inputs;        // .cu, .cpp/.cc/.cxx/.c, .o/.a
  std::vector<std::string> input_langs;   // per input: "cu" or "c++" (-x), or "" (by suffix)
  std::vector<std::string> preprocessor;  // -I, -D, -U (as given, normalised to one argument)
  std::vector<std::string> link;          // -l, -L
  std::vector<std::string> compile;       // -O, -g, extra host compiler flags (-Xcompiler)
  std::string std = "c++17";
  std::string output;                     // -o
  bool compile_only = false;              // -c
  int arch = 90;                          // -arch=sm_XX
  std::string depfile;                    // translate: --depfile; cc -c: -MD/-MMD -MF FILE
  std::string dep_target;                 // -MT TARGET
  std::string translate_pass;             // translate: --pass=host|device ("": one pass, no __CUDA_ARCH__)
  bool dependencies = false;              // -MD/-MMD: write a dependency file while compiling
  std::string host_compiler;              // -ccbin
  bool fast_math = false;                 // --use_fast_math: all four below, and fast math functions
  bool ftz = false;                       // -ftz=true: single precision flushes subnormals
  bool prec_div = true;                   // -prec-div=false: float division approximate (div.full)
  bool prec_sqrt = true;                  // -prec-sqrt=false: float square root approximate
  bool fmad = true;                       // -fmad=false: kernels not contracted (toolchain.cpp)
  std::vector<std::string> env;           // CUEMU_*=... for the program (not CUEMU_CHECK)
  bool memcheck = false, racecheck = false, synccheck = false;  // --check
  bool streams = false;  // --check=streams: rides on the racecheck build (ThreadSanitizer's instrumentation)
  int compare_schedules = 0;              // --compare-schedules=N: run under N schedules
  bool keep = false;
  bool verbose = false;
  bool forward_unknown = false;           // -forward-unknown-to-host-compiler: unknown -opts to g++
  std::vector<std::string> program_args;  // after --
};

// The floating-point mode device code is compiled in, as the runtime and libdevice number it
// (src/libdevice/variants.py): bit 0 -ftz=true, bit 1 -prec-div=false, bit 2 -prec-sqrt=false;
// 15 is --use_fast_math.
int fp_mode(const options& o);


// Parses argv; on a bad command line prints "cuemu: <what>" and exits with status 2.
options parse_options(int argc, char** argv);
void print_usage();
// `s` split as a shell splits it (quotes and backslashes removed); false if a quote is open.
bool shell_words(const std::string& s, std::vector<std::string>& words);
// The words of a response file (nvcc's --options-file, g++'s @FILE): separated by white space,
// with '...', "..." and \ as a shell reads them. False, with `error` set, if it cannot be read.
bool read_response_file(const std::string& path, std::vector<std::string>& words, std::string& error);
// "memcheck,synccheck", "all", "none", ...: sets o's checks; false (and *bad: the name) if a
// name is unknown.
bool parse_check_list(const std::string& list, options& o, std::string* bad = nullptr);
// The checks the ThreadSanitizer-instrumented build (variant racecheck) serves: racecheck, streams.
inline bool race_build(const options& o) { return o.racecheck || o.streams; }
// CUEMU_CHECK's value for a build that is (memcheck) or is not AddressSanitizer's: the modes of
// `o` that build checks, comma-separated ("" for none).
std::string checks_of_build(const options& o, bool memcheck_build);

}  // namespace cuemu::driver
