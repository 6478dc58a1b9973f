// What a function can do that matters to the region translation, found on clang's AST: reach
// __syncthreads() directly, reach another synchronisation point (a warp collective, a barrier
// with a result, grid sync, a device-side launch), or poll memory (a spin-wait candidate).
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Stmt.h>

#include <map>
#include <string>

namespace cuemu::regions {

struct sync_summary {
  bool barrier = false;        // calls __syncthreads() (or a whole warp's __syncwarp()) itself
  bool shuffle = false;        // calls a whole warp's __shfl*_sync() itself
  unsigned points = 0;         // calls of either written in the body (found where resolved)
  // Reaches a barrier of the whole block (__syncthreads and its variants, a thread block's sync,
  // grid sync), itself or through a function it calls.
  bool block_barrier = false;
  bool barrier_below = false;  // a function it calls does either
  bool polls = false;          // reaches a poll (atomics, fences, clock reads, volatile reads)
  bool polls_in_loop = false;  // ... inside a loop: it may spin until another thread writes
  // Calls a function that depends on its template parameters (known per instantiation only).
  bool dependent = false;
  unsigned dependent_line = 0;
  // Reads threadIdx, itself or through a function it calls (the emulator's out-of-line entry
  // points find the running thread without it), or calls what depends on template parameters.
  bool thread_index = false;
  // Computes with floating-point values (or with what depends on template parameters), itself or
  // through a function it calls. A kernel that does not may have its loops over threads
  // vectorised: the GPU's contractions and NaNs concern floating-point arithmetic only.
  bool floating = false;
  std::string forbidden;       // why the region path cannot take it ("" if it can)
  unsigned forbidden_line = 0;
};

// Summaries of functions, memoised over one translation unit.
class sync_calls {
 public:
  explicit sync_calls(clang::ASTContext& ctx) : ctx_(ctx) {}
  // The summary of a function's body (the kernel itself, or anything it calls).
  const sync_summary& of(const clang::FunctionDecl* fn);
  // The summary of one statement of a kernel (loop_depth: loops around it in the kernel).
  sync_summary of_stmt(const clang::Stmt* s, unsigned loop_depth);
  // A call to CUDA's __syncthreads(), or to __syncwarp() of the whole warp (the emulator's, in
  // the global namespace): a point every thread of the block reaches together in the region form.
  static bool is_barrier_call(const clang::Stmt* s);
  // A __shfl_sync/__shfl_up_sync/__shfl_down_sync/__shfl_xor_sync, __ballot_sync, __any_sync,
  // __all_sync or __reduce_*_sync of the whole warp, or a __syncthreads_count/_and/_or: its
  // operation's name in the runtime ("shfl_idx", ..., "ballot", "reduce_add_u", ..., "count",
  // "and_", "or_"), else nullptr.
  static const char* shuffle_op(const clang::Stmt* s);
  // cooperative_groups::thread_block's size(), num_threads(), dim_threads(), group_dim() or
  // group_index(): the block's shape, the same in every thread.
  static bool is_block_shape_call(const clang::CallExpr* call);
  // The N of a call to a member of cooperative_groups::thread_block_tile<N> with N <= 32 (a
  // tile of a warp or less), else 0.
  static unsigned tile_width(const clang::CallExpr* call);
  // Whether a function is the emulator's or the system's (declared in their headers, or a
  // compiler builtin): what it does is known. Else it is the user's (from another file, when it
  // has no body here, and then nothing is known).
  bool known_elsewhere(const clang::FunctionDecl* fn);

 private:
  friend class summary_walker;
  clang::ASTContext& ctx_;
  std::string emulator_dir_;  // the directory of the emulator's device_launch_parameters.h
  bool emulator_dir_found_ = false;
  std::map<const clang::FunctionDecl*, sync_summary> done_;
  std::map<const clang::FunctionDecl*, bool> active_;
};

}  // namespace cuemu::regions
