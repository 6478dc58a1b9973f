// Programs whose standard output was recorded on an H200: PROGRAMS_DIR/<name>.cu is run by
// `cuemu run <options>` and compared with EXPECTED_DIR/<name>.txt (the progress and streams
// tests). Each case is a program and the options of one run.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "run_cuemu.h"

inline std::string program(const char* file) { return std::string(PROGRAMS_DIR) + "/" + file; }
inline std::string expected(const char* name) {
  return read_text_file(std::string(EXPECTED_DIR) + "/" + name + std::string(".txt"));
}

// The program's standard output only.
inline cuemu_result run_stdout(const std::string& options, const char* name) {
  // run_cuemu appends "2>&1" to the command line: here to the `exit`, after stderr went away.
  return run_cuemu("run " + options + " " + program((std::string(name) + ".cu").c_str()) +
                   " 2>/dev/null; exit $?");
}

struct recorded_case {
  const char* name;
  const char* options;  // options of `cuemu run`
};

// "<name>" or "<name><options, non-alphanumerics as _>".
inline std::string recorded_case_name(const ::testing::TestParamInfo<recorded_case>& info) {
  std::string n = info.param.name;
  std::string o = info.param.options;
  if (o.empty()) return n;
  for (char& ch : o)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n + o;
}
