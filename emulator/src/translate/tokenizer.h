// Tokenizer for preprocessed CUDA C++ (g++ -E output). It splits the text into the tokens the
// rewriter needs to recognise CUDA's extra syntax; whitespace and comments are not tokens, but
// every token keeps its byte offset so the rewriter can copy everything it does not change
// byte for byte. `<<<` and `>>>` are not tokens (C++ has none): a launch is `<<` directly
// followed by `<`, its end `>>` directly followed by `>`.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace cuemu::translate {

enum class token_kind {
  identifier,      // also keywords and the __cuemu_*__ markers
  number,          // a pp-number: 1'000, 0x1p-3f, 1e+5, .5f
  string_literal,  // with any encoding prefix, raw strings and user-defined suffixes included
  char_literal,
  punctuator,      // longest match among C++'s punctuators
  directive,       // a whole `# ...` line (line marker, #pragma), without its newline
  other,           // any other single byte (e.g. a stray backslash)
};

struct token {
  token_kind kind = token_kind::other;
  std::string_view text;   // a view into the tokenized source
  std::size_t offset = 0;  // byte offset of text in the source
  int line = 1;            // 1-based physical line of the first byte in the source

  std::size_t end() const { return offset + text.size(); }
  bool is(std::string_view s) const { return text == s; }
};

// Tokens of `src` in order. Never fails: malformed input (an unterminated string, a stray byte)
// still yields tokens, and the rewriter reports what it cannot handle.
std::vector<token> tokenize(std::string_view src);

}  // namespace cuemu::translate
