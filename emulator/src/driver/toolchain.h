// The steps of a build: preprocess + translate a .cu, compile, link.
#pragma once

#include <string>
#include <vector>

#include "driver/options.h"

namespace cuemu::driver {

struct paths {
  std::string include_dir;  // the emulator's public headers
  std::string runtime_lib;  // libcuemu_runtime.a
  std::string boost_context;
  std::string cxx;          // host C++ compiler (CUEMU_CXX overrides)
};
paths locate_paths();

// Each returns 0 on success, else the status to exit with (2 for a compile error).
int translate_cu(const options& o, const paths& p, const std::string& in, const std::string& out,
                 const std::string& depfile);
int compile_translated(const options& o, const paths& p, const std::string& in,
                       const std::string& out);
int compile_cpp(const options& o, const paths& p, const std::string& in, const std::string& out);
int write_defaults_source(const options& o, const std::string& out);
int link_program(const options& o, const paths& p, const std::vector<std::string>& objects,
                 const std::string& out);

bool has_suffix(const std::string& s, const std::string& suffix);

}  // namespace cuemu::driver
