// The toolkit's `nvcc` (bin/nvcc in the toolkit directory the build makes, a link to cuemu):
// nvcc's command line on the emulator, so that CMake, Make and CUDA_HOME-based builds work
// unchanged. It compiles (-c, -dc), links through the toolkit's host link (driver/host_link.h),
// device-links (-dlink: an empty object, device code is host code here), preprocesses (-E),
// writes dependencies (-M, -MD/-MF/-MT) and answers -v and --version the way CMake reads them.
// The checking mode comes from CUEMU_CHECK or --cuemu-check=; the emulated architecture is
// the highest -arch/-gencode listed, or --cuemu-arch=.
#pragma once

#include <string>

namespace cuemu::driver {

// The toolkit directory holding the running nvcc: `argv0`'s directory's parent (argv0 is looked
// up in PATH when it has no slash). Links are not followed past bin/.
std::string toolkit_root(const std::string& argv0);

int nvcc_main(int argc, char** argv);

}  // namespace cuemu::driver
