// The rewriter's output is the input with a list of edits applied: insertions and replacements
// of byte ranges. Everything outside the edits is copied byte for byte. A replacement never
// changes the number of lines: the newlines of the replaced range that its text lacks are
// appended after it, so output line N is still input line N from the next line on.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cuemu::translate {

class edit_list {
 public:
  void insert(std::size_t at, std::string text) { replace(at, at, std::move(text)); }
  void replace(std::size_t begin, std::size_t end, std::string text);

  // Applies the edits. Edits that overlap an earlier one, or would add lines, are not applied;
  // their offsets are appended to `rejected`.
  std::string apply(std::string_view src, std::vector<std::size_t>& rejected) const;

 private:
  struct edit {
    std::size_t begin, end;
    std::string text;
    std::size_t seq;  // insertion order, keeps insertions at one offset in the order made
  };
  std::vector<edit> edits_;
};

}  // namespace cuemu::translate
