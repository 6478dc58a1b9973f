// State shared by the rewrites of one translation unit: the significant tokens (directives
// left out), bracket matches, the line map, the edits being collected and the errors found,
// plus the small syntax helpers every rewrite uses.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "translate/edit_list.h"
#include "translate/line_map.h"
#include "translate/rewriter.h"
#include "translate/tokenizer.h"

namespace cuemu::translate {

inline constexpr std::size_t npos = static_cast<std::size_t>(-1);

struct context {
  context(std::string_view source, std::string_view file_name);

  std::string_view src;
  std::vector<token> toks;                   // significant tokens only
  std::vector<std::size_t> directive_offsets;  // offsets of directives (sorted)
  std::vector<std::size_t> match;            // matching ( [ { ) ] } index, or npos
  line_map lines;
  edit_list edits;
  std::vector<diagnostic> errors;
  int registrar_counter = 0;
  std::vector<std::string> declared;         // names a rewrite has declared once already

  std::size_t size() const { return toks.size(); }
  bool is(std::size_t i, std::string_view s) const { return i < toks.size() && toks[i].text == s; }
  bool is_ident(std::size_t i) const {
    return i < toks.size() && toks[i].kind == token_kind::identifier;
  }
  // An identifier that is not a C++ (or GNU, or marker) keyword.
  bool is_name(std::size_t i) const;
  // Two tokens with nothing, not even a space, between them (`<<` `<` is a launch).
  bool adjacent(std::size_t a, std::size_t b) const { return toks[a].end() == toks[b].offset; }
  // A directive (line marker, #pragma) lies inside [begin, end).
  bool directive_within(std::size_t begin, std::size_t end) const;
  // A directive other than a line marker (`# 12 "f.h" 3`, `#line 12`) lies inside [begin, end).
  bool pragma_within(std::size_t begin, std::size_t end) const;

  void error(std::size_t tok, std::string message);
  void error_at_line(int physical_line, std::string message);

  // Tokens [first, last) as text: one space wherever the source had anything between two
  // tokens, nothing otherwise; `skip` (an index, or npos) is left out.
  std::string join(std::size_t first, std::size_t last, std::size_t skip = npos) const;
  std::string join(const std::vector<std::size_t>& indices) const;

  // `<` at i: index of the `>` (or `>>`, which closes two) that closes it, skipping ( [ {
  // groups; npos if none before `;`, `{`, `}` or the end.
  std::size_t angle_close(std::size_t i) const;
  // `>` or `>>` at i: index of the `<` that opens the group it closes; npos if none.
  std::size_t angle_open(std::size_t i) const;
  // An attribute at i (`__attribute__((..))`, `__declspec(..)`, `alignas(..)`, `[[..]]`):
  // the index after it; else i.
  std::size_t skip_attribute(std::size_t i) const;
  // First token of the declaration containing index i: after the previous `;`, `{`, `}` or
  // directive.
  std::size_t declaration_start(std::size_t i) const;
  // The `;` ending the declaration that contains index i (groups skipped), or npos.
  std::size_t declaration_end(std::size_t i) const;
  // The file a token comes from, as its line marker names it.
  std::string file_of(std::size_t tok) const;
  // Removes tokens [first, last] (and what lies between them, #pragmas included) except line
  // markers, which stay on their lines; `text` takes the place of the first token.
  void blank(std::size_t first, std::size_t last, std::string text = "");
};

}  // namespace cuemu::translate
