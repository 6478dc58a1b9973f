#include "driver/passes.h"

#include <cxxabi.h>
#include <limits.h>
#include <stdlib.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "driver/process.h"

namespace cuemu::driver {
namespace {

struct symbol {
  std::string name;
  char type;  // nm's letter
};

// `nm -P` of an object: name, type letter, ... per line.
bool read_symbols(const options& o, const std::string& object, bool defined_only,
                  std::vector<symbol>& out) {
  const std::string listing = object + ".nm";
  std::vector<std::string> cmd{"nm", "-P"};
  if (defined_only) cmd.push_back("--defined-only");
  cmd.push_back(object);
  if (run_process(cmd, {}, o.verbose, listing) != 0) {
    std::fprintf(stderr, "cuemu: 'nm' (binutils) failed on %s\n", object.c_str());
    return false;
  }
  std::ifstream f(listing);
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream ls(line);
    symbol s;
    std::string type;
    if (ls >> s.name >> type && type.size() == 1) {
      s.type = type[0];
      out.push_back(std::move(s));
    }
  }
  if (!o.keep) std::remove(listing.c_str());
  return true;
}

std::string demangle(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : name;
  std::free(d);
  return out;
}

// Data of the emulator's own headers (a function-local static, an inline variable) is one
// object for both passes: the runtime's state.
bool runtime_data(const symbol& s) {
  if (std::string("BbDdRrVvuGgSs").find(s.type) == std::string::npos) return false;
  std::string d = demangle(s.name);
  for (const char* prefix : {"guard variable for ", "TLS init function for ", "TLS wrapper function for "})
    if (d.rfind(prefix, 0) == 0) d = d.substr(std::string(prefix).size());
  return d.rfind("cuemu::", 0) == 0;
}

}  // namespace

std::string unit_name(const std::string& in, const std::string& out) {
  char buf[PATH_MAX];
  const std::string key = std::string(realpath(in.c_str(), buf) ? buf : in.c_str()) + "\n" + out;
  std::uint64_t h = 1469598103934665603ull;
  for (char c : key) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

int join_passes(const options& o, const paths& p, variant, const std::string& host_o,
                const std::string& device_o, const std::string& out) {
  std::vector<symbol> host, device;
  if (!read_symbols(o, host_o, false, host) || !read_symbols(o, device_o, true, device)) return 2;
  std::set<std::string> needed;  // what the host object leaves to the device object
  for (const symbol& s : host)
    if (s.type == 'U') needed.insert(s.name);
  const std::string renames = device_o + ".renames";
  {
    std::ofstream w(renames);
    std::set<std::string> done;
    for (const symbol& s : device) {
      if (s.name.empty() || s.name[0] == '.' || needed.count(s.name) || runtime_data(s)) continue;
      if (done.insert(s.name).second) w << s.name << ' ' << s.name << ".device\n";
    }
    if (!w) {
      std::fprintf(stderr, "cuemu: cannot write %s\n", renames.c_str());
      return 2;
    }
  }
  const std::string renamed = device_o + ".renamed.o";
  if (run_process({"objcopy", "--redefine-syms=" + renames, device_o, renamed}, {}, o.verbose) != 0) {
    std::fprintf(stderr, "cuemu: 'objcopy' (binutils) failed on %s\n", device_o.c_str());
    return 2;
  }
  const int rc = run_process({p.cxx, "-r", "-nostdlib", host_o, renamed, "-o", out}, {}, o.verbose);
  if (!o.keep) {
    std::remove(renames.c_str());
    std::remove(renamed.c_str());
  }
  return rc == 0 ? 0 : 2;
}

}  // namespace cuemu::driver
