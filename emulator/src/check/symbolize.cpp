#include "check/symbolize.h"

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

// Weak: the runtime is also linked into shared libraries (a TVM-FFI module), which have none.
extern "C" char __executable_start __attribute__((weak));

namespace cuemu::detail {
namespace {

bool emulator_file(const std::string& f) {
  return f.find("/emulator/include/") != std::string::npos ||
         f.find("/emulator/src/") != std::string::npos ||
         f.find("/include/cuemu/") != std::string::npos || f.find("/usr/include/") != std::string::npos ||
         f.find("/include/c++/") != std::string::npos ||
         f.find("/boost/") != std::string::npos;
}

// The number of lines of a source file (0 if it cannot be read), remembered per file.
int line_count(const std::string& file) {
  static std::mutex m;
  static std::map<std::string, int> counts;
  std::lock_guard<std::mutex> lock(m);
  auto it = counts.find(file);
  if (it != counts.end()) return it->second;
  int n = 0;
  if (FILE* f = std::fopen(file.c_str(), "r")) {
    int c, last = '\n';
    while ((c = std::fgetc(f)) != EOF) {
      if (c == '\n') ++n;
      last = c;
    }
    if (last != '\n') ++n;
    std::fclose(f);
  }
  return counts[file] = n;
}

}  // namespace

code_location first_user_location(void* const* frames, int count) {
  code_location none;
  char exe[4096];
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return none;
  exe[n] = 0;
  std::string cmd = "addr2line -C -f -i -e '" + std::string(exe) + "'";
  int used = 0;
  for (int i = 0; i < count; ++i) {
    Dl_info info;
    if (!dladdr(frames[i], &info) || !info.dli_fname || !info.dli_fbase) continue;
    // Only the program itself carries the user's code (shared libraries are not symbolized).
    // dladdr names the program by its argv[0], which need not be a path to it (a process the
    // program started with exec may have any argv[0]): known by its load address first.
    const bool program = &__executable_start && info.dli_fbase == &__executable_start;
    char resolved[4096];
    if (!realpath(info.dli_fname, resolved)) std::strncpy(resolved, info.dli_fname, sizeof resolved - 1);
    if (!program && std::strcmp(resolved, exe) != 0 && info.dli_fname[0] != 0) continue;
    std::uintptr_t a = reinterpret_cast<std::uintptr_t>(frames[i]);
    const auto* eh = static_cast<const Elf64_Ehdr*>(info.dli_fbase);
    if (eh->e_type == ET_DYN) a -= reinterpret_cast<std::uintptr_t>(info.dli_fbase);
    // Return addresses point after the call; step back into it (not for the faulting pc, i==0).
    if (i > 0) a -= 1;
    char buf[32];
    std::snprintf(buf, sizeof buf, " 0x%lx", static_cast<unsigned long>(a));
    cmd += buf;
    ++used;
  }
  if (!used) return none;
  cmd += " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return none;
  char fn[4096], loc[4096];
  code_location found;
  while (std::fgets(fn, sizeof fn, p) && std::fgets(loc, sizeof loc, p)) {
    fn[std::strcspn(fn, "\n")] = 0;
    loc[std::strcspn(loc, "\n")] = 0;
    std::string l(loc);
    const std::size_t colon = l.rfind(':');
    if (colon == std::string::npos) continue;
    std::string file = l.substr(0, colon);
    const int line = std::atoi(l.c_str() + colon + 1);
    if (file == "??" || line <= 0 || emulator_file(file)) continue;
    // Code the compiler generated for an instantiation in a runtime header (a kernel's sync-free
    // loop, its stack probe) can carry the user's file with the header's line: a line past the
    // end of the file is not the user's.
    if (const int lines = line_count(file); lines > 0 && line > lines) continue;
    if (found.file.empty()) {
      found.file = file;
      found.line = line;
      found.function = fn;
    }
  }
  pclose(p);
  return found;
}

std::string at_line(const code_location& c) {
  return c.file.empty() ? std::string("<unknown>") : c.file + ":" + std::to_string(c.line);
}

std::uint32_t code_site(std::uintptr_t pc) {
  if (!&__executable_start) return 0;
  const auto base = reinterpret_cast<std::uintptr_t>(&__executable_start);
  return pc >= base && pc - base < 0xffffffffu ? static_cast<std::uint32_t>(pc - base) : 0;
}

code_location location_of_site(std::uint32_t site) {
  if (!site || !&__executable_start) return {};
  void* f[1] = {&__executable_start + site};
  return first_user_location(f, 1);
}

}  // namespace cuemu::detail
