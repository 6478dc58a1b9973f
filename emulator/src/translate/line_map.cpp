#include "translate/line_map.h"

#include <algorithm>

namespace cuemu::translate {
namespace {

void skip_blanks(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

}  // namespace

bool line_map::add_directive(std::string_view text, int physical_line) {
  std::size_t i = 1;  // past '#'
  skip_blanks(text, i);
  if (text.substr(i, 4) == "line" && i + 4 < text.size() && (text[i + 4] == ' ' || text[i + 4] == '\t')) {
    i += 4;
    skip_blanks(text, i);
  }
  if (i >= text.size() || text[i] < '0' || text[i] > '9') return false;
  long n = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    n = n * 10 + (text[i] - '0');
    if (n > 2000000000) return false;  // no compiler writes such a line number: not a marker
  }
  skip_blanks(text, i);
  std::string file = markers_.empty() ? default_file_ : markers_.back().file;
  if (i < text.size() && text[i] == '"') {
    file.clear();
    for (++i; i < text.size() && text[i] != '"'; ++i) {
      if (text[i] == '\\' && i + 1 < text.size()) ++i;  // g++ escapes '\' and '"'
      file += text[i];
    }
    if (i < text.size()) ++i;  // the closing quote
  }
  // g++'s flags follow the file name: 1 enter, 2 return, 3 system header, 4 extern "C".
  bool system = false;
  while (i < text.size()) {
    skip_blanks(text, i);
    if (text.substr(i, 1) == "3" && (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\t'))
      system = true;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
  }
  markers_.push_back({physical_line, static_cast<int>(n), std::move(file), system});
  return true;
}

const line_map::marker* line_map::find(int physical_line) const {
  auto it = std::upper_bound(markers_.begin(), markers_.end(), physical_line,
                             [](int l, const marker& m) { return l <= m.physical_line; });
  return it == markers_.begin() ? nullptr : &*(it - 1);
}

source_location line_map::locate(int physical_line) const {
  const marker* m = find(physical_line);
  if (!m) return {default_file_, physical_line};
  return {m->file, m->user_line + (physical_line - m->physical_line - 1)};
}

bool line_map::in_system_header(int physical_line) const {
  const marker* m = find(physical_line);
  return m && m->system;
}

}  // namespace cuemu::translate
