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

struct options {
  // Lower every non-extern __shared__ variable to a reference to a per-block heap object
  // (`T (&name)[N] = ::cuemu::detail::block_shared<T [N]>([] {});`,
  // `T &name = ::cuemu::detail::block_shared<T>([] {});`) instead of a
  // `static thread_local` per worker thread: --check=memcheck/racecheck need each block's
  // variables to be separate allocations. Namespace-scope __shared__ variables are an error in
  // this mode (a namespace-scope reference cannot be re-bound per block).
  bool shared_as_block_objects = false;
};

// `preprocessed`: g++ -E output with line markers. `file_name`: used for errors before the
// first marker. When `errors` is not empty the text must not be compiled: the constructs named
// in the errors were left as they were.
result rewrite(std::string_view preprocessed, std::string_view file_name, const options& opts);
// The same with options{}.
result rewrite(std::string_view preprocessed, std::string_view file_name);

}  // namespace cuemu::translate
