// A kernel's calls of the user's functions that synchronise (a __syncthreads() or a warp
// collective inside a __device__ function), written out in the kernel: the region translation
// then cuts the function's body at its barriers like the kernel's own statements, where it
// would otherwise run the whole call as coroutines.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>

#include <string>
#include <vector>

#include "regions/sync_calls.h"

namespace cuemu::regions {

// Replace [from, to) of the main file's text by `text`.
struct text_edit {
  unsigned from = 0, to = 0;
  std::string text;
};

// The edits of the kernels' bodies (offsets in the main file, ascending and disjoint). A call is
// written out when it is the only such call of a statement (an expression statement, a
// declaration's initialiser, an assignment, a return in a function written out), evaluated once
// and nothing else in the statement has side effects; the function is the user's, defined before
// the kernel in its namespace, not a member, not __noinline__, not recursive, with at most one return (its last
// statement), no goto, no use of its own name (__func__, assert) and no name the kernel's own
// variables hide. Every other call stays a call. `file`: the name #line directives give the
// main file; `original`: its text as written.
std::vector<text_edit> inline_sync_calls(clang::ASTContext& ctx, sync_calls& calls,
                                         const std::vector<const clang::FunctionDecl*>& kernels,
                                         const std::string& file, const std::string& original);

}  // namespace cuemu::regions
