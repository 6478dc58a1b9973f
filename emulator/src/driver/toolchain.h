// The steps of a build: preprocess + translate a .cu, compile, link; once per build variant.
#pragma once

#include <string>
#include <vector>

#include "driver/options.h"

namespace cuemu::driver {

// A program is built plain, or for a checking mode that needs its own instrumentation.
enum class variant { plain, memcheck, racecheck };
const char* variant_name(variant v);

struct paths {
  std::string include_dir;  // the emulator's public headers
  std::string cccl_dir;     // CCCL's headers (libcu++, CUB, Thrust), or "" when not installed
  std::string runtime_lib[3];  // libcuemu_runtime{,_memcheck,_racecheck}.a, by variant
  std::string boost_context;
  std::string cxx;          // host C++ compiler (CUEMU_CXX overrides)
  std::string regions_tool;  // cuemu-regions (emulator/src/regions), or "" when not built
  std::string clang_resource_dir;
  std::string gpu_fp_plugin;  // cuemu_gpu_fp.so (emulator/src/gpu_fp), or "" when not built
};
paths locate_paths();

// Each returns 0 on success, else the status to exit with (2 for a compile error).
int translate_cu(const options& o, const paths& p, variant v, const std::string& in,
                 const std::string& out, const std::string& depfile, const std::string& dep_target);
// A .cu to an object: preprocessed for the host and the device pass, translated and compiled
// once when the two are the same, else twice and joined (driver/passes.h).
int compile_cu(const options& o, const paths& p, variant v, const std::string& in,
               const std::string& out, const std::string& depfile = "", const std::string& dep_target = "");
// nvcc -E (`deps_only` false) and -M (true): the host pass's preprocessed text, or its
// dependencies in make's form with `dep_target` as the target, written to `out` ("" : stdout).
int preprocess_only(const options& o, const paths& p, variant v, const std::string& in,
                    const std::string& out, bool deps_only, const std::string& dep_target);
int compile_translated(const options& o, const paths& p, variant v, const std::string& in,
                       const std::string& out);
int compile_cpp(const options& o, const paths& p, variant v, const std::string& in,
                const std::string& out, const std::string& depfile = "");
int write_defaults_source(const options& o, const std::string& out);
int link_program(const options& o, const paths& p, variant v,
                 const std::vector<std::string>& objects, const std::string& out);

// The environment a program of this variant runs with (CUEMU_CHECK and sanitizer options).
std::vector<std::string> run_environment(const options& o, variant v);

bool has_suffix(const std::string& s, const std::string& suffix);

}  // namespace cuemu::driver
