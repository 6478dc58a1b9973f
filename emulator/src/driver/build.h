// Building a program from a command line's inputs: each input to an object in a work directory,
// then one link; shared by `cuemu run`/`cc` and the toolkit's nvcc (driver/nvcc.h).
#pragma once

#include <string>
#include <vector>

#include "driver/options.h"
#include "driver/toolchain.h"

namespace cuemu::driver {

std::string base_name(const std::string& path);

// -ccbin: a compiler, or the directory it is in, instead of the host compiler the build found.
void use_host_compiler(const options& o, paths& p);

// A new private directory under $TMPDIR (or /tmp); exits with status 2 if it cannot be made.
std::string make_work_dir();
// Removes a directory and what is in it (no links followed).
void remove_tree(const std::string& path);

// The language of input i: -x before it, else its suffix.
bool is_cuda_input(const options& o, std::size_t i);

// Compiles input i into an object in `dir`; objects, archives and shared libraries pass through.
int build_object(const options& o, const paths& p, variant v, std::size_t i, const std::string& dir,
                 std::string& object);
// Every input built, the recorded defaults (driver/toolchain.h) added, linked into `program`.
int build_program(const options& o, const paths& p, variant v, const std::string& dir,
                  const std::string& program);
// -c: each input to its object (-o, or the input's name with .o beside the working directory).
int compile_only(const options& o, const paths& p, variant v);

}  // namespace cuemu::driver
