#include "translate/declarator.h"

#include <string_view>
#include <unordered_set>

namespace cuemu::translate {
namespace {

bool is_cv(const context& cx, std::size_t i) {
  return cx.is(i, "const") || cx.is(i, "volatile") || cx.is(i, "__restrict") ||
         cx.is(i, "__restrict__") || cx.is(i, "restrict") || cx.is(i, "register");
}

// The end of a top-level `= default` in [first, last).
std::size_t strip_default(const context& cx, std::size_t first, std::size_t last, bool angles) {
  int angle = 0;
  for (std::size_t j = first; j < last; ++j) {
    if ((cx.is(j, "(") || cx.is(j, "[") || cx.is(j, "{")) && cx.match[j] != npos && cx.match[j] < last) {
      j = cx.match[j];
    } else if (angles && cx.is(j, "<")) {
      ++angle;
    } else if (angles && (cx.is(j, ">") || cx.is(j, ">>"))) {
      angle = std::max(0, angle - (cx.is(j, ">") ? 1 : 2));
    } else if (cx.is(j, "=") && angle == 0) {
      return j;
    }
  }
  return last;
}

}  // namespace

bool is_builtin_type(const context& cx, std::size_t i) {
  static const std::unordered_set<std::string_view> k = {
      "void", "char", "char8_t", "char16_t", "char32_t", "wchar_t", "bool", "short", "int", "long",
      "signed", "unsigned", "float", "double", "auto", "__int128", "_Float16", "__fp16", "__bf16",
      "__signed__", "__unsigned__", "_Bool"};
  return cx.is_ident(i) && k.count(cx.toks[i].text);
}

// A (possibly qualified) name starting at i: [::] id [<...>] {:: [template] id [<...>]}.
std::size_t skip_qualified_name(const context& cx, std::size_t i, std::size_t last) {
  if (cx.is(i, "::")) ++i;
  while (i < last) {
    if (cx.is(i, "template")) ++i;
    if (!cx.is_ident(i)) return i;
    ++i;
    if (cx.is(i, "<")) {
      const std::size_t c = cx.angle_close(i);
      if (c == npos || c >= last) return i;
      i = c + 1;
    }
    if (!cx.is(i, "::")) return i;
    ++i;
  }
  return i;
}

std::vector<std::pair<std::size_t, std::size_t>> split_commas(const context& cx, std::size_t first,
                                                               std::size_t last, bool angles) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  std::size_t begin = first;
  int angle = 0;
  for (std::size_t j = first; j < last; ++j) {
    if ((cx.is(j, "(") || cx.is(j, "[") || cx.is(j, "{")) && cx.match[j] != npos && cx.match[j] < last) {
      j = cx.match[j];
    } else if (angles && cx.is(j, "<")) {
      ++angle;
    } else if (angles && (cx.is(j, ">") || cx.is(j, ">>"))) {
      angle = std::max(0, angle - (cx.is(j, ">") ? 1 : 2));
    } else if (cx.is(j, ",") && angle == 0) {
      out.push_back({begin, j});
      begin = j + 1;
    }
  }
  out.push_back({begin, last});
  return out;
}

parameter parse_template_parameter(const context& cx, std::size_t first, std::size_t last) {
  parameter p;
  p.first = first;
  p.last = strip_default(cx, first, last, true);
  std::size_t i = first;
  if (cx.is(i, "template") && cx.is(i + 1, "<")) {  // template template parameter
    const std::size_t c = cx.angle_close(i + 1);
    if (c == npos || c >= p.last) {
      p.ok = false;
      return p;
    }
    i = c + 1;
  }
  if (i >= p.last) {
    p.ok = false;
    return p;
  }
  for (std::size_t j = i; j < p.last; ++j) p.pack |= cx.is(j, "...");
  const std::size_t l = p.last - 1;
  // A name is the last token when something (a type or typename/class) precedes it and it is
  // not the tail of a qualified type (`std::size_t`).
  if (l > i && cx.is_name(l) && !cx.is(l - 1, "::")) p.name = l;
  p.insert_at = cx.toks[l].end();
  return p;
}

parameter parse_function_parameter(const context& cx, std::size_t first, std::size_t last) {
  parameter p;
  p.first = first;
  p.last = strip_default(cx, first, last, true);
  std::size_t i = first;
  bool have_type = false;
  // decl-specifier-seq
  while (i < p.last) {
    if (cx.skip_attribute(i) != i) {
      i = cx.skip_attribute(i);
    } else if (is_cv(cx, i)) {
      ++i;
    } else if (is_builtin_type(cx, i)) {
      have_type = true;
      ++i;
    } else if (cx.is(i, "struct") || cx.is(i, "class") || cx.is(i, "union") || cx.is(i, "enum") ||
               cx.is(i, "typename")) {
      i = skip_qualified_name(cx, i + 1, p.last);
      have_type = true;
    } else if ((cx.is(i, "decltype") || cx.is(i, "__typeof__") || cx.is(i, "typeof") ||
                cx.is(i, "__typeof")) && cx.is(i + 1, "(") && cx.match[i + 1] != npos) {
      i = cx.match[i + 1] + 1;
      have_type = true;
    } else if (!have_type && (cx.is_name(i) || cx.is(i, "::"))) {
      i = skip_qualified_name(cx, i, p.last);
      have_type = true;
    } else {
      break;
    }
  }
  if (!have_type) {
    p.ok = false;
    return p;
  }
  // ptr-operators, cv, attributes, `...`
  while (i < p.last) {
    if (cx.skip_attribute(i) != i) {
      i = cx.skip_attribute(i);
    } else if (cx.is(i, "*") || cx.is(i, "&") || cx.is(i, "&&") || is_cv(cx, i)) {
      if (cx.is(i, "*") || cx.is(i, "&") || cx.is(i, "&&")) p.restrict_pointer = false;
      if (cx.is(i, "__restrict") || cx.is(i, "__restrict__") || cx.is(i, "restrict")) p.restrict_pointer = true;
      ++i;
    } else if (cx.is(i, "...")) {
      p.pack = true;
      ++i;
    } else {
      break;
    }
  }
  if (i < p.last && cx.is(i, "(") && cx.match[i] != npos &&
      (cx.is(i + 1, "*") || cx.is(i + 1, "&") || cx.is(i + 1, "&&"))) {
    p.function_pointer = true;  // `(*name)(...)`, `(&name)[N]`: the name is inside
    for (std::size_t j = i + 1; j < cx.match[i]; ++j)
      if (cx.is_name(j) && !cx.is(j + 1, "::")) {
        p.name = j;
        break;
      }
    return p;
  }
  if (i < p.last && cx.is_name(i)) {
    p.name = i;
    ++i;
  } else {
    p.insert_at = i > first ? cx.toks[i - 1].end() : cx.toks[first].offset;
  }
  // What may follow the name: array bounds or a function's parameter list.
  for (; i < p.last; ++i) {
    if (cx.skip_attribute(i) != i) {
      i = cx.skip_attribute(i) - 1;
    } else if ((cx.is(i, "[") || cx.is(i, "(")) && cx.match[i] != npos && cx.match[i] < p.last) {
      i = cx.match[i];
    } else if (!is_cv(cx, i) && !cx.is(i, "noexcept")) {
      p.ok = false;
      return p;
    }
  }
  return p;
}

}  // namespace cuemu::translate
