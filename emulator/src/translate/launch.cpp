// callee<<<A, B[, C[, D]]>>>(args)
//   -> ((void)::cuemu::detail::push_call_configuration(A, B[, C[, D]]), callee(args))
// The callee is the postfix-expression before `<<<`; the configuration ends at the first `>>`
// directly followed by `>` outside ( [ { groups, so `n >> 5` inside it is fine.
#include <algorithm>
#include <string>

#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

bool is_control_keyword(const context& cx, std::size_t i) {
  return cx.is(i, "if") || cx.is(i, "while") || cx.is(i, "for") || cx.is(i, "switch") ||
         cx.is(i, "catch") || cx.is(i, "sizeof") || cx.is(i, "alignof") || cx.is(i, "decltype");
}

// First token of the callee ending right before index `lt`, or npos. Scans backwards with a
// small state machine over: names, `::`, `template`, `.`, `->`, template argument lists
// `<...>` (after a name), and ( ) / [ ] groups (calls, subscripts, `(*fp)`).
std::size_t find_callee(const context& cx, std::size_t lt) {
  enum class want { operand_end, after_name, after_scope, after_targs, after_group };
  want s = want::operand_end;
  std::size_t k = lt;  // first token included so far
  const auto group_open = [&](std::size_t p) -> std::size_t {
    if (cx.is(p, ")") || cx.is(p, "]")) return cx.match[p];
    if (cx.is(p, ">") || cx.is(p, ">>")) return cx.angle_open(p);
    return npos;
  };
  while (k > 0) {
    const std::size_t p = k - 1;
    const bool name = cx.is_name(p) || cx.is(p, "this");
    const bool angle = cx.is(p, ">") || cx.is(p, ">>");
    const bool paren = cx.is(p, ")") || cx.is(p, "]");
    std::size_t open = npos;
    if (s == want::operand_end || s == want::after_scope || s == want::after_group) {
      if (name) {
        k = p;
        s = want::after_name;
        continue;
      }
      if (angle && (open = group_open(p)) != npos) {
        k = open;
        s = want::after_targs;
        continue;
      }
      if (paren && s != want::after_scope && (open = group_open(p)) != npos &&
          !(open > 0 && cx.is(open, "(") && is_control_keyword(cx, open - 1))) {
        k = open;
        s = want::after_group;
        continue;
      }
      break;
    }
    if (s == want::after_name) {
      if (cx.is(p, "::")) s = want::after_scope;
      else if (cx.is(p, ".") || cx.is(p, "->")) s = want::operand_end;
      else if (!cx.is(p, "template")) break;
      k = p;
      continue;
    }
    // after_targs: a template argument list must follow a template name.
    if (cx.is_name(p)) {
      k = p;
      s = want::after_name;
      continue;
    }
    return npos;
  }
  if (s == want::operand_end || s == want::after_targs || k == lt) return npos;
  return k;
}

}  // namespace

std::size_t rewrite_launch(context& cx, std::size_t lt) {
  const std::size_t first = find_callee(cx, lt);
  if (first == npos) {
    cx.error(lt, "cannot find the kernel before '<<<' (expected a name, a template-id or a "
                 "parenthesised expression)");
    return lt;
  }
  // The configuration: top-level commas split it; `>>` `>` ends it.
  std::vector<std::pair<std::size_t, std::size_t>> args;  // [begin, end) token ranges
  std::size_t begin = lt + 2, j = lt + 2;
  for (; j < cx.size(); ++j) {
    if (cx.is(j, ">>") && cx.is(j + 1, ">") && cx.adjacent(j, j + 1)) break;
    if ((cx.is(j, "(") || cx.is(j, "[") || cx.is(j, "{")) && cx.match[j] != npos) {
      j = cx.match[j];
    } else if (cx.is(j, ",")) {
      args.push_back({begin, j});
      begin = j + 1;
    } else if (cx.is(j, ";") || cx.is(j, ")") || cx.is(j, "]") || cx.is(j, "}") ||
               cx.is(j, "(") || cx.is(j, "[") || cx.is(j, "{")) {
      j = cx.size();  // an unbalanced bracket or the end of a statement: no `>>>`
    }
  }
  if (j >= cx.size()) {
    cx.error(lt, "unclosed kernel launch: '<<<' without a matching '>>>'");
    return lt;
  }
  args.push_back({begin, j});
  const std::size_t close = j + 1;  // the `>` of `>>>`
  for (const auto& a : args)
    if (a.first == a.second) {
      cx.error(lt, "empty argument in the <<<...>>> launch configuration");
      return lt;
    }
  if (args.size() > 4) {
    cx.error(lt, "a <<<...>>> launch configuration takes 1 to 4 arguments, not " +
                     std::to_string(args.size()));
    return lt;
  }
  const std::size_t lparen = close + 1;
  if (!cx.is(lparen, "(") || cx.match[lparen] == npos) {
    cx.error(close, "expected a parenthesised argument list after '>>>'");
    return lt;
  }
  const std::size_t range_begin = cx.toks[first].offset, range_end = cx.toks[close].end();
  if (cx.pragma_within(range_begin, range_end)) {
    cx.error(lt, "a kernel launch split by a #pragma cannot be rewritten");
    return lt;
  }
  std::string text = "((void)::cuemu::detail::push_call_configuration(";
  for (std::size_t a = 0; a < args.size(); ++a) {
    if (a > 0) text += ", ";
    text += cx.join(args[a].first, args[a].second);
  }
  text += "), " + cx.join(first, lt);
  if (cx.directive_within(range_begin, range_end)) {
    // Line markers inside (g++ -E writes them around a system header's macro, e.g. NULL as the
    // stream): the rewrite keeps the range's line count and ends with the last marker, so that
    // what follows keeps its line.
    const auto last = std::prev(std::lower_bound(cx.directive_offsets.begin(),
                                                 cx.directive_offsets.end(), range_end));
    const std::size_t eol = cx.src.find('\n', *last);
    const std::string_view range = cx.src.substr(range_begin, range_end - range_begin);
    const auto newlines = std::count(range.begin(), range.end(), '\n');
    text.append(static_cast<std::size_t>(newlines - 1), '\n');
    text += cx.src.substr(*last, eol - *last);
    text += '\n';
  }
  cx.edits.replace(range_begin, range_end, std::move(text));
  cx.edits.insert(cx.toks[cx.match[lparen]].end(), ")");
  return j;
}

}  // namespace cuemu::translate
