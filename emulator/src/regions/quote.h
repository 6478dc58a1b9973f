// A C string literal of `s` (for #line directives and the file names in region forms).
#pragma once

#include <string>

namespace cuemu::regions {

inline std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace cuemu::regions
