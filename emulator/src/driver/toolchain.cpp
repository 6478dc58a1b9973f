#include "driver/toolchain.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "cuemu_paths.h"
#include "driver/headers.h"
#include "driver/passes.h"
#include "driver/process.h"
#include "translate/rewriter.h"

namespace cuemu::driver {
namespace {

bool exists(const std::string& p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0;
}

// Every mode compiles with the same host compiler, so every mode compiles what the plain build
// compiles. racecheck uses its instrumentation only: the race detector is the runtime's own.
const std::string& compiler(const paths& p, variant) { return p.cxx; }

std::vector<std::string> sanitizer_flags(variant v) {
  switch (v) {
    case variant::memcheck:
      // Recoverable: the handler (check/sanitizer_hooks.cpp) reports loads and stores and lets
      // reference bindings pass, as a GPU does.
      // No use-after-scope: it needs -fstack-reuse=none, and the temporaries it would report
      // (Thrust reads one through a reference; see compile_translated) are values on a GPU.
      return {"-fsanitize=address", "-fsanitize=alignment", "-fno-omit-frame-pointer",
              "-fno-sanitize-address-use-after-scope"};
    case variant::racecheck:
      // g++ warns that ThreadSanitizer does not see fences; the race detector's model of
      // fences is its own (check/racecheck.cpp).
      // Volatile accesses reported apart: to global memory they are relaxed atomics in CUDA.
      return {"-fsanitize=thread", "-Wno-tsan", "--param=tsan-distinguish-volatile=1"};
    default:
      return {};
  }
}

std::vector<std::string> base_flags(const options& o, variant v) {
  std::vector<std::string> f{"-std=" + o.std};
  bool opt = false, debug = false;
  for (const auto& c : o.compile) {
    if (c.rfind("-O", 0) == 0) opt = true;
    if (c.rfind("-g", 0) == 0) debug = true;
  }
  if (!opt) f.push_back(v == variant::plain ? "-O2" : "-O1");
  // Line tables at least: fault, timeout and sanitizer reports then name the user's file:line.
  if (!debug) f.push_back(v == variant::plain ? "-g1" : "-g");
  // A frame larger than the guard page (a big local array) probes each page on the way down,
  // so it faults at the guard page (a stack-overflow report) instead of landing in other memory.
  f.push_back("-fstack-clash-protection");
  for (const auto& c : o.compile) f.push_back(c);
  for (const auto& s : sanitizer_flags(v)) f.push_back(s);
  return f;
}

bool check_compiler(const paths&, variant) { return true; }

// The macros nvcc 13.0 defines (the CUDA version the emulator models), for a .cu (all) or a
// C++ file (__NVCC__ only, as nvcc does); each can be overridden with -D or removed with -U.
std::vector<std::string> nvcc_macros(const options& o, bool cuda) {
  static const std::pair<const char*, const char*> cu[] = {
      {"__NVCC__", "1"}, {"__CUDACC_VER_MAJOR__", "13"}, {"__CUDACC_VER_MINOR__", "0"},
      {"__CUDACC_VER_BUILD__", "88"}, {"__CUDA_API_VER_MAJOR__", "13"},
      {"__CUDA_API_VER_MINOR__", "0"},
      // CCCL: NVTX ranges use toolkit headers cuemu does not provide; the 8/6/4-bit float types
      // come from the toolkit's headers (cuda_fp8.h), which a machine without a toolkit lacks.
      {"CCCL_DISABLE_NVTX", "1"}, {"CCCL_DISABLE_NVFP8_SUPPORT", "1"}};
  std::vector<std::string> out;
  if (cuda && o.fast_math) out.push_back("-D__USE_FAST_MATH__=1");
  // nvcc names the architectures it compiles for in both passes.
  if (cuda) out.push_back("-D__CUDA_ARCH_LIST__=" + std::to_string(o.arch * 10));
  for (const auto& [name, value] : cu) {
    if (!cuda && std::string(name) != "__NVCC__" && std::string(name).rfind("CCCL_", 0) != 0) continue;
    bool given = false;
    for (const auto& f : o.preprocessor) {
      if (f.size() < 3 || (f.compare(0, 2, "-D") != 0 && f.compare(0, 2, "-U") != 0)) continue;
      const std::string rest = f.substr(2);
      if (rest == name || rest.rfind(std::string(name) + "=", 0) == 0) given = true;
    }
    if (!given) out.push_back(std::string("-D") + name + "=" + value);
  }
  return out;
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

// A compiler named without a directory is looked up in PATH, as the shell would.
std::string compiler_path(const std::string& cxx) {
  if (cxx.find('/') != std::string::npos) return real_path(cxx);
  const char* path = std::getenv("PATH");
  for (std::string dirs = path ? path : ""; !dirs.empty();) {
    const std::size_t colon = dirs.find(':');
    const std::string dir = dirs.substr(0, colon);
    dirs = colon == std::string::npos ? "" : dirs.substr(colon + 1);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + cxx;
    if (access(candidate.c_str(), X_OK) == 0) return real_path(candidate);
  }
  return cxx;
}

// Whether device code gets the GPU's NaN results (emulator/src/gpu_fp): the plugin is built for
// the g++ that built the emulator, so programs compiled by another compiler (-ccbin, CUEMU_CXX)
// keep the CPU's.
bool gpu_fp(const paths& p) {
  return !p.gpu_fp_plugin.empty() && exists(p.gpu_fp_plugin) &&
         compiler_path(p.cxx) == compiler_path(CUEMU_HOST_CXX);
}

// Whether the host compiler (-ccbin) is clang, which lacks some of g++'s options.
static bool clang_host(const paths& p) {
  const std::size_t slash = p.cxx.rfind('/');
  return p.cxx.find("clang", slash == std::string::npos ? 0 : slash + 1) != std::string::npos;
}

// Whether kernels contract a*b+c into fused multiply-adds as nvcc's do (-fmad=true, its default):
// g++ forms them only with FMA instructions, which the machine that builds also runs; a host
// compiler other than g++ (clang) does not know the per-function option (translate::options).
bool contracts_fp(const options& o, const paths& p) {
  if (!o.fmad || !__builtin_cpu_supports("fma")) return false;
  return !clang_host(p);
}

// The include directory of the toolkit the build makes (build/toolkit/include, a directory of
// links to the emulator's headers) is the emulator's own: a build naming it (-I$(CUDA_HOME)/include,
// CMake's include directories of CUDA::* targets) must not see the headers twice, or a header
// that includes the toolkit's next one (curand_kernel.h) would find itself.
bool is_own_toolkit_include(const std::string& dir, const paths& p) {
  return exists(dir + "/cuemu") && real_path(dir + "/cuemu") == real_path(p.include_dir + "/cuemu") &&
         real_path(dir) != real_path(p.include_dir);
}

// The user's -I, -isystem, -D and -U, without the toolkit's include directory.
std::vector<std::string> user_preprocessor_flags(const options& o, const paths& p) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < o.preprocessor.size(); ++i) {
    const std::string& f = o.preprocessor[i];
    if (f == "-include" && i + 1 < o.preprocessor.size()) {
      out.insert(out.end(), {f, o.preprocessor[i + 1]});
      ++i;
      continue;
    }
    if (f == "-isystem" && i + 1 < o.preprocessor.size()) {
      if (!is_own_toolkit_include(o.preprocessor[i + 1], p)) out.insert(out.end(), {f, o.preprocessor[i + 1]});
      ++i;
      continue;
    }
    if (f.rfind("-I", 0) == 0 && is_own_toolkit_include(f.substr(2), p)) continue;
    out.push_back(f);
  }
  return out;
}

}  // namespace

const char* variant_name(variant v) {
  switch (v) {
    case variant::memcheck: return "memcheck";
    case variant::racecheck: return "racecheck";
    default: return "plain";
  }
}

bool has_suffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

paths locate_paths() {
  paths p;
  const std::string here = executable_dir();
  const char* names[3] = {"libcuemu_runtime.a", "libcuemu_runtime_memcheck.a",
                          "libcuemu_runtime_racecheck.a"};
  if (exists(here + "/../include/cuemu/cuda_runtime.h") && exists(here + "/../lib/libcuemu_runtime.a")) {
    p.include_dir = here + "/../include/cuemu";
    if (exists(p.include_dir + "/cccl/cub/cub.cuh")) p.cccl_dir = p.include_dir + "/cccl";
    for (int i = 0; i < 3; ++i) p.runtime_lib[i] = here + "/../lib/" + names[i];
    if (exists(here + "/cuemu-regions")) p.regions_tool = here + "/cuemu-regions";
    if (exists(here + "/../lib/cuemu_gpu_fp.so")) p.gpu_fp_plugin = here + "/../lib/cuemu_gpu_fp.so";
  } else {
    p.regions_tool = CUEMU_BUILD_REGIONS_TOOL;
    p.include_dir = CUEMU_BUILD_INCLUDE_DIR;
    p.cccl_dir = CUEMU_BUILD_CCCL_DIR;
    p.runtime_lib[0] = CUEMU_BUILD_RUNTIME_LIB;
    p.runtime_lib[1] = CUEMU_BUILD_RUNTIME_MEMCHECK_LIB;
    p.runtime_lib[2] = CUEMU_BUILD_RUNTIME_RACECHECK_LIB;
    p.gpu_fp_plugin = CUEMU_BUILD_GPU_FP_PLUGIN;
  }
  p.boost_context = CUEMU_BOOST_CONTEXT_LIB;
  p.clang_resource_dir = CUEMU_CLANG_RESOURCE_DIR;
  if (!p.regions_tool.empty() && !exists(p.regions_tool)) p.regions_tool.clear();
  const char* cxx = std::getenv("CUEMU_CXX");
  p.cxx = cxx && *cxx ? cxx : CUEMU_HOST_CXX;
  return p;
}

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Preprocesses `in` into `out` and `text` (the same text; `out` stays for --keep and -v).
int preprocess_cu(const options& o, const paths& p, variant v, const std::string& in, bool device_pass,
                  const std::string& out, const std::string& depfile, const std::string& dep_target,
                  std::string& text, const std::string& quote_dir = "") {
  if (!exists(in)) {
    std::fprintf(stderr, "cuemu: %s: no such file\n", in.c_str());
    return 2;
  }
  if (!check_compiler(p, v)) return 2;
  // Like nvcc, a .cu sees cuda_runtime.h without including it.
  std::vector<std::string> cmd{compiler(p, v), "-E", "-x", "c++", "-std=" + o.std,
                               "-D__CUEMU_TRANSLATE__", "-I" + p.include_dir,
                               "-include", "cuda_runtime.h"};
  if (!p.cccl_dir.empty()) cmd.insert(cmd.end(), {"-isystem", p.cccl_dir});
  for (const auto& d : nvcc_macros(o, true)) cmd.push_back(d);
  if (device_pass) cmd.push_back("-D__CUDA_ARCH__=" + std::to_string(o.arch * 10));
  // The unit records the architecture it was compiled for (cuda_runtime.h), so a program linked
  // by another tool (the toolkit's host link, driver/host_link.h) emulates it.
  cmd.push_back("-D__CUEMU_UNIT_ARCH__=" + std::to_string(o.arch));
  if (gpu_fp(p)) cmd.push_back("-D__CUEMU_GPU_FP__=1");  // cuemu/launch.h
  // Device code's floating-point mode (-ftz, -prec-div, -prec-sqrt, --use_fast_math, -fmad): the unit
  // sets the runtime's (cuda_runtime.h), which picks libdevice's build for it.
  if (fp_mode(o) != 0) cmd.push_back("-D__CUEMU_FP_MODE__=" + std::to_string(fp_mode(o)));
  // The text is compiled with ThreadSanitizer's instrumentation (which the preprocessor is not
  // told of): headers keep the emulator's per-worker records out of it (cuemu/progress.h).
  if (v == variant::racecheck) cmd.push_back("-D__CUEMU_RACECHECK__");
  if (v == variant::memcheck) cmd.push_back("-D__CUEMU_MEMCHECK__");  // AddressSanitizer's (cuemu/launch.h)
  if (!quote_dir.empty()) cmd.insert(cmd.end(), {"-iquote", quote_dir});
  for (const auto& f : user_preprocessor_flags(o, p)) cmd.push_back(f);
  if (!depfile.empty()) cmd.insert(cmd.end(), {"-MD", "-MF", depfile, "-MT", dep_target.empty() ? out : dep_target});
  cmd.push_back(in);
  // The preprocessor's messages wait until it is known whether a toolkit header leaked in: then
  // that is the error (the toolkit's own #errors and failures would only hide it). Its output
  // goes to stdout, which is kept when it fails (-o's file would be removed).
  const std::string messages = out + ".stderr";
  const int rc = run_process(cmd, {}, o.verbose, out, messages);
  text = read_file(out);
  const std::vector<std::string> leaks = toolkit_header_errors(text, p.include_dir);
  const std::string said = read_file(messages);
  std::remove(messages.c_str());
  if (!leaks.empty()) {
    for (const auto& e : leaks) std::fprintf(stderr, "%s\n", e.c_str());
    if (o.verbose) std::fputs(said.c_str(), stderr);
    return 2;
  }
  std::fputs(explain_missing_headers(said).c_str(), stderr);
  return rc == 0 ? 0 : 2;
}

int translate_text(const options& o, const paths& p, variant v, const std::string& in,
                   const std::string& text, translate::pass pass, const std::string& unit,
                   const std::string& out) {
  translate::options topt;
  topt.contract_fp = contracts_fp(o, p);
  topt.gpu_fp = gpu_fp(p);
  topt.shared_as_block_objects = v != variant::plain;
  topt.compile_pass = pass;
  topt.unit = unit;
  topt.runtime_include_dir = p.include_dir;
  const translate::result r = translate::rewrite(text, in, topt);
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

}  // namespace

int translate_cu(const options& o, const paths& p, variant v, const std::string& in,
                 const std::string& out, const std::string& depfile, const std::string& dep_target) {
  const std::string pre = out + ".pre";
  const bool device = o.translate_pass == "device";
  std::string text;
  if (int rc = preprocess_cu(o, p, v, in, device, pre, depfile, dep_target.empty() ? out : dep_target, text); rc != 0)
    return rc;
  if (!o.keep) std::remove(pre.c_str());
  const translate::pass pass = o.translate_pass.empty() ? translate::pass::single
                               : device                 ? translate::pass::device
                                                        : translate::pass::host;
  return translate_text(o, p, v, in, text, pass, pass == translate::pass::single ? "" : unit_name(in, out), out);
}

namespace {

// Whether a file's text may hold a synchronisation the region forms replace: a block barrier, a
// warp barrier, a warp collective (__shfl*_sync, __ballot_sync, __any_sync, ...) or cooperative
// groups. A file with none (only sync-free kernels, which run as plain calls anyway) skips the
// translator's parse.
bool may_synchronise(const std::string& text) {
  for (const char* word : {"__syncthreads", "__syncwarp", "__shfl", "_sync(", "cooperative_groups"})
    if (text.find(word) != std::string::npos) return true;
  return false;
}

// cuemu-regions (emulator/src/regions): `in` with a region form at the top of every kernel it
// can prove safe, written to `regions_cu`. Returns false when no kernel has one (or the tool is
// not there): `in` is compiled as it is.
bool write_region_forms(const options& o, const paths& p, const std::string& in,
                        const std::string& regions_cu) {
  if (p.regions_tool.empty() || !may_synchronise(read_file(in))) return false;
  const std::string report = regions_cu + ".report";
  std::vector<std::string> cmd{p.regions_tool, in, "-o", regions_cu, "--file", in, "--report", report,
                               "--", "-x", "c++", "-std=" + o.std, "-D__CUEMU_REGIONS_PARSE__",
                               "-I" + p.include_dir, "-include", "cuda_runtime.h"};
  if (!p.clang_resource_dir.empty()) cmd.insert(cmd.end(), {"-resource-dir", p.clang_resource_dir});
  if (!p.cccl_dir.empty()) cmd.insert(cmd.end(), {"-isystem", p.cccl_dir});
  for (const auto& d : nvcc_macros(o, true)) cmd.push_back(d);
  cmd.push_back("-D__CUDA_ARCH__=" + std::to_string(o.arch * 10));
  cmd.push_back("-D__CUEMU_UNIT_ARCH__=" + std::to_string(o.arch));
  for (const auto& f : user_preprocessor_flags(o, p)) cmd.push_back(f);
  const std::string messages = regions_cu + ".stderr";
  const int rc = run_process(cmd, {}, o.verbose, "", messages);
  if (o.verbose) {
    std::fputs(read_file(report).c_str(), stderr);
    std::fputs(read_file(messages).c_str(), stderr);
  }
  std::remove(report.c_str());
  std::remove(messages.c_str());
  return rc == 0;
}

int compile_cu_text(const options& o, const paths& p, variant v, const std::string& in,
                    const std::string& out, const std::string& depfile, const std::string& dep_target,
                    const std::string& quote_dir);

}  // namespace

int compile_cu(const options& o, const paths& p, variant v, const std::string& in,
               const std::string& out, const std::string& depfile, const std::string& dep_target) {
  const std::string regions_cu = out + ".regions.cu";
  if (v != variant::plain || !write_region_forms(o, p, in, regions_cu))
    return compile_cu_text(o, p, v, in, out, depfile, dep_target, "");
  const std::size_t slash = in.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : in.substr(0, slash == 0 ? 1 : slash);
  int rc = compile_cu_text(o, p, v, regions_cu, out, depfile, dep_target, dir);
  if (!o.keep) std::remove(regions_cu.c_str());
  if (rc != 0) {
    // The region forms must never cost a build: compile the kernels as they were.
    if (o.verbose)
      std::fprintf(stderr, "cuemu: %s did not compile with its region forms; compiling it without\n",
                   in.c_str());
    return compile_cu_text(o, p, v, in, out, depfile, dep_target, "");
  }
  if (!depfile.empty()) {  // the dependency is the user's file
    std::string d = read_file(depfile);
    for (std::size_t at; (at = d.find(regions_cu)) != std::string::npos;) d.replace(at, regions_cu.size(), in);
    std::ofstream(depfile, std::ios::binary) << d;
  }
  return 0;
}

namespace {

int compile_cu_text(const options& o, const paths& p, variant v, const std::string& in,
                    const std::string& out, const std::string& depfile, const std::string& dep_target,
                    const std::string& quote_dir) {
  // nvcc compiles a .cu twice, with and without __CUDA_ARCH__. When the two preprocessed texts
  // are the same, nothing tests it and one pass is the whole program.
  const std::string host_pre = out + ".host.pre", device_pre = out + ".device.pre";
  const std::string target = dep_target.empty() ? out : dep_target;
  std::string host_text, device_text;
  if (int rc = preprocess_cu(o, p, v, in, false, host_pre, depfile, target, host_text, quote_dir); rc != 0)
    return rc;
  const std::string device_dep = depfile.empty() ? "" : depfile + ".device";
  if (int rc = preprocess_cu(o, p, v, in, true, device_pre, device_dep, target, device_text, quote_dir); rc != 0)
    return rc;
  if (!o.keep) {
    std::remove(host_pre.c_str());
    std::remove(device_pre.c_str());
  }
  if (!device_dep.empty()) {  // a header only the device pass includes is a dependency too
    std::ofstream(depfile, std::ios::app) << read_file(device_dep);
    std::remove(device_dep.c_str());
  }
  if (host_text == device_text) {
    const std::string translated = out + ".ii";
    if (int rc = translate_text(o, p, v, in, host_text, translate::pass::single, "", translated); rc != 0) return rc;
    const int rc = compile_translated(o, p, v, translated, out);
    if (!o.keep) std::remove(translated.c_str());
    return rc;
  }
  const std::string unit = unit_name(in, out);
  const std::string host_ii = out + ".host.ii", device_ii = out + ".device.ii";
  const std::string host_o = out + ".host.o", device_o = out + ".device.o";
  int rc = translate_text(o, p, v, in, host_text, translate::pass::host, unit, host_ii);
  if (rc == 0) rc = translate_text(o, p, v, in, device_text, translate::pass::device, unit, device_ii);
  if (rc == 0) rc = compile_translated(o, p, v, device_ii, device_o);
  if (rc == 0) rc = compile_translated(o, p, v, host_ii, host_o);
  if (rc == 0) rc = join_passes(o, p, v, host_o, device_o, out);
  if (!o.keep)
    for (const std::string& f : {host_ii, device_ii, host_o, device_o}) std::remove(f.c_str());
  return rc;
}

}  // namespace

int preprocess_only(const options& o, const paths& p, variant v, const std::string& in,
                    const std::string& out, bool deps_only, const std::string& dep_target) {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/cuemu-pre-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back(0);
  const int fd = mkstemp(buf.data());
  if (fd < 0) {
    std::perror("cuemu: cannot create a temporary file");
    return 2;
  }
  close(fd);
  const std::string pre = buf.data(), deps = pre + ".d";
  std::string text;
  const int rc = preprocess_cu(o, p, v, in, false, pre, deps_only ? deps : "", dep_target, text);
  if (deps_only) text = read_file(deps);
  std::remove(pre.c_str());
  std::remove(deps.c_str());
  if (rc != 0) return rc;
  if (out.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 2;
  }
  std::ofstream w(out, std::ios::binary);
  w << text;
  if (!w) {
    std::fprintf(stderr, "cuemu: cannot write %s\n", out.c_str());
    return 2;
  }
  return 0;
}

// Math functions device code takes from libdevice (cuemu/libdevice.h) that g++ must call as
// written. fmax and fmin: g++ would expand them inline with x86's rule for two NaNs (the second;
// the GPU keeps the first). pow and powf: g++ replaces pow(x, 1.0) by x and pow(x, 2.0) by x * x,
// which libdevice's pow does not (pow(3.0, 1.0) is 2.9999999999999996 on an H200). fma and fmaf:
// with FMA instructions (contraction, contracts_fp) g++ would expand them inline with x86's NaN
// rules (the GPU's: a canonical NaN in single precision, operands a, c, b in double).
// nan, nanf and nanl: g++ declares them const (reading no memory), so the stores that build a
// tag string in device code were deleted as dead before the call read them. The other
// functions stay builtins, so a call on constants is folded as nvcc folds it (sinf(1.0f) in a
// kernel is the correctly rounded constant on an H200, not what libdevice computes at run time).
static const std::vector<std::string>& libdevice_builtin_flags() {
  static const std::vector<std::string> flags{"-fno-builtin-fmax", "-fno-builtin-fmin",
                                              "-fno-builtin-fmaxf", "-fno-builtin-fminf",
                                              "-fno-builtin-pow", "-fno-builtin-powf",
                                              "-fno-builtin-fma", "-fno-builtin-fmaf",
                                              "-fno-builtin-nan", "-fno-builtin-nanf",
                                              "-fno-builtin-nanl"};
  return flags;
}

int compile_translated(const options& o, const paths& p, variant v, const std::string& in,
                       const std::string& out) {
  // -fpermissive: nvcc's front end accepts what g++ makes a "permerror", e.g. CUB's
  // `using BlockScan = BlockScan<...>;` in a class (g++: "changes meaning"); g++ then warns.
  // -fno-strict-aliasing: CUDA code reads objects through other types (CUB shuffles a
  // tuple<int, long> as words through an unsigned*), which nvcc compiles as written and g++'s
  // type-based alias analysis would not.
  // -fstack-reuse=named_vars: Thrust binds a reference to a temporary past its full-expression
  // (raw_reference_cast of a transform_iterator's value in uninitialized_copy); nvcc's code keeps
  // the value, g++'s reuses the temporary's stack slot unless told not to.
  std::vector<std::string> cmd{compiler(p, v), "-c", "-x", "c++-cpp-output", "-fpermissive", "-fno-strict-aliasing"};
  if (!clang_host(p)) cmd.push_back("-fstack-reuse=named_vars");  // g++'s option; clang has none
  // Kernels contract (translate::options::contract_fp), host code does not.
  if (contracts_fp(o, p)) cmd.insert(cmd.end(), {"-mfma", "-ffp-contract=off"});
  if (gpu_fp(p)) {
    cmd.push_back("-fplugin=" + p.gpu_fp_plugin);
    // Kernels' own float arithmetic in that mode (flushing, approximate division, square root).
    // (-fmad, bit 4, reaches kernels' arithmetic as contracts_fp instead.)
    if ((fp_mode(o) & 15) != 0) cmd.push_back("-fplugin-arg-cuemu_gpu_fp-mode=" + std::to_string(fp_mode(o) & 15));
  }
  for (const auto& f : base_flags(o, v)) cmd.push_back(f);
  for (const auto& f : libdevice_builtin_flags()) cmd.push_back(f);
  cmd.insert(cmd.end(), {in, "-o", out});
  return run_process(cmd, {}, o.verbose) == 0 ? 0 : 2;
}

int compile_cpp(const options& o, const paths& p, variant v, const std::string& in,
                const std::string& out, const std::string& depfile) {
  if (!exists(in)) {
    std::fprintf(stderr, "cuemu: %s: no such file\n", in.c_str());
    return 2;
  }
  if (!check_compiler(p, v)) return 2;
  std::vector<std::string> cmd{compiler(p, v), "-c", "-I" + p.include_dir};
  if (!p.cccl_dir.empty()) cmd.insert(cmd.end(), {"-isystem", p.cccl_dir});
  if (has_suffix(in, ".c")) cmd.insert(cmd.begin() + 2, {"-x", "c++"});
  for (const auto& d : nvcc_macros(o, false)) cmd.push_back(d);
  for (const auto& f : user_preprocessor_flags(o, p)) cmd.push_back(f);
  for (const auto& f : base_flags(o, v)) cmd.push_back(f);
  // The dependencies tell whether a toolkit header leaked in (headers.h).
  const std::string deps = depfile.empty() ? out + ".deps" : depfile;
  cmd.insert(cmd.end(), {"-MD", "-MF", deps, "-MT", o.dep_target.empty() ? out : o.dep_target});
  cmd.insert(cmd.end(), {in, "-o", out});
  const std::string messages = out + ".stderr";
  const int rc = run_process(cmd, {}, o.verbose, "", messages);
  const std::vector<std::string> leaks = toolkit_dependency_errors(read_file(deps), in, p.include_dir);
  const std::string text = read_file(messages);
  std::remove(messages.c_str());
  if (depfile.empty()) std::remove(deps.c_str());
  if (!leaks.empty()) {
    for (const auto& e : leaks) std::fprintf(stderr, "%s\n", e.c_str());
    if (o.verbose) std::fputs(text.c_str(), stderr);
    std::remove(out.c_str());
    return 2;
  }
  std::fputs(explain_missing_headers(text).c_str(), stderr);
  return rc == 0 ? 0 : 2;
}

int write_defaults_source(const options& o, const std::string& out) {
  // Options given to `cuemu cc` become the program's defaults; the environment still wins.
  std::ofstream w(out);
  w << "#include <cstdlib>\nnamespace {\nstruct cuemu_build_defaults {\n  cuemu_build_defaults() {\n";
  std::vector<std::string> env = o.env;
  // The modes its build serves (a racecheck build also serves streams, a memcheck build not).
  std::string checks = checks_of_build(o, o.memcheck);
  if (!checks.empty()) env.push_back("CUEMU_CHECK=" + checks);
  for (const auto& e : env) {
    const std::size_t eq = e.find('=');
    w << "    setenv(\"" << e.substr(0, eq) << "\", \"" << e.substr(eq + 1) << "\", 0);\n";
  }
  w << "  }\n} cuemu_build_defaults_instance;\n}  // namespace\n";
  return w ? 0 : 2;
}

int link_program(const options& o, const paths& p, variant v,
                 const std::vector<std::string>& objects, const std::string& out) {
  std::vector<std::string> cmd{compiler(p, v)};
  for (const auto& c : o.compile)
    if (c == "-g" || c.rfind("-fsanitize", 0) == 0) cmd.push_back(c);
  if (v == variant::memcheck) cmd.push_back("-fsanitize=address");
  for (const auto& obj : objects) cmd.push_back(obj);
  cmd.insert(cmd.end(), {"-o", out, p.runtime_lib[static_cast<int>(v)], p.boost_context, "-pthread"});
  for (const auto& l : o.link) cmd.push_back(l);
  return run_process(cmd, {}, o.verbose) == 0 ? 0 : 2;
}

std::vector<std::string> run_environment(const options& o, variant v) {
  std::vector<std::string> env = o.env;
  const std::string checks = checks_of_build(o, v == variant::memcheck);
  if (!checks.empty()) env.push_back("CUEMU_CHECK=" + checks);
  if (o.verbose) env.push_back("CUEMU_VERBOSE=1");  // the sanitizers' own reports too
  // Leaks of device memory are not faults on a GPU; fibers need no stack-use-after-return.
  if (v == variant::memcheck && !std::getenv("ASAN_OPTIONS"))
    env.push_back("ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0");
  return env;
}

}  // namespace cuemu::driver
