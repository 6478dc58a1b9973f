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

// nvcc compiles a .cu twice: a device pass (`__CUDA_ARCH__` defined) and a host pass. The driver
// does the same when the two preprocessed texts differ, and links the two objects with the
// device object's own symbols renamed apart (driver/passes.cpp), except kernels and device
// variables, which the host pass only declares:
//   host pass:   a __global__ function's body and a __device__ (not __host__) function's body are
//                left out (nvcc's host compiler never sees them either); a namespace-scope
//                __device__/__constant__/__managed__ variable becomes an extern declaration;
//                explicit instantiations of kernels are left to the device pass;
//   device pass: everything, as a single pass.
// Kernels and device variables with internal linkage (`static`) get an assembler name unique to
// the translation unit (options::unit) in both passes, so that the host pass can still name them.
enum class pass { single, host, device };

struct options {
  pass compile_pass = pass::single;
  // Names this translation unit in the assembler names of its internal-linkage kernels and
  // device variables (two-pass builds only).
  std::string unit;
  // Markers in files under this directory (the emulator's own headers) are only removed.
  std::string runtime_include_dir;

  // Lower every non-extern __shared__ variable to a reference to a per-block heap object
  // (`T (&name)[N] = ::cuemu::detail::block_shared<T [N]>([] {});`,
  // `T &name = ::cuemu::detail::block_shared<T>([] {});`) instead of a
  // `static thread_local` per worker thread: --check=memcheck/racecheck need each block's
  // variables to be separate allocations. Namespace-scope __shared__ variables are an error in
  // this mode (a namespace-scope reference cannot be re-bound per block).
  bool shared_as_block_objects = false;

  // Contract a multiply and a dependent add into a fused multiply-add in kernels, as nvcc does by
  // default (-fmad=true): every kernel definition gets g++'s per-function option
  // fp-contract=fast (kernel_fp_attribute), and the unit is compiled with FMA instructions and
  // -ffp-contract=off, so host code keeps one rounding per operation as on a CPU. Code inlined
  // into a kernel (device functions, lambdas, the emulator's headers) is contracted with it.
  bool contract_fp = false;

  // Give kernels and device-only functions the GPU's NaN results (the attribute cuemu_gpu_fp of
  // the g++ plugin emulator/src/gpu_fp, which the unit is then compiled with).
  bool gpu_fp = false;
};

// The attribute that makes g++ contract a kernel's arithmetic (options::contract_fp); expensive
// optimisations: the pass that forms fused multiply-adds runs only with them (-O2, or a checking
// build's -O1 with this).
inline constexpr const char* kernel_fp_attribute = "optimize(\"fp-contract=fast\", \"expensive-optimizations\", \"no-tree-vectorize\")";
// A kernel that cuemu-regions found without floating-point arithmetic (`__cuemu_vectorise` after
// its `__cuemu_regions(OK)`): its loops over threads may be vectorised, which changes no integer
// result (g++ keeps the loop's order of effects) and contracts nothing.
inline constexpr const char* kernel_vector_attribute = "optimize(\"fp-contract=fast\", \"expensive-optimizations\", \"tree-vectorize\")";

// `preprocessed`: g++ -E output with line markers. `file_name`: used for errors before the
// first marker. When `errors` is not empty the text must not be compiled: the constructs named
// in the errors were left as they were.
result rewrite(std::string_view preprocessed, std::string_view file_name, const options& opts);
// The same with options{}.
result rewrite(std::string_view preprocessed, std::string_view file_name);

}  // namespace cuemu::translate
