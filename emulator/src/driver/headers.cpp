#include "driver/headers.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <map>
#include <sstream>

namespace cuemu::driver {
namespace {

std::string real(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : path;
}

bool is_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The toolkit's headers that are plain CUDA C++ the emulator compiles as a program's own code:
// cuRAND's device API (curand_kernel.h and the headers it includes; its inline PTX is of the
// kind the translator gives a CPU meaning), the 8/6/4-bit float types (cuda_fp8.h, ...) and NVTX
// v3 (nvtx3/, header-only host C: without a tool injected through NVTX_INJECTION64_PATH its calls
// do nothing, as on a GPU machine without a profiler).
bool compiled_from_toolkit(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (path.find("/nvtx3/") != std::string::npos) return true;
  return name == "curand.h" || name.rfind("curand_", 0) == 0 || name == "cuda_fp8.h" ||
         name == "cuda_fp8.hpp" || name == "cuda_fp6.h" || name == "cuda_fp6.hpp" ||
         name == "cuda_fp4.h" || name == "cuda_fp4.hpp";
}

// A toolkit include directory is one holding cuda_runtime_api.h that is not the emulator's.
class toolkit_finder {
 public:
  explicit toolkit_finder(const std::string& own) : own_(real(own)) {}

  // For a file under a toolkit include directory: the header's name relative to it (`cuda/atomic`)
  // and the directory; else false.
  bool find(const std::string& file, std::string& header, std::string& dir) {
    const std::string f = real(file);
    if (f.rfind(own_ + "/", 0) == 0) return false;
    if (compiled_from_toolkit(f)) return false;
    std::string d = f;
    for (int level = 0; level < 6; ++level) {
      const std::size_t slash = d.rfind('/');
      if (slash == std::string::npos || slash == 0) return false;
      d = d.substr(0, slash);
      if (is_toolkit(d)) {
        header = f.substr(d.size() + 1);
        dir = d;
        return true;
      }
    }
    return false;
  }

 private:
  bool is_toolkit(const std::string& d) {
    auto it = cache_.find(d);
    if (it == cache_.end()) it = cache_.emplace(d, d != own_ && is_file(d + "/cuda_runtime_api.h")).first;
    return it->second;
  }
  std::string own_;
  std::map<std::string, bool> cache_;
};

std::string message(const std::string& header, const std::string& found) {
  return "cuemu does not provide <" + header + ">; the CUDA toolkit's copy found at " + found +
         " is not used (a toolkit's headers hold inline PTX and compiler builtins that do not run on "
         "the emulator)";
}

}  // namespace

std::vector<std::string> toolkit_header_errors(const std::string& text, const std::string& own_include_dir) {
  toolkit_finder finder(own_include_dir);
  std::vector<std::string> errors;
  std::map<std::string, bool> toolkit_file;  // by the name the markers use
  std::string file;
  long line = 0;  // the line number of the next text line of `file`
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) {
    // A line marker: # NUMBER "FILE" FLAGS
    if (l.size() > 4 && l[0] == '#' && l[1] == ' ' && l[2] >= '0' && l[2] <= '9') {
      std::size_t q1 = l.find('"'), q2 = l.rfind('"');
      if (q1 == std::string::npos || q2 <= q1) {
        ++line;
        continue;
      }
      const std::string next_file = l.substr(q1 + 1, q2 - q1 - 1);
      const long next_line = std::strtol(l.c_str() + 2, nullptr, 10);
      const bool enters = l.find(" 1", q2) != std::string::npos && l.compare(q2 + 1, 2, " 1") == 0;
      auto it = toolkit_file.find(next_file);
      std::string header, dir;
      if (it == toolkit_file.end())
        it = toolkit_file.emplace(next_file, finder.find(next_file, header, dir)).first;
      // A toolkit header compiled as the program's own code may include its siblings (their
      // include guards, set by the emulator's headers first, leave them empty).
      const bool from_toolkit = (toolkit_file.count(file) && toolkit_file[file]) ||
                                compiled_from_toolkit(file);
      if (enters && it->second && !from_toolkit && finder.find(next_file, header, dir))
        errors.push_back(file + ":" + std::to_string(line) + ": error: " + message(header, next_file));
      file = next_file;
      line = next_line;
      continue;
    }
    ++line;
  }
  return errors;
}

std::vector<std::string> toolkit_dependency_errors(const std::string& depfile_text, const std::string& source,
                                                   const std::string& own_include_dir) {
  toolkit_finder finder(own_include_dir);
  std::istringstream in(depfile_text);
  std::string word, first, first_file;
  int count = 0;
  while (in >> word) {
    if (word == "\\" || word.back() == ':') continue;
    std::string header, dir;
    if (finder.find(word, header, dir) && count++ == 0) {
      first = header;
      first_file = word;
    }
  }
  if (count == 0) return {};
  std::string m = source + ": error: " + message(first, first_file);
  if (count > 1) m += " (and " + std::to_string(count - 1) + " more of its headers)";
  return {m};
}

std::string explain_missing_headers(const std::string& messages) {
  static const char* const prefixes[] = {
      "cuda/", "cub/", "thrust/", "nv/", "cooperative_groups/", "crt/", "cuda_", "cuda.h", "cuComplex",
      "curand", "cublas", "cufft", "cusparse", "cusolver", "nvrtc", "npp", "nvtx", "nvToolsExt", "nvml",
      "mma.h", "sm_", "texture_", "surface_", "math_constants.h", "device_atomic", "cudart", "nvfunctional",
      "nvJitLink", "nvperf", "cupti", "cufile", "cudnn", "nccl"};
  const std::string tail = ": No such file or directory";
  std::istringstream in(messages);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::size_t f = line.find(": fatal error: ");
    if (f != std::string::npos && line.size() > tail.size() &&
        line.compare(line.size() - tail.size(), tail.size(), tail) == 0) {
      const std::size_t h = f + 15;
      const std::string header = line.substr(h, line.size() - tail.size() - h);
      bool cuda = false;
      for (const char* p : prefixes) cuda |= header.rfind(p, 0) == 0;
      // file:line:column: -> file:line:
      std::string where = line.substr(0, f);
      const std::size_t colon = where.rfind(':');
      if (colon != std::string::npos && where.find(':') != colon) where = where.substr(0, colon);
      if (cuda) out += where + ": error: cuemu does not provide <" + header + ">\n";
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace cuemu::driver
