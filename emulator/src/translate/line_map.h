// Maps a physical line of the preprocessed text back to the user's file:line through the line
// markers g++ -E writes (`# 12 "file.cu" 1 3`, or `#line 12 "file.cu"`), so that every error the
// translator reports points at the user's source.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cuemu::translate {

struct source_location {
  std::string file;
  int line = 0;
};

class line_map {
 public:
  explicit line_map(std::string_view default_file) : default_file_(default_file) {}

  // `text` is a whole directive; returns false (and records nothing) if it is not a line marker.
  // `physical_line` is the directive's own line in the preprocessed text.
  bool add_directive(std::string_view text, int physical_line);

  source_location locate(int physical_line) const;
  // The line comes from a system header (its marker carries g++'s flag 3).
  bool in_system_header(int physical_line) const;

 private:
  struct marker {
    int physical_line;  // the marker's line; the next line is user_line
    int user_line;
    std::string file;
    bool system = false;
  };
  std::string default_file_;
  std::vector<marker> markers_;  // in increasing physical_line order
  const marker* find(int physical_line) const;
};

}  // namespace cuemu::translate
