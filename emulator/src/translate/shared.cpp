// __shared__ variables. CUDA gives every block one instance; the emulator runs a block on one
// worker thread at a time, so a thread_local per worker is one instance per running block.
//   extern __shared__ T name[];  (dynamic shared memory)
//     function scope:  T* const name = reinterpret_cast<T*>(::cuemu::detail::dynamic_shared_memory());
//     namespace scope: static thread_local T* const name = reinterpret_cast<...>(...);
//   any other __shared__ -> static thread_local (just thread_local after a `static`)
#include <string>

#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

// First token of the declaration containing index i: after the previous `;`, `{`, `}` or
// directive.
std::size_t declaration_start(const context& cx, std::size_t i) {
  std::size_t s = i;
  while (s > 0 && !cx.is(s - 1, ";") && !cx.is(s - 1, "{") && !cx.is(s - 1, "}") &&
         !cx.directive_within(cx.toks[s - 1].end(), cx.toks[s].offset))
    --s;
  return s;
}

// The `;` ending the declaration that contains index i (groups skipped), or npos.
std::size_t declaration_end(const context& cx, std::size_t i) {
  for (std::size_t j = i; j < cx.size(); ++j) {
    if (cx.is(j, ";")) return j;
    if ((cx.is(j, "(") || cx.is(j, "[") || cx.is(j, "{")) && cx.match[j] != npos) j = cx.match[j];
    else if (cx.is(j, "}") || cx.is(j, ")") || cx.is(j, "]")) return npos;
  }
  return npos;
}

constexpr const char* extern_form = "extern __shared__ must declare an unsized array: 'extern __shared__ T name[];'";

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
  const bool shape = n >= 4 && cx.is(kept[n - 1], "]") && cx.is(kept[n - 2], "[") &&
                     kept[n - 1] == kept[n - 2] + 1 && cx.is_name(kept[n - 3]);
  if (!shape) {
    cx.error(marker, extern_form);
    return end + 1;
  }
  // The type must be a plain type: no second declarator, initializer or array bound at its top
  // level, no parenthesised declarator.
  int depth = 0;
  for (std::size_t k = 0; k + 3 < n; ++k) {
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
  if (cx.directive_within(b, e)) {
    cx.error(marker, "an extern __shared__ declaration split by a line marker cannot be rewritten");
    return end + 1;
  }
  const std::string type = cx.join(std::vector<std::size_t>(kept.begin(), kept.end() - 3));
  const std::string name(cx.toks[kept[n - 3]].text);
  std::string text = namespace_scope ? "static thread_local " : "";
  text += type + "* const " + name + " = reinterpret_cast<" + type +
          "*>(::cuemu::detail::dynamic_shared_memory());";
  cx.edits.replace(b, e, std::move(text));
  return end + 1;
}

}  // namespace

std::size_t rewrite_shared(context& cx, std::size_t marker, bool namespace_scope) {
  const std::size_t start = declaration_start(cx, marker);
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
    const std::size_t end = declaration_end(cx, marker);
    if (end == npos) {
      cx.error(marker, "extern __shared__ declaration without a terminating ';'");
      return marker + 1;
    }
    return rewrite_extern_shared(cx, start, marker, end, namespace_scope);
  }
  const token& t = cx.toks[marker];
  cx.edits.replace(t.offset, t.end(), is_static ? "thread_local" : "static thread_local");
  return marker + 1;
}

}  // namespace cuemu::translate
