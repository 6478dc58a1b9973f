#include "translate/context.h"

#include <algorithm>
#include <unordered_set>

namespace cuemu::translate {
namespace {

const std::unordered_set<std::string_view>& keywords() {
  static const std::unordered_set<std::string_view> k = {
      "alignas", "alignof", "asm", "auto", "bool", "break", "case", "catch", "char", "char8_t",
      "char16_t", "char32_t", "class", "co_await", "co_return", "co_yield", "concept", "const",
      "consteval", "constexpr", "constinit", "const_cast", "continue", "decltype", "default",
      "delete", "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern",
      "false", "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable",
      "namespace", "new", "noexcept", "nullptr", "operator", "private", "protected", "public",
      "register", "reinterpret_cast", "requires", "return", "short", "signed", "sizeof",
      "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
      "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while",
      // GNU spellings and the emulator's markers
      "__attribute__", "__attribute", "__declspec", "__restrict", "__restrict__", "__extension__",
      "__typeof__", "__typeof", "typeof", "__inline", "__inline__", "__asm__", "__asm",
      "__int128", "__cuemu_global__", "__cuemu_shared__", "__cuemu_host__", "__cuemu_device__",
      "__cuemu_constant__", "__cuemu_managed__", "__noinline__", "_Float16", "__fp16",
      "__bf16"};
  return k;
}

}  // namespace

context::context(std::string_view source, std::string_view file_name)
    : src(source), lines(file_name) {
  std::vector<std::size_t> stack;
  for (const token& t : tokenize(source)) {
    if (t.kind == token_kind::directive) {
      directive_offsets.push_back(t.offset);
      lines.add_directive(t.text, t.line);
      continue;
    }
    const std::size_t i = toks.size();
    toks.push_back(t);
    match.push_back(npos);
    if (t.kind != token_kind::punctuator) continue;
    if (t.is("(") || t.is("[") || t.is("{")) {
      stack.push_back(i);
    } else if (t.is(")") || t.is("]") || t.is("}")) {
      const char open = t.is(")") ? '(' : t.is("]") ? '[' : '{';
      // An unmatched closer leaves the stack alone; its opener stays unmatched too.
      if (!stack.empty() && toks[stack.back()].text[0] == open) {
        match[i] = stack.back();
        match[stack.back()] = i;
        stack.pop_back();
      }
    }
  }
}

bool context::is_name(std::size_t i) const {
  return is_ident(i) && !keywords().count(toks[i].text);
}

bool context::directive_within(std::size_t begin, std::size_t end) const {
  auto it = std::lower_bound(directive_offsets.begin(), directive_offsets.end(), begin);
  return it != directive_offsets.end() && *it < end;
}

bool context::pragma_within(std::size_t begin, std::size_t end) const {
  for (auto it = std::lower_bound(directive_offsets.begin(), directive_offsets.end(), begin);
       it != directive_offsets.end() && *it < end; ++it) {
    std::size_t k = *it + 1;
    while (k < src.size() && (src[k] == ' ' || src[k] == '\t')) ++k;
    const bool marker = k < src.size() && ((src[k] >= '0' && src[k] <= '9') || src.compare(k, 4, "line") == 0);
    if (!marker) return true;
  }
  return false;
}

void context::error(std::size_t tok, std::string message) {
  error_at_line(tok < toks.size() ? toks[tok].line : (toks.empty() ? 1 : toks.back().line),
                std::move(message));
}

void context::error_at_line(int physical_line, std::string message) {
  source_location loc = lines.locate(physical_line);
  errors.push_back({std::move(loc.file), loc.line, std::move(message)});
}

std::string context::join(std::size_t first, std::size_t last, std::size_t skip) const {
  std::vector<std::size_t> idx;
  for (std::size_t i = first; i < last; ++i)
    if (i != skip) idx.push_back(i);
  return join(idx);
}

std::string context::join(const std::vector<std::size_t>& indices) const {
  std::string out;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    if (k > 0 && toks[indices[k - 1]].end() != toks[indices[k]].offset) out += ' ';
    out += toks[indices[k]].text;
  }
  return out;
}

std::size_t context::angle_close(std::size_t i) const {
  int depth = 0;
  for (std::size_t j = i; j < toks.size(); ++j) {
    const token& t = toks[j];
    if (t.is("(") || t.is("[")) {
      if (match[j] == npos) return npos;
      j = match[j];
    } else if (t.is("<")) {
      ++depth;
    } else if (t.is(">") || t.is(">>")) {
      depth -= t.is(">") ? 1 : 2;
      if (depth <= 0) return depth == 0 || t.is(">>") ? j : npos;
    } else if (t.is(";") || t.is("{") || t.is("}") || t.is(")") || t.is("]")) {
      return npos;
    }
  }
  return npos;
}

std::size_t context::angle_open(std::size_t i) const {
  int depth = 0;
  for (std::size_t j = i + 1; j-- > 0;) {
    const token& t = toks[j];
    if (t.is(")") || t.is("]")) {
      if (match[j] == npos) return npos;
      j = match[j];
    } else if (t.is(">") || t.is(">>")) {
      depth += t.is(">") ? 1 : 2;
    } else if (t.is("<")) {
      if (--depth == 0) return j;
    } else if (t.is(";") || t.is("{") || t.is("}") || t.is("(") || t.is("[")) {
      return npos;
    }
  }
  return npos;
}

std::size_t context::skip_attribute(std::size_t i) const {
  if (i >= toks.size()) return i;
  const std::string_view t = toks[i].text;
  if ((t == "__attribute__" || t == "__attribute" || t == "__declspec" || t == "alignas") &&
      is(i + 1, "(") && match[i + 1] != npos)
    return match[i + 1] + 1;
  if (t == "[" && is(i + 1, "[") && match[i] != npos) return match[i] + 1;
  return i;
}

std::size_t context::declaration_start(std::size_t i) const {
  std::size_t s = i;
  while (s > 0 && !is(s - 1, ";") && !is(s - 1, "{") && !is(s - 1, "}") &&
         !pragma_within(toks[s - 1].end(), toks[s].offset))
    --s;
  return s;
}

std::size_t context::declaration_end(std::size_t i) const {
  for (std::size_t j = i; j < toks.size(); ++j) {
    if (is(j, ";")) return j;
    if ((is(j, "(") || is(j, "[") || is(j, "{")) && match[j] != npos) j = match[j];
    else if (is(j, "}") || is(j, ")") || is(j, "]")) return npos;
  }
  return npos;
}

std::string context::file_of(std::size_t tok) const {
  return lines.locate(tok < toks.size() ? toks[tok].line : 1).file;
}

void context::blank(std::size_t first, std::size_t last, std::string text) {
  std::size_t at = toks[first].offset;
  const std::size_t end = toks[last].end();
  auto d = std::lower_bound(directive_offsets.begin(), directive_offsets.end(), at);
  for (; d != directive_offsets.end() && *d < end; ++d) {
    if (pragma_within(*d, *d + 1)) continue;  // a #pragma goes with the text around it
    edits.replace(at, *d, std::move(text));
    text.clear();
    const std::size_t nl = src.find('\n', *d);
    at = nl == std::string_view::npos ? src.size() : nl;
  }
  if (at < end || !text.empty()) edits.replace(at, std::max(at, end), std::move(text));
}

}  // namespace cuemu::translate
