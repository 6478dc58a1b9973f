// The tokenizer: every token kind, longest-match punctuators, `<<<`/`>>>` as two tokens each,
// literals that contain `<<<`, directives, and line/offset bookkeeping.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "translate/tokenizer.h"

namespace cuemu::translate {
namespace {

std::vector<std::string> texts(std::string_view src) {
  std::vector<std::string> out;
  for (const token& t : tokenize(src)) out.emplace_back(t.text);
  return out;
}

using V = std::vector<std::string>;

TEST(Tokenizer, IdentifiersAndNumbers) {
  EXPECT_EQ(texts("abc _x1 $y 1'000 0x1p-3f 1e+5 .5f 0x1.8P+2L 12ull 1.e-3"),
            (V{"abc", "_x1", "$y", "1'000", "0x1p-3f", "1e+5", ".5f", "0x1.8P+2L", "12ull", "1.e-3"}));
  const auto toks = tokenize("a 1'000");
  EXPECT_EQ(toks[0].kind, token_kind::identifier);
  EXPECT_EQ(toks[1].kind, token_kind::number);
}

TEST(Tokenizer, StringAndCharLiteralsWithPrefixes) {
  const auto toks = tokenize(R"(u8"a" u"b" U"c" L"d\"e" 'x' L'y' u8'z' '\'' "abc"_s u8 x)");
  EXPECT_EQ(texts(R"(u8"a" u"b" U"c" L"d\"e" 'x' L'y' u8'z' '\'' "abc"_s u8 x)"),
            (V{"u8\"a\"", "u\"b\"", "U\"c\"", "L\"d\\\"e\"", "'x'", "L'y'", "u8'z'", "'\\''", "\"abc\"_s",
               "u8", "x"}));
  EXPECT_EQ(toks[0].kind, token_kind::string_literal);
  EXPECT_EQ(toks[4].kind, token_kind::char_literal);
  EXPECT_EQ(toks[9].kind, token_kind::identifier);
}

TEST(Tokenizer, RawStrings) {
  EXPECT_EQ(texts("R\"x(a)\"b)x\" LR\"(q)\" u8R\"--(k<<<1,1>>>())--\" R x"),
            (V{"R\"x(a)\"b)x\"", "LR\"(q)\"", "u8R\"--(k<<<1,1>>>())--\"", "R", "x"}));
}

TEST(Tokenizer, LongestMatchPunctuators) {
  EXPECT_EQ(texts("a<<=b>>=c->*d...e<=>f::g##h.*i"),
            (V{"a", "<<=", "b", ">>=", "c", "->*", "d", "...", "e", "<=>", "f", "::", "g", "##", "h", ".*", "i"}));
  EXPECT_EQ(texts("{}[]()<>;:,.?~!+-*/%^& | =@ ++ -- && || != == <= >= += -= *= /= %= &= |= ^= ->"),
            (V{"{", "}", "[", "]", "(", ")", "<", ">", ";", ":", ",", ".", "?", "~", "!", "+", "-", "*",
               "/", "%", "^", "&", "|", "=", "@", "++", "--", "&&", "||", "!=", "==", "<=", ">=", "+=",
               "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->"}));
}

TEST(Tokenizer, LaunchBracketsAreTwoTokensEach) {
  EXPECT_EQ(texts("k<<<g, b>>>(x)"), (V{"k", "<<", "<", "g", ",", "b", ">>", ">", "(", "x", ")"}));
}

TEST(Tokenizer, LiteralsContainingLaunchesAreSingleTokens) {
  const auto toks = tokenize("s = \"k<<<1,1>>>()\"; c = '<'; r = R\"(a<<<b>>>)\";");
  ASSERT_EQ(toks.size(), 12u);
  EXPECT_EQ(toks[2].text, "\"k<<<1,1>>>()\"");
  EXPECT_EQ(toks[6].text, "'<'");
  EXPECT_EQ(toks[10].text, "R\"(a<<<b>>>)\"");
}

TEST(Tokenizer, DirectivesOnlyAtLineStart) {
  const auto toks = tokenize("# 12 \"f.cu\" 1 3\n  #pragma unroll 4\nint x; a # b\n#line 7 \"g.cu\"");
  ASSERT_EQ(toks.size(), 9u);
  EXPECT_EQ(toks[0].kind, token_kind::directive);
  EXPECT_EQ(toks[0].text, "# 12 \"f.cu\" 1 3");
  EXPECT_EQ(toks[1].kind, token_kind::directive);
  EXPECT_EQ(toks[1].text, "#pragma unroll 4");
  EXPECT_EQ(toks[1].line, 2);
  EXPECT_EQ(toks[6].text, "#");
  EXPECT_EQ(toks[6].kind, token_kind::punctuator);
  EXPECT_EQ(toks[8].kind, token_kind::directive);
  EXPECT_EQ(toks[8].line, 4);
}

TEST(Tokenizer, CommentsAreSkipped) {
  EXPECT_EQ(texts("a // k<<<1,1>>>()\nb /* x<<<\n */ c"), (V{"a", "b", "c"}));
}

TEST(Tokenizer, LinesAndOffsets) {
  const std::string src = "a\n  bb /* \n\n */ c R\"(\n\n)\" d\n\"s\"";
  const auto toks = tokenize(src);
  ASSERT_EQ(toks.size(), 6u);
  EXPECT_EQ(toks[0].line, 1);
  EXPECT_EQ(toks[1].line, 2);
  EXPECT_EQ(toks[1].offset, 4u);
  EXPECT_EQ(toks[2].line, 4);  // after a comment spanning two newlines
  EXPECT_EQ(toks[3].line, 4);  // the raw string starts on line 4 ...
  EXPECT_EQ(toks[4].line, 6);  // ... and ends on line 6
  EXPECT_EQ(toks[5].line, 7);
  for (const token& t : toks) EXPECT_EQ(src.substr(t.offset, t.text.size()), t.text);
}

TEST(Tokenizer, UnterminatedLiteralStopsAtNewline) {
  EXPECT_EQ(texts("\"abc\nd"), (V{"\"abc", "d"}));
}

}  // namespace
}  // namespace cuemu::translate
