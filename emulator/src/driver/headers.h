// Every CUDA header a program includes comes from the emulator: a CUDA toolkit's own headers
// (in a default include directory such as /usr/local/include, or named by -I) hold inline PTX
// and compiler builtins that cannot run here, so including one is an error naming the header
// and the line that includes it, never a silent fall-through to the toolkit.
#pragma once

#include <string>
#include <vector>

namespace cuemu::driver {

// The errors for `text` (g++ -E output with line markers): one per place where a file outside
// any toolkit includes a toolkit's header. `own_include_dir`: the emulator's headers.
std::vector<std::string> toolkit_header_errors(const std::string& text, const std::string& own_include_dir);

// The same for a dependency list (the files of a -MD file), without the including line.
std::vector<std::string> toolkit_dependency_errors(const std::string& depfile_text, const std::string& source,
                                                   const std::string& own_include_dir);

// g++'s messages with each "fatal error: H: No such file or directory" for a CUDA header name H
// (cuda/..., thrust/..., curand_kernel.h, ...) preceded by cuemu's own line saying it does not
// provide H.
std::string explain_missing_headers(const std::string& compiler_messages);

}  // namespace cuemu::driver
