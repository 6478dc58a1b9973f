// One kernel cut at its barriers into regions, each region a loop over the block's threads
// (cuemu/regions.h), or the reason it keeps a coroutine per thread.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <string>
#include <utility>
#include <vector>

#include "regions/sync_calls.h"

namespace cuemu::regions {

struct kernel_result {
  std::string name;
  unsigned line = 0;
  bool regions = false;  // the region form was written
  std::string why;       // else why not (or "no barrier")
  std::string code;      // the region form, inserted after the body's '{'
  unsigned bounded = 0;  // regions that are one `if (threadIdx.x < L)`, run below the bound
  // Block-level statements run as coroutines (region_block::fibers): (line, why).
  std::vector<std::pair<unsigned, std::string>> fibers;
  // Calls of functions that synchronise written out in it (regions/inline_calls.h).
  unsigned written_out = 0;
};

// `file`: the name #line directives give (the user's spelling of the .cu); `original`: its text
// as written (clang parses it with the launch configurations `<<<...>>>` blanked).
kernel_result translate_kernel(clang::ASTContext& ctx, sync_calls& calls,
                               const clang::FunctionDecl* kernel, const std::string& file,
                               const std::string& original);

}  // namespace cuemu::regions
