// Just enough of C++'s declaration grammar to find the names in a kernel's template parameter
// list and function parameter list, and where to inject a name for an unnamed one.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "translate/context.h"

namespace cuemu::translate {

struct parameter {
  std::size_t first = 0, last = 0;  // tokens [first, last) without the default argument
  std::size_t name = npos;          // index of the declarator name; npos if unnamed
  std::size_t insert_at = 0;        // byte offset where a name would go when unnamed
  bool pack = false;                // `...` before the name
  bool function_pointer = false;    // a parenthesised declarator: `void (*f)(int)`
  bool restrict_pointer = false;    // `T* __restrict p`: top-level __restrict on the declarator
  bool ok = true;                   // false: could not be parsed
};

// A builtin type keyword (`int`, `unsigned`, `float`, `auto`, `__int128`, ...) at i.
bool is_builtin_type(const context& cx, std::size_t i);

// A (possibly qualified) name starting at i: [::] id [<...>] {:: [template] id [<...>]}, not
// past `last`. Returns the index after it (i if there is none).
std::size_t skip_qualified_name(const context& cx, std::size_t i, std::size_t last);

// Splits tokens [first, last) at top-level commas (outside ( [ { and, when `angles`, < >).
std::vector<std::pair<std::size_t, std::size_t>> split_commas(const context& cx, std::size_t first,
                                                               std::size_t last, bool angles);

// One template parameter: `typename T`, `class... Ts`, `int N = 3`, `template<class> class TT`.
parameter parse_template_parameter(const context& cx, std::size_t first, std::size_t last);

// One function parameter: `const float* __restrict a`, `int a[10]`, `void (*f)(int)`, `Ts... xs`.
parameter parse_function_parameter(const context& cx, std::size_t first, std::size_t last);

}  // namespace cuemu::translate
