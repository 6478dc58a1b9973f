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

// `asm`/`__asm__`/`__asm` at i: an inline PTX statement is rewritten (the few instructions with
// a CPU meaning) or reported; other asm is left alone. `namespace_scope`: not inside any function
// or class body. Returns the index to continue scanning from (the asm's `)`, or i).
std::size_t rewrite_asm(context& cx, std::size_t i, bool namespace_scope);

}  // namespace cuemu::translate
