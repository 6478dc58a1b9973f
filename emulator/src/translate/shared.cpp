// __shared__ variables. CUDA gives every block one instance; the emulator runs a block on one
// worker thread at a time, so a thread_local per worker is one instance per running block.
//   extern __shared__ T name[];  (dynamic shared memory)
//     function scope:  T* const name = reinterpret_cast<T*>(::cuemu::detail::dynamic_shared_memory());
//   extern __shared__ T name[][N]...;  -> T (* const name)[N]... = reinterpret_cast<T (*)[N]...>(...);
//     namespace scope: static thread_local T* const name = reinterpret_cast<...>(...);
//                      plus a worker_tls_init that initialises it on each worker
//   any other __shared__ -> static thread_local (just thread_local after a `static`)
// With options::shared_as_block_objects (--check=memcheck/racecheck) every other __shared__
// declarator becomes a reference to this block's own heap object instead:
//   [static] __shared__ <specifiers> <ptr-ops> NAME B, ...;
//     -> <specifiers> <ptr-ops>(&NAME)B = ::cuemu::detail::block_shared<<specifiers> <ptr-ops> B>([] {}); ...
//   where B (array bounds) is not empty, and without them (g++ -Wall warns about `T (&x)`)
//     -> <specifiers> <ptr-ops>&NAME = ::cuemu::detail::block_shared<<specifiers> <ptr-ops>>([] {}); ...
//   (`static` and attributes dropped; one declaration per declarator, all on the first line).
//   At namespace scope that is an error: a namespace-scope reference cannot be re-bound per
//   block, and a thread_local would not give each block its own allocation.
// An initializer on a (non-extern) __shared__ variable is an error in both modes, as in CUDA.
#include <string>

#include "translate/declarator.h"
#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

constexpr const char* extern_form =
    "extern __shared__ must declare an unsized array: 'extern __shared__ T name[];' (or "
    "'T name[][N]')";

std::size_t rewrite_extern_shared(context& cx, std::size_t start, std::size_t marker, std::size_t end,
                                  bool namespace_scope) {
  std::vector<std::size_t> kept;  // the declaration without extern, the marker and attributes
  for (std::size_t j = start; j < end;) {
    const std::size_t after = cx.skip_attribute(j);
    if (after != j) {
      j = after;
      continue;
    }
    if (j != marker && !cx.is(j, "extern")) kept.push_back(j);
    ++j;
  }
  const std::size_t n = kept.size();
  // NAME [] followed by any number of sized bounds: the first `[` at the top level.
  std::size_t open = npos;
  {
    int d = 0;
    for (std::size_t k = 0; k < n && open == npos; ++k) {
      const std::size_t j = kept[k];
      if (d == 0 && cx.is(j, "[")) open = k;
      if (cx.is(j, "(") || cx.is(j, "<") || cx.is(j, "[")) ++d;
      if (cx.is(j, ")") || cx.is(j, ">") || cx.is(j, "]")) --d;
      if (cx.is(j, ">>")) d -= 2;
    }
  }
  bool shape = open != npos && open >= 2 && open + 1 < n && cx.is(kept[open + 1], "]") &&
               kept[open + 1] == kept[open] + 1 && cx.is_name(kept[open - 1]);
  // The further bounds: `[ ... ]` groups up to the end.
  for (std::size_t k = open + 2; shape && k < n;) {
    if (!cx.is(kept[k], "[") || cx.match[kept[k]] == npos) {
      shape = false;
      break;
    }
    const std::size_t close = cx.match[kept[k]];
    while (k < n && kept[k] != close) ++k;
    if (k == n || (kept[k - 1] == kept[k] - 1 && cx.is(kept[k - 1], "["))) shape = false;  // `[]`
    ++k;
  }
  if (!shape) {
    cx.error(marker, extern_form);
    return end + 1;
  }
  // The type must be a plain type: no second declarator, initializer or array bound at its top
  // level, no parenthesised declarator.
  int depth = 0;
  for (std::size_t k = 0; k + 1 < open; ++k) {
    const std::size_t j = kept[k];
    const bool bad = cx.is(j, "=") || cx.is(j, "static") ||
                     (depth == 0 && (cx.is(j, ",") || cx.is(j, "["))) ||
                     ((cx.is(j, "(") || cx.is(j, "<")) && !cx.is_ident(j - 1));
    if (bad) {
      cx.error(marker, extern_form);
      return end + 1;
    }
    if (cx.is(j, "(") || cx.is(j, "<") || cx.is(j, "[")) ++depth;
    if (cx.is(j, ")") || cx.is(j, ">") || cx.is(j, "]")) --depth;
    if (cx.is(j, ">>")) depth -= 2;
  }
  const std::size_t b = cx.toks[start].offset, e = cx.toks[end].end();
  if (cx.pragma_within(b, e)) {
    cx.error(marker, "an extern __shared__ declaration split by a #pragma cannot be rewritten");
    return end + 1;
  }
  const std::string type = cx.join(std::vector<std::size_t>(kept.begin(), kept.begin() + (open - 1)));
  const std::string name(cx.toks[kept[open - 1]].text);
  // `extern __shared__ T name[][N];`: a pointer to arrays of N.
  const std::string bounds = cx.join(std::vector<std::size_t>(kept.begin() + (open + 2), kept.end()));
  std::string text = namespace_scope ? "static thread_local " : "";
  if (bounds.empty())
    text += type + "* const " + name + " = reinterpret_cast<" + type +
            "*>(::cuemu::detail::dynamic_shared_memory());";
  else
    text += type + " (* const " + name + ")" + bounds + " = reinterpret_cast<" + type + " (*)" +
            bounds + ">(::cuemu::detail::dynamic_shared_memory());";
  if (namespace_scope) {
    // The thread_local pointer is initialised lazily, by its first reader; the runtime runs this
    // initialisation on each worker before a block's CUDA threads start, so that it is not done
    // by (and, under racecheck, not seen as a race between) CUDA threads.
    text += " static const ::cuemu::detail::worker_tls_init __cuemu_tls_" + std::to_string(b) +
            "([]() -> const void* { return " + name + "; });";
  }
  cx.blank(start, end, std::move(text));  // line markers inside stay on their lines
  return end + 1;
}

// One declarator of a non-extern __shared__ declaration: <ptr-ops> NAME <bounds>.
struct shared_declarator {
  std::vector<std::size_t> ptr_ops;  // `*`, `&`, cv-qualifiers before the name
  std::size_t name = npos;
  std::vector<std::size_t> bounds;   // the tokens of all `[...]` after the name
};

struct shared_declaration {
  bool ok = false;                   // parsed completely, without an initializer
  std::size_t initializer = npos;    // the `=`, `{` or `(` of an initializer
  bool defines_type = false;         // `struct S { ... } x;`: the type cannot be repeated
  std::size_t type_key = npos;       // then: its `struct`/`union`/`class`/`enum`
  std::size_t type_end = npos;       // and the index after its `}`
  std::vector<std::size_t> specifiers;  // without the marker, `static` and attributes
  std::vector<shared_declarator> declarators;
};

bool is_cv(const context& cx, std::size_t i) {
  return cx.is(i, "const") || cx.is(i, "volatile") || cx.is(i, "__restrict") ||
         cx.is(i, "__restrict__") || cx.is(i, "restrict");
}

// Parses tokens [start, end) of `[static] __shared__ <decl-specifiers> <declarator>, ...`
// (the marker, `static` and attributes may sit anywhere and are left out). Stops at the first
// initializer.
shared_declaration parse_shared(const context& cx, std::size_t start, std::size_t marker, std::size_t end) {
  shared_declaration d;
  auto skip = [&](std::size_t j) {
    while (j < end) {
      if (j == marker || cx.is(j, "static")) {
        ++j;
      } else if (cx.skip_attribute(j) != j) {
        j = cx.skip_attribute(j);
      } else {
        break;
      }
    }
    return j;
  };
  auto take = [&](std::vector<std::size_t>& out, std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) out.push_back(k);
  };
  // decl-specifier-seq
  bool have_type = false;
  std::size_t j = skip(start);
  while (j < end) {
    if (is_cv(cx, j) || cx.is(j, "register")) {
      if (is_cv(cx, j)) d.specifiers.push_back(j);
      ++j;
    } else if (is_builtin_type(cx, j)) {
      have_type = true;
      d.specifiers.push_back(j++);
    } else if (!have_type && (cx.is(j, "struct") || cx.is(j, "class") || cx.is(j, "union") ||
                              cx.is(j, "enum") || cx.is(j, "typename"))) {
      std::size_t e = skip_qualified_name(cx, j + 1, end);
      if (!cx.is(j, "typename") && cx.is(e, "{") && cx.match[e] != npos && cx.match[e] < end) {
        d.defines_type = true;
        d.type_key = j;
        e = cx.match[e] + 1;
        d.type_end = e;
      } else if (e == j + 1) {
        return d;
      }
      take(d.specifiers, j, e);
      j = e;
      have_type = true;
    } else if (!have_type &&
               (cx.is(j, "decltype") || cx.is(j, "__typeof__") || cx.is(j, "typeof") || cx.is(j, "__typeof")) &&
               cx.is(j + 1, "(") && cx.match[j + 1] != npos && cx.match[j + 1] < end) {
      take(d.specifiers, j, cx.match[j + 1] + 1);
      j = cx.match[j + 1] + 1;
      have_type = true;
    } else if (!have_type && (cx.is_name(j) || cx.is(j, "::"))) {
      const std::size_t e = skip_qualified_name(cx, j, end);
      if (e == j || cx.is(e - 1, "::")) return d;
      take(d.specifiers, j, e);
      j = e;
      have_type = true;
    } else {
      break;
    }
    j = skip(j);
  }
  if (!have_type) return d;
  // declarators
  while (true) {
    shared_declarator decl;
    for (j = skip(j); j < end && (cx.is(j, "*") || cx.is(j, "&") || cx.is(j, "&&") || is_cv(cx, j));
         j = skip(j + 1))
      decl.ptr_ops.push_back(j);
    if (!cx.is_name(j) || j >= end) return d;
    decl.name = j;
    for (j = skip(j + 1); j < end && cx.is(j, "[") && cx.match[j] != npos && cx.match[j] < end;
         j = skip(cx.match[j] + 1)) {
      if (cx.match[j] == j + 1) return d;  // `[]`: only extern __shared__ may be unsized
      take(decl.bounds, j, cx.match[j] + 1);
    }
    d.declarators.push_back(std::move(decl));
    if (j < end && (cx.is(j, "=") || cx.is(j, "{") || cx.is(j, "("))) {
      d.initializer = j;
      return d;
    }
    if (j == end) break;
    if (!cx.is(j, ",")) return d;
    ++j;
  }
  d.ok = true;
  return d;
}

constexpr const char* initializer_error =
    "a __shared__ variable cannot have an initializer (CUDA does not allow one); assign it in the kernel";

// options::shared_as_block_objects: the whole declaration [start, end] becomes one reference
// per declarator, bound to this block's instance.
std::size_t rewrite_shared_as_block_objects(context& cx, std::size_t start, std::size_t marker,
                                            bool namespace_scope) {
  const std::size_t end = cx.declaration_end(marker);
  if (end == npos) {
    cx.error(marker, "__shared__ declaration without a terminating ';'");
    return marker + 1;
  }
  const shared_declaration d = parse_shared(cx, start, marker, end);
  if (d.initializer != npos) {
    cx.error(marker, initializer_error);
    return end + 1;
  }
  if (namespace_scope) {
    cx.error(marker,
             "namespace-scope __shared__ variables are not supported under --check=memcheck/racecheck; "
             "declare it inside the kernel");
    return end + 1;
  }
  if (!d.ok) {
    cx.error(marker,
             "this __shared__ declaration cannot be rewritten for --check=memcheck/racecheck; "
             "expected '__shared__ T name[N]...;' (declare the type separately)");
    return end + 1;
  }
  // `__shared__ union [N] { ... } x;`: the type is defined first (named if it had no name), then
  // the declarators name it.
  std::string type_definition;
  std::vector<std::size_t> specifiers = d.specifiers;
  std::string type_name;
  if (d.defines_type) {
    std::size_t brace = d.type_key + 1;
    while (brace < d.type_end && !cx.is(brace, "{")) ++brace;
    const bool named = brace > d.type_key + 1 && cx.is_name(brace - 1);
    type_name = named ? std::string(cx.toks[brace - 1].text) : "__cuemu_shared_type_" + std::to_string(cx.toks[marker].offset);
    type_definition = std::string(cx.toks[d.type_key].text) + " " + type_name + " " + cx.join(brace, d.type_end) + ";";
    specifiers.clear();
    for (std::size_t k : d.specifiers)
      if (k < d.type_key || k >= d.type_end) specifiers.push_back(k);
  }
  const std::size_t b = cx.toks[start].offset, e = cx.toks[end].end();
  if (cx.pragma_within(b, e)) {
    cx.error(marker, "a __shared__ declaration split by a #pragma cannot be rewritten");
    return end + 1;
  }
  std::string spec = cx.join(specifiers);
  if (!type_name.empty()) spec += (spec.empty() ? "" : " ") + type_name;
  std::string text = type_definition;
  for (const shared_declarator& decl : d.declarators) {
    const std::string ptr = cx.join(decl.ptr_ops), bounds = cx.join(decl.bounds);
    std::string type = spec;
    if (!ptr.empty()) type += " " + ptr;
    if (!bounds.empty()) type += " " + bounds;
    // `T (&name)[N]`, but `T &name` without bounds: g++ -Wall warns about `T (&name)`.
    const std::string name(cx.toks[decl.name].text);
    if (!text.empty()) text += ' ';
    text += spec + " " + ptr;
    if (!ptr.empty() && cx.is_ident(decl.ptr_ops.back())) text += ' ';
    text += bounds.empty() ? "&" + name : "(&" + name + ")" + bounds;
    text += " = ::cuemu::detail::block_shared<" + type + ">([] {});";
  }
  cx.blank(start, end, std::move(text));  // line markers inside stay on their lines
  return end + 1;
}

}  // namespace

std::size_t rewrite_shared(context& cx, std::size_t marker, bool namespace_scope, bool block_objects) {
  const std::size_t start = cx.declaration_start(marker);
  bool is_extern = false, is_static = false;
  for (std::size_t j = start; j < marker; ++j) {
    is_extern |= cx.is(j, "extern");
    is_static |= cx.is(j, "static");
  }
  // Specifiers may also follow the marker (`__shared__ static int x;`): up to the declarator.
  for (std::size_t j = marker + 1; j < cx.size(); ++j) {
    if (cx.skip_attribute(j) != j) {
      j = cx.skip_attribute(j) - 1;
      continue;
    }
    if (cx.is(j, ";") || cx.is(j, "=") || cx.is(j, "[") || cx.is(j, "(") || cx.is(j, "{") ||
        cx.is(j, ",") || cx.is(j, "}"))
      break;
    is_extern |= cx.is(j, "extern");
    is_static |= cx.is(j, "static");
  }
  if (is_extern) {
    const std::size_t end = cx.declaration_end(marker);
    if (end == npos) {
      cx.error(marker, "extern __shared__ declaration without a terminating ';'");
      return marker + 1;
    }
    return rewrite_extern_shared(cx, start, marker, end, namespace_scope);
  }
  if (block_objects) return rewrite_shared_as_block_objects(cx, start, marker, namespace_scope);
  // Default mode: only an initializer is checked (when the declaration parses that far).
  const std::size_t end = cx.declaration_end(marker);
  if (end != npos) {
    const shared_declaration d = parse_shared(cx, start, marker, end);
    if (d.initializer != npos) {
      cx.error(marker, initializer_error);
      return end + 1;
    }
  }
  const token& t = cx.toks[marker];
  std::string storage = is_static ? "thread_local" : "static thread_local";
  // `__shared__ alignas(16) float x[...]` (nvcc takes __shared__ for an attribute): the
  // alignment specifier goes first, where C++ allows it before the storage class.
  if (cx.is(marker + 1, "alignas") && cx.is(marker + 2, "(") && cx.match[marker + 2] != npos) {
    const std::size_t close = cx.match[marker + 2];
    const token& a = cx.toks[marker + 1];
    storage = std::string(cx.src.substr(a.offset, cx.toks[close].end() - a.offset)) + " " + storage;
    cx.edits.replace(a.offset, cx.toks[close].end(), "");
  }
  cx.edits.replace(t.offset, t.end(), storage);
  return marker + 1;
}

}  // namespace cuemu::translate
