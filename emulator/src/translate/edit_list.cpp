#include "translate/edit_list.h"

#include <algorithm>

namespace cuemu::translate {

void edit_list::replace(std::size_t begin, std::size_t end, std::string text) {
  edits_.push_back({begin, end, std::move(text), edits_.size()});
}

std::string edit_list::apply(std::string_view src, std::vector<std::size_t>& rejected) const {
  std::vector<const edit*> order;
  for (const edit& e : edits_) order.push_back(&e);
  // By offset; at one offset insertions come before a replacement starting there.
  std::stable_sort(order.begin(), order.end(), [](const edit* a, const edit* b) {
    if (a->begin != b->begin) return a->begin < b->begin;
    return (a->end > a->begin) < (b->end > b->begin);
  });
  std::string out;
  out.reserve(src.size() + src.size() / 8);
  std::size_t pos = 0;  // everything before pos is already written
  for (const edit* e : order) {
    const auto newlines = [](std::string_view s) { return std::count(s.begin(), s.end(), '\n'); };
    const std::string_view replaced = src.substr(e->begin, e->end - e->begin);
    const auto missing = newlines(replaced) - newlines(e->text);
    if (e->begin < pos || missing < 0) {
      rejected.push_back(e->begin);
      continue;
    }
    out.append(src.substr(pos, e->begin - pos));
    out.append(e->text);
    out.append(static_cast<std::size_t>(missing), '\n');
    pos = e->end;
  }
  out.append(src.substr(pos));
  return out;
}

}  // namespace cuemu::translate
