// Helpers shared by the translator tests. The expected texts are spelled out in each test; these
// only name the fixed pieces of the contract with emulator/include/cuemu/launch.h.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "translate/rewriter.h"

namespace cuemu::translate::test {

// Rewrites `in` (errors before the first line marker are reported against "t.cu") and fails
// the test on any error.
inline std::string rw(std::string_view in) {
  result r = rewrite(in, "t.cu");
  for (const diagnostic& e : r.errors) ADD_FAILURE() << e.file << ":" << e.line << ": " << e.message;
  return r.text;
}

inline int count_lines(std::string_view s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

// The __cuemu_global__ marker is replaced by as many spaces (columns stay put).
inline const std::string G(16, ' ');
inline const std::string PUSH = "((void)::cuemu::detail::push_call_configuration(";
inline const std::string DSM = "(::cuemu::detail::dynamic_shared_memory());";

// The prologue of a kernel definition: cast types, the function named, the name string, the
// trailing arguments (each with a leading ", ").
inline std::string prologue(const std::string& types, const std::string& target, const std::string& name,
                            const std::string& args) {
  return "if (::cuemu::detail::is_launch_call()) { ::cuemu::detail::launch_from_stub<static_cast<void (*)(" +
         types + ")>(&" + target + ")>(\"" + name + "\", __PRETTY_FUNCTION__" + args + "); return; }";
}

inline std::string registrar(int n, const std::string& types, const std::string& name) {
  return " static const ::cuemu::detail::kernel_registrar __cuemu_kreg_" + std::to_string(n) +
         "(static_cast<void (*)(" + types + ")>(&" + name + "), \"" + name + "\");";
}

}  // namespace cuemu::translate::test
