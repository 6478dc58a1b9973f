// Spelling of threads, masks and source sites in the executor's reports.
#pragma once

#include <cstdio>
#include <string>

#include <cuemu/sync_functions.h>
#include <vector_types.h>

namespace cuemu::detail {

inline std::string hex(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

inline std::string site(source_location w) {
  return std::string(w.file ? w.file : "<unknown>") + ":" + std::to_string(w.line);
}

inline std::string triple(uint3 t) {
  return "(" + std::to_string(t.x) + "," + std::to_string(t.y) + "," + std::to_string(t.z) + ")";
}

inline const char* barrier_name(barrier_op op) {
  static const char* names[] = {"__syncthreads", "__syncthreads_count", "__syncthreads_and",
                                "__syncthreads_or", "this_grid().sync()"};
  return names[static_cast<int>(op)];
}

[[noreturn, gnu::cold, gnu::noinline]] void called_off_device(const char* what);

}  // namespace cuemu::detail
