// The CUDA -> C++ translator: rewrites preprocessed CUDA C++ (g++ -E output, line markers kept,
// __global__/__shared__ spelled as the markers __cuemu_global__/__cuemu_shared__) into plain C++
// that calls the hooks of emulator/include/cuemu/launch.h. Output line N is input line N.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuemu::translate {

struct diagnostic {
  std::string file;
  int line = 0;
  std::string message;
};

struct result {
  std::string text;
  std::vector<diagnostic> errors;
};

// `preprocessed`: g++ -E output with line markers. `file_name`: used for errors before the
// first marker. When `errors` is not empty the text must not be compiled: the constructs named
// in the errors were left as they were.
result rewrite(std::string_view preprocessed, std::string_view file_name);

}  // namespace cuemu::translate
