#include "translate/tokenizer.h"

#include <array>
#include <string>

namespace cuemu::translate {
namespace {

bool is_ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(unsigned char c) { return is_ident_start(c) || is_digit(c); }

// Longest match first: 3-character punctuators, then 2, then 1.
constexpr std::array<std::string_view, 5> punct3 = {"...", "<=>", "<<=", ">>=", "->*"};
constexpr std::array<std::string_view, 22> punct2 = {
    "::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&",
    "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*"};
constexpr std::string_view punct1 = "{}[]()<>;:,.?~!+-*/%^&|=#@";

bool is_string_prefix(std::string_view id) {
  return id == "u8" || id == "u" || id == "U" || id == "L";
}
bool is_raw_prefix(std::string_view id) {
  return id == "R" || id == "u8R" || id == "uR" || id == "UR" || id == "LR";
}

class lexer {
 public:
  explicit lexer(std::string_view s) : src_(s) {}

  std::vector<token> run() {
    while (pos_ < src_.size()) step();
    return std::move(out_);
  }

 private:
  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
  bool at_line_start_ = true;  // only whitespace since the last newline: `#` starts a directive
  std::vector<token> out_;

  char at(std::size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  // Moves pos_ to `to`, counting the newlines passed over.
  void advance_to(std::size_t to) {
    for (; pos_ < to; ++pos_)
      if (src_[pos_] == '\n') ++line_;
  }

  void emit(token_kind kind, std::size_t begin) {
    token t;
    t.kind = kind;
    t.offset = begin;
    t.text = src_.substr(begin, pos_ - begin);
    out_.push_back(t);
  }

  void step() {
    const char c = src_[pos_];
    if (c == '\n') {
      ++line_;
      ++pos_;
      at_line_start_ = true;
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos_;
      return;
    }
    if (c == '\\' && (at(pos_ + 1) == '\n' || (at(pos_ + 1) == '\r' && at(pos_ + 2) == '\n'))) {
      advance_to(pos_ + (at(pos_ + 1) == '\n' ? 2 : 3));  // line splice
      return;
    }
    if (c == '/' && at(pos_ + 1) == '/') {  // comments survive only in unpreprocessed input
      while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      return;
    }
    if (c == '/' && at(pos_ + 1) == '*') {
      const std::size_t close = src_.find("*/", pos_ + 2);
      advance_to(close == std::string_view::npos ? src_.size() : close + 2);
      return;
    }
    const int start_line = line_;
    const std::size_t begin = pos_;
    if (c == '#' && at_line_start_) {
      lex_directive();
      emit(token_kind::directive, begin);
      out_.back().line = start_line;
      return;
    }
    at_line_start_ = false;
    const token_kind kind = lex_token();
    emit(kind, begin);
    out_.back().line = start_line;
  }

  // A directive runs to the end of its line, backslash continuations included.
  void lex_directive() {
    while (pos_ < src_.size() && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && at(pos_ + 1) == '\n') {
        advance_to(pos_ + 2);
        continue;
      }
      ++pos_;
    }
  }

  token_kind lex_token() {
    const unsigned char c = static_cast<unsigned char>(src_[pos_]);
    if (is_ident_start(c)) {
      const std::size_t begin = pos_;
      while (pos_ < src_.size() && is_ident_char(static_cast<unsigned char>(src_[pos_]))) ++pos_;
      const std::string_view id = src_.substr(begin, pos_ - begin);
      const char next = at(pos_);
      if (next == '"' && is_raw_prefix(id) && lex_raw_string()) return token_kind::string_literal;
      if (next == '"' && is_string_prefix(id)) {
        lex_quoted('"');
        return token_kind::string_literal;
      }
      if (next == '\'' && is_string_prefix(id)) {
        lex_quoted('\'');
        return token_kind::char_literal;
      }
      return token_kind::identifier;
    }
    if (is_digit(c) || (c == '.' && is_digit(static_cast<unsigned char>(at(pos_ + 1))))) {
      lex_number();
      return token_kind::number;
    }
    if (c == '"') {
      lex_quoted('"');
      return token_kind::string_literal;
    }
    if (c == '\'') {
      lex_quoted('\'');
      return token_kind::char_literal;
    }
    const std::string_view rest = src_.substr(pos_);
    for (std::string_view p : punct3)
      if (rest.substr(0, 3) == p) {
        pos_ += 3;
        return token_kind::punctuator;
      }
    for (std::string_view p : punct2)
      if (rest.substr(0, 2) == p) {
        pos_ += 2;
        return token_kind::punctuator;
      }
    ++pos_;
    return punct1.find(static_cast<char>(c)) != std::string_view::npos ? token_kind::punctuator
                                                                       : token_kind::other;
  }

  // pp-number: digits, letters, `_`, `.`, exponent signs after e/E/p/P, digit separators.
  void lex_number() {
    ++pos_;
    while (pos_ < src_.size()) {
      const char d = src_[pos_];
      if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') && (at(pos_ + 1) == '+' || at(pos_ + 1) == '-'))
        pos_ += 2;
      else if (d == '\'' && is_ident_char(static_cast<unsigned char>(at(pos_ + 1))))
        pos_ += 2;
      else if (is_ident_char(static_cast<unsigned char>(d)) || d == '.')
        ++pos_;
      else
        break;
    }
  }

  void lex_ud_suffix() {
    if (pos_ < src_.size() && is_ident_start(static_cast<unsigned char>(src_[pos_])))
      while (pos_ < src_.size() && is_ident_char(static_cast<unsigned char>(src_[pos_]))) ++pos_;
  }

  // "..." or '...' with escapes; stops at an unescaped newline (unterminated literal).
  void lex_quoted(char quote) {
    ++pos_;
    while (pos_ < src_.size() && src_[pos_] != quote && src_[pos_] != '\n') {
      if (src_[pos_] == '\\' && pos_ + 1 < src_.size()) advance_to(pos_ + 2);
      else ++pos_;
    }
    if (at(pos_) == quote) ++pos_;
    lex_ud_suffix();
  }

  // R"delim( ... )delim" starting at the quote. False (nothing consumed) when the delimiter is
  // malformed; the prefix is then an ordinary identifier.
  bool lex_raw_string() {
    const std::size_t open = src_.find('(', pos_ + 1);
    if (open == std::string_view::npos || open - pos_ - 1 > 16) return false;
    const std::string_view delim = src_.substr(pos_ + 1, open - pos_ - 1);
    if (delim.find_first_of(" \t\n\\)\"") != std::string_view::npos) return false;
    const std::string closing = ")" + std::string(delim) + "\"";
    const std::size_t close = src_.find(closing, open + 1);
    advance_to(close == std::string_view::npos ? src_.size() : close + closing.size());
    lex_ud_suffix();
    return true;
  }
};

}  // namespace

std::vector<token> tokenize(std::string_view src) { return lexer(src).run(); }

}  // namespace cuemu::translate
