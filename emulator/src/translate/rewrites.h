// The individual rewrites, each in its own file; rewriter.cpp walks the tokens and calls them.
#pragma once

#include <cstddef>

#include "translate/context.h"

namespace cuemu::translate {

// `<<` at i directly followed by `<`: rewrites the launch. Returns the index of the `>>` that
// ends the configuration (the scan continues there), or i on error.
std::size_t rewrite_launch(context& cx, std::size_t i);

// __cuemu_shared__ at i. `namespace_scope`: not inside any function or class body.
// `block_objects`: options::shared_as_block_objects. Returns the index to continue scanning from.
std::size_t rewrite_shared(context& cx, std::size_t i, bool namespace_scope, bool block_objects);

// __cuemu_global__ at i: removes the marker, adds the host-call prologue to a definition and a
// registrar after non-template definitions and explicit instantiations.
void rewrite_kernel(context& cx, std::size_t i);

}  // namespace cuemu::translate
