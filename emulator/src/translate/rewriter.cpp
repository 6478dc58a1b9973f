// One forward pass over the tokens. It tracks which braces open namespace-like scopes (so an
// `extern __shared__` knows whether it is at namespace scope) and which tokens sit inside
// `__attribute__((...))` (where __noinline__ must stay), and hands each CUDA construct (and each
// inline asm statement, which may be PTX) to its rewrite.
#include "translate/rewriter.h"

#include <algorithm>

#include "translate/context.h"
#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

enum class scope_kind { other, named_namespace, anonymous_namespace };

// `{` at i opens a namespace-like scope: `namespace [a::b] [attrs] {`, `inline namespace X {`,
// `extern "C" {`, `extern "C++" {`; `namespace {` is anonymous.
scope_kind opened_scope(const context& cx, std::size_t i) {
  if (i >= 2 && cx.toks[i - 1].kind == token_kind::string_literal && cx.is(i - 2, "extern"))
    return scope_kind::named_namespace;
  std::size_t j = i;
  bool named = false;
  while (j > 0) {
    const std::size_t p = j - 1;
    if (cx.is(p, "namespace")) return named ? scope_kind::named_namespace : scope_kind::anonymous_namespace;
    if (cx.is_name(p) || cx.is(p, "::")) {
      named = true;
      j = p;
    } else if (cx.is(p, ")") && cx.match[p] != npos && cx.match[p] > 0 &&
               cx.skip_attribute(cx.match[p] - 1) == p + 1) {
      j = cx.match[p] - 1;  // __attribute__((...)) on the namespace
    } else {
      return scope_kind::other;
    }
  }
  return scope_kind::other;
}

// Tokens from i (a qualified class name) reach the class's `{` or base clause `:` before a `;`.
bool defines_class(const context& cx, std::size_t i) {
  for (std::size_t j = i; j < cx.size(); ++j) {
    if (cx.is(j, "<")) {
      const std::size_t c = cx.angle_close(j);
      if (c == npos) return false;
      j = c;
    } else if (cx.is(j, "{") || cx.is(j, ":")) {
      return true;
    } else if (!cx.is(j, "::") && !cx.is_ident(j) && cx.skip_attribute(j) == j) {
      return false;
    }
  }
  return false;
}

}  // namespace

result rewrite(std::string_view preprocessed, std::string_view file_name) {
  return rewrite(preprocessed, file_name, options{});
}

result rewrite(std::string_view preprocessed, std::string_view file_name, const options& opts) {
  context cx(preprocessed, file_name);
  std::vector<scope_kind> scopes;  // one entry per open `{`
  const auto scope = [&] {
    scope_info s{true, false};
    for (scope_kind k : scopes) {
      s.namespace_scope &= k != scope_kind::other;
      s.anonymous |= k == scope_kind::anonymous_namespace;
    }
    return s;
  };
  std::size_t attribute_end = 0;         // tokens before this index are inside __attribute__
  std::size_t config_end = 0;            // end of the last launch's configuration
  for (std::size_t i = 0; i < cx.size(); ++i) {
    const token& t = cx.toks[i];
    if (t.kind == token_kind::punctuator) {
      if (t.is("{")) {
        scopes.push_back(opened_scope(cx, i));
      } else if (t.is("}")) {
        if (!scopes.empty()) scopes.pop_back();
      } else if (t.is("<<") && cx.is(i + 1, "<") && cx.adjacent(i, i + 1) && !cx.is(i - 1, "operator")) {
        if (i < config_end) {
          cx.error(i, "a kernel launch inside another launch's <<<...>>> configuration is not supported");
          continue;
        }
        config_end = rewrite_launch(cx, i);
      }
      continue;
    }
    if (t.kind != token_kind::identifier) continue;
    if ((t.is("class") || t.is("struct") || t.is("union")) && cx.is(i + 1, "::") && defines_class(cx, i + 1)) {
      // `struct ::ns::X<T> { ... }` (a specialization named from the global namespace): nvcc's
      // front end accepts it, g++ does not; the name means the same without the leading `::`.
      cx.edits.replace(cx.toks[i + 1].offset, cx.toks[i + 1].end(), "");
      continue;
    }
    if ((t.is("__attribute__") || t.is("__attribute")) && cx.is(i + 1, "(") && cx.match[i + 1] != npos) {
      attribute_end = std::max(attribute_end, cx.match[i + 1]);
    } else if (t.is("__noinline__")) {
      if (i >= attribute_end) cx.edits.replace(t.offset, t.end(), "__attribute__((noinline))");
    } else if (t.is("__cuemu_shared__")) {
      // Continue after the declaration, but keep tracking the braces it contains.
      const std::size_t next = rewrite_shared(cx, i, scope().namespace_scope, opts.shared_as_block_objects);
      for (std::size_t k = i + 1; k < next && k < cx.size(); ++k) {
        if (cx.is(k, "{")) scopes.push_back(scope_kind::other);
        if (cx.is(k, "}") && !scopes.empty()) scopes.pop_back();
      }
      i = next - 1;
    } else if (t.is("__cuemu_global__")) {
      // A body the host pass leaves out is skipped whole (its braces balance).
      i = rewrite_kernel(cx, i, scope(), opts) - 1;
    } else if (t.is("__cuemu_host__") || t.is("__cuemu_device__") || t.is("__cuemu_constant__") ||
               t.is("__cuemu_managed__")) {
      i = rewrite_space(cx, i, scope(), opts) - 1;
    } else if (t.is("asm") || t.is("__asm__") || t.is("__asm")) {
      i = rewrite_asm(cx, i, scope().namespace_scope);
    }
  }
  std::vector<std::size_t> rejected;
  result r;
  r.text = cx.edits.apply(preprocessed, rejected);
  for (std::size_t offset : rejected) {
    const int line = 1 + static_cast<int>(std::count(preprocessed.begin(), preprocessed.begin() + offset, '\n'));
    cx.error_at_line(line, "CUDA constructs here could not be rewritten (they overlap, or a multi-line literal would move)");
  }
  r.errors = std::move(cx.errors);
  return r;
}

}  // namespace cuemu::translate
