// The individual rewrites, each in its own file; rewriter.cpp walks the tokens and calls them.
#pragma once

#include <cstddef>

#include "translate/context.h"
#include "translate/rewriter.h"

namespace cuemu::translate {

// `<<` at i directly followed by `<`: rewrites the launch. Returns the index of the `>>` that
// ends the configuration (the scan continues there), or i on error.
std::size_t rewrite_launch(context& cx, std::size_t i);

// __cuemu_shared__ at i. `namespace_scope`: not inside any function or class body.
// `block_objects`: options::shared_as_block_objects. Returns the index to continue scanning from.
std::size_t rewrite_shared(context& cx, std::size_t i, bool namespace_scope, bool block_objects);

// Where a construct sits: inside no function or class body, inside an anonymous namespace.
struct scope_info {
  bool namespace_scope = false;
  bool anonymous = false;
};

// __cuemu_global__ at i: removes the marker, adds the host-call prologue to a definition and a
// registrar after non-template definitions and explicit instantiations (in a host pass: leaves
// the declaration only). Returns the index to continue scanning from.
std::size_t rewrite_kernel(context& cx, std::size_t i, const scope_info& scope, const options& opts);

// __cuemu_host__, __cuemu_device__, __cuemu_constant__ or __cuemu_managed__ at i: removes the
// markers of the declaration and, in a two-pass build, applies the pass's rule (rewriter.h).
// Returns the index to continue scanning from.
std::size_t rewrite_space(context& cx, std::size_t i, const scope_info& scope, const options& opts);

// The assembler name given to an internal-linkage kernel or device variable named by token
// `name` in a two-pass build; `key` tells apart entities of one name in one file (a variable's
// line; a kernel's parameter types, the same in its declarations and its definition).
std::string unit_symbol(const context& cx, std::size_t name, const options& opts, const std::string& key);

// `asm`/`__asm__`/`__asm` at i: an inline PTX statement is rewritten (the few instructions with
// a CPU meaning) or reported; other asm is left alone. `namespace_scope`: not inside any function
// or class body. Returns the index to continue scanning from (the asm's `)`, or i).
std::size_t rewrite_asm(context& cx, std::size_t i, bool namespace_scope);

}  // namespace cuemu::translate
