// The toolkit's host link (bin/cuemu-host-link, a link to cuemu): the host compiler's link
// command line with the emulator's runtime in place of CUDA's. nvcc's link step runs it, and it
// is the link launcher CMake reads from `nvcc -v` (CMAKE_CUDA_HOST_LINK_LAUNCHER), so CMake's
// own link of a CUDA target runs it too. Every argument goes to the host compiler unchanged,
// except CUDA's runtime libraries (-lcudart, -lcudart_static, -lcudadevrt, -lculibos, or a
// libcudart path): they become the runtime of the checking mode in CUEMU_CHECK (plain,
// memcheck or racecheck), with that mode recorded as the program's default. A shared library
// (-shared) gets no runtime: the program that loads it has the one runtime of the process.
#pragma once

namespace cuemu::driver {

int host_link_main(int argc, char** argv);

// True for a library argument that names CUDA's runtime (replaced by the emulator's).
bool is_cuda_runtime_library(const char* arg);

}  // namespace cuemu::driver
