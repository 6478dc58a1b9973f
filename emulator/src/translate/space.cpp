// __host__, __device__, __constant__ and __managed__ (the markers __cuemu_host__, ...): CUDA's
// execution- and memory-space qualifiers. A single pass removes them. In a two-pass build
// (rewriter.h) the host pass also
//   - leaves out the body of a __device__ (not __host__) function: `__device__ int f() {..}`
//     -> `int f() ;` (kept where the host pass may need it: constexpr functions, deduced return
//     types, out-of-class member definitions `int S::f() {..}`, the emulator's own headers);
//   - turns a namespace-scope device variable into a declaration of the device pass's:
//     `__device__ int x = 1, y[4];` -> `extern int x, y[4];`
// and both passes give an internal-linkage device variable an assembler name of the unit:
//     `static __constant__ float c[4] = {..};` -> `float c[4] asm("__cuemu_..") = {..};`
#include <cstdint>
#include <string>

#include "translate/declarator.h"
#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

bool is_space_marker(const context& cx, std::size_t i) {
  return cx.is(i, "__cuemu_host__") || cx.is(i, "__cuemu_device__") || cx.is(i, "__cuemu_constant__") ||
         cx.is(i, "__cuemu_managed__");
}

enum class decl_kind { unknown, function, variable };

struct space_decl {
  bool host = false, device = false, data_only = false;  // data_only: __constant__/__managed__
  std::vector<std::size_t> markers;
  decl_kind kind = decl_kind::unknown;
  std::size_t start = 0;      // first token of the declaration
  std::size_t stop = npos;    // the token that ended the scan of the specifiers
  std::size_t name = npos;    // the declarator's name (a function's, or the first variable's)
  std::size_t lparen = npos;  // a function's parameter list
};

// Whether a function's declaration has a body (a deduction guide, `= default` and a plain
// declaration end at `;` first).
bool defines_body(const context& cx, const space_decl& d) {
  if (d.lparen == npos || cx.match[d.lparen] == npos) return false;
  for (std::size_t j = cx.match[d.lparen] + 1; j < cx.size(); ++j) {
    if (cx.is(j, "{")) return true;
    if (cx.is(j, ";")) return false;
    if ((cx.is(j, "(") || cx.is(j, "[")) && cx.match[j] != npos) j = cx.match[j];
  }
  return false;
}

void blank_marker(context& cx, std::size_t i) {
  const token& t = cx.toks[i];
  cx.edits.replace(t.offset, t.end(), std::string(t.text.size(), ' '));
}

// Scans from the first marker over the decl-specifiers to the declarator, noting every marker.
space_decl scan(const context& cx, std::size_t first) {
  space_decl d;
  d.start = cx.declaration_start(first);
  for (std::size_t j = first; j < cx.size(); ++j) {
    if (is_space_marker(cx, j)) {
      d.markers.push_back(j);
      d.host |= cx.is(j, "__cuemu_host__");
      d.device |= cx.is(j, "__cuemu_device__");
      d.data_only |= cx.is(j, "__cuemu_constant__") || cx.is(j, "__cuemu_managed__");
      continue;
    }
    if (const std::size_t a = cx.skip_attribute(j); a != j) {
      j = a - 1;
      continue;
    }
    if (cx.is(j, "operator")) {
      std::size_t k = j + 1;
      if (cx.is(k, "(") && cx.is(k + 1, ")")) k += 2;
      while (k < cx.size() && !cx.is(k, "(") && !cx.is(k, ";") && !cx.is(k, "{")) ++k;
      d.stop = k;
      if (cx.is(k, "(")) {
        d.kind = decl_kind::function;
        d.name = j;
        d.lparen = k;
      }
      return d;
    }
    const bool group_operator = cx.is(j, "decltype") || cx.is(j, "__typeof__") || cx.is(j, "__typeof") ||
                                cx.is(j, "typeof") || cx.is(j, "alignof") || cx.is(j, "sizeof") ||
                                cx.is(j, "noexcept") || cx.is(j, "__underlying_type");
    if (group_operator && cx.is(j + 1, "(") && cx.match[j + 1] != npos) {
      j = cx.match[j + 1];
      continue;
    }
    if (cx.is(j, "<") && j > first && cx.is_name(j - 1)) {
      const std::size_t c = cx.angle_close(j);
      if (c == npos) break;
      j = c;
      continue;
    }
    if (cx.is(j, "struct") || cx.is(j, "class") || cx.is(j, "union") || cx.is(j, "enum")) break;
    d.stop = j;
    if (cx.is(j, "(")) {
      if (j > first && (cx.is_name(j - 1) || cx.is(j - 1, ">") || cx.is(j - 1, ">>"))) {
        d.kind = decl_kind::function;
        d.lparen = j;
        d.name = j - 1;
        if (!cx.is_name(j - 1)) {
          const std::size_t open = cx.angle_open(j - 1);
          d.name = open != npos && open > 0 ? open - 1 : npos;
        }
      } else {
        d.kind = decl_kind::variable;  // a parenthesised declarator: `int (*fp)(int)`
      }
      return d;
    }
    if (cx.is(j, "=") || cx.is(j, ";") || cx.is(j, "[") || cx.is(j, ",")) {
      d.kind = decl_kind::variable;
      if (cx.is_name(j - 1)) d.name = j - 1;
      return d;
    }
    if (cx.is(j, "{")) {
      if (cx.is_name(j - 1)) {
        d.kind = decl_kind::variable;
        d.name = j - 1;
      }
      return d;
    }
    if (cx.is(j, "}") || cx.is(j, ")") || cx.is(j, "]") || cx.is(j, ":")) return d;
  }
  return d;
}

// After a function's parameter list: cv- and ref-qualifiers, noexcept, attributes, a trailing
// return type, a requires-clause, a constructor's member initializers; the `{` of the body, or
// npos for a declaration (or what cannot be followed). `init`: the `:` of member initializers.
std::size_t function_body(const context& cx, std::size_t rparen, std::size_t& init) {
  init = npos;
  std::size_t j = rparen + 1;
  auto skip_to_body = [&](std::size_t k) {
    for (; k < cx.size() && !cx.is(k, "{") && !cx.is(k, ";") && !cx.is(k, "=") && !cx.is(k, "}"); ++k)
      if ((cx.is(k, "(") || cx.is(k, "[")) && cx.match[k] != npos) k = cx.match[k];
    return k;
  };
  while (j < cx.size()) {
    if (const std::size_t a = cx.skip_attribute(j); a != j) {
      j = a;
    } else if (cx.is(j, "const") || cx.is(j, "volatile") || cx.is(j, "&") || cx.is(j, "&&") ||
               cx.is(j, "override") || cx.is(j, "final") || is_space_marker(cx, j)) {
      ++j;
    } else if (cx.is(j, "noexcept") || cx.is(j, "throw")) {
      ++j;
      if (cx.is(j, "(") && cx.match[j] != npos) j = cx.match[j] + 1;
    } else if (cx.is(j, "->") || cx.is(j, "requires")) {
      j = skip_to_body(j + 1);
    } else {
      break;
    }
  }
  if (cx.is(j, "{") && cx.match[j] != npos) return j;
  if (!cx.is(j, ":")) return npos;
  init = j;
  // Member initializers: NAME(...) or NAME{...}, separated by commas, then the body.
  for (++j; j < cx.size();) {
    const std::size_t after = skip_qualified_name(cx, j, cx.size());
    if (after == j || !(cx.is(after, "(") || cx.is(after, "{")) || cx.match[after] == npos) return npos;
    j = cx.match[after] + 1;
    if (cx.is(j, "...")) ++j;
    if (cx.is(j, "{") && cx.match[j] != npos) return j;
    if (!cx.is(j, ",")) return npos;
    ++j;
  }
  return npos;
}

bool any_of(const context& cx, std::size_t first, std::size_t last, std::initializer_list<const char*> words) {
  for (std::size_t j = first; j < last && j < cx.size(); ++j)
    for (const char* w : words)
      if (cx.is(j, w)) return true;
  return false;
}

// The object declared is const (internal linkage at namespace scope): `constexpr`, or a `const`
// after the last `*`/`&` before the name (or among the decl-specifiers when there is none).
bool const_object(const context& cx, std::size_t first, std::size_t name) {
  bool konst = false;
  for (std::size_t j = first; j < name; ++j) {
    if (cx.is(j, "constexpr")) return true;
    if (cx.is(j, "*") || cx.is(j, "&") || cx.is(j, "&&")) konst = false;
    if (cx.is(j, "const")) konst = true;
    if (cx.is(j, "<") && cx.angle_close(j) != npos) j = cx.angle_close(j);
  }
  return konst;
}

std::size_t variable(context& cx, const space_decl& d, const scope_info& scope, const options& opts) {
  const bool two_pass = opts.compile_pass != pass::single;
  const std::size_t end = cx.declaration_end(d.markers.front());
  if (!two_pass || !scope.namespace_scope || end == npos || d.name == npos) return d.markers.back() + 1;
  if (cx.is(d.name - 1, "::") || any_of(cx, d.start, d.stop, {"extern", "template", "typedef", "using", "friend", "thread_local"}) ||
      const_object(cx, d.start, d.name))
    return d.markers.back() + 1;
  const bool is_static = any_of(cx, d.start, d.stop, {"static"});
  const std::string what = std::string(cx.toks[d.name].text);
  if (scope.anonymous) {
    cx.error(d.name, "the device variable '" + what +
                         "' is in an anonymous namespace; a file whose host and device passes differ "
                         "(it tests __CUDA_ARCH__) needs it in a named namespace");
    return end + 1;
  }
  // The declarators: top-level commas split them; an initializer runs from `=` (or a brace
  // group after the name or its bounds) to the next top-level comma.
  std::vector<std::pair<std::size_t, std::size_t>> initializers;  // [first, last] token indices
  std::size_t declarators = 1, label_at = npos;
  for (std::size_t j = d.name + 1; j < end; ++j) {
    if (cx.is(j, "[") && cx.match[j] != npos) {
      j = cx.match[j];
    } else if (cx.is(j, ",")) {
      ++declarators;
    } else if (cx.is(j, "=") || (cx.is(j, "{") && (cx.is_name(j - 1) || cx.is(j - 1, "]")))) {
      if (label_at == npos) label_at = j;
      std::size_t k = j;
      for (; k < end && !cx.is(k, ","); ++k)
        if ((cx.is(k, "(") || cx.is(k, "[") || cx.is(k, "{")) && cx.match[k] != npos) k = cx.match[k];
      initializers.push_back({j, k - 1});
      j = k - 1;
    } else if ((cx.is(j, "(") || cx.is(j, "{")) && cx.match[j] != npos) {
      j = cx.match[j];
    }
  }
  if (label_at == npos) label_at = declarators == 1 ? end : npos;
  if (is_static) {
    if (declarators != 1 || label_at == npos) {
      cx.error(d.name, "declare the static device variable '" + what +
                           "' on its own (one declarator): a file whose host and device passes differ "
                           "gives it a name both passes share");
      return end + 1;
    }
    for (std::size_t j = d.start; j < d.stop; ++j)
      if (cx.is(j, "static")) cx.edits.replace(cx.toks[j].offset, cx.toks[j].end(), "");
    cx.edits.insert(cx.toks[label_at].offset, " asm(\"" + unit_symbol(cx, d.name, opts, std::to_string(cx.lines.locate(cx.toks[d.name].line).line)) + "\") ");
  }
  if (opts.compile_pass == pass::host) {
    cx.edits.insert(cx.toks[d.markers.front()].offset, "extern ");
    for (const auto& [a, b] : initializers) cx.blank(a, b);
  }
  return end + 1;
}

}  // namespace

std::string unit_symbol(const context& cx, std::size_t name, const options& opts, const std::string& key) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a of the file the name is in, and the key
  for (char c : cx.file_of(name) + "\n" + key)  // spaces left out: `int *p` and `int* p` are one type
    if (c != ' ') h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return "__cuemu_" + opts.unit + "_" + std::to_string(h % 1000000007ull) + "_" + std::string(cx.toks[name].text);
}

std::size_t rewrite_space(context& cx, std::size_t i, const scope_info& scope, const options& opts) {
  // An extended lambda: `[...] __device__ (...) {...}`.
  if (i > 0 && cx.is(i - 1, "]") && cx.match[i - 1] != npos && !cx.is(i - 2, "]")) {
    std::size_t j = i;
    for (; is_space_marker(cx, j); ++j) blank_marker(cx, j);
    return j;
  }
  const space_decl d = scan(cx, i);
  const std::string file = cx.file_of(i);
  const bool own_header =
      !opts.runtime_include_dir.empty() && file.rfind(opts.runtime_include_dir + "/", 0) == 0;
  // A device-only function gets the GPU's NaN results (options::gpu_fp) and nvcc's contraction
  // into fused multiply-adds (options::contract_fp) where it is not inlined into a kernel (a
  // large one called from a statement a region form runs as coroutines, or from a lane's own
  // call of the kernel); a __host__ __device__ one keeps the CPU's when host code calls it, and
  // evaluates its calls' arguments in nvcc's order (the plugin's cuemu_device_code: left to
  // right, which orders the products whose fusion nvcc chooses by age).
  std::string attributes;
  if (!own_header && d.kind == decl_kind::function && d.device && !d.host) {
    if (opts.contract_fp) attributes = kernel_fp_attribute;
    if (opts.gpu_fp) attributes += std::string(attributes.empty() ? "" : ", ") + "cuemu_gpu_fp";
  } else if (!own_header && d.kind == decl_kind::function && d.device && d.host && opts.gpu_fp &&
             defines_body(cx, d)) {
    attributes = "cuemu_device_code";
  }
  bool attribute = !attributes.empty();
  for (std::size_t m : d.markers) {
    if (attribute && cx.is(m, "__cuemu_device__")) {
      cx.edits.replace(cx.toks[m].offset, cx.toks[m].end(), "__attribute__((" + attributes + "))");
      attribute = false;
    } else {
      blank_marker(cx, m);
    }
  }
  const std::size_t after_markers = d.markers.back() + 1;
  if (own_header) return after_markers;
  if (d.kind == decl_kind::variable && (d.device || d.data_only) && !d.host)
    return variable(cx, d, scope, opts);
  if (d.kind != decl_kind::function || opts.compile_pass != pass::host || !d.device || d.host)
    return after_markers;
  const std::size_t rparen = cx.match[d.lparen];
  if (rparen == npos) return after_markers;
  std::size_t init = npos;
  const std::size_t body = function_body(cx, rparen, init);
  if (body == npos) return after_markers;
  // Kept: what the host pass may evaluate or need to see (constexpr, a deduced return type),
  // and an out-of-class member definition (its declaration alone would be ill-formed).
  const bool qualified = d.name != npos && d.name > 0 && cx.is(d.name - 1, "::");
  const bool deduced = any_of(cx, d.start, d.lparen, {"auto"}) && !any_of(cx, rparen, body, {"->"});
  if (qualified || deduced || any_of(cx, d.start, d.lparen, {"constexpr", "consteval"})) return after_markers;
  // The scan resumes after the body: what it would have rewritten before it is done here.
  for (std::size_t j = d.markers.front(); j < body; ++j)
    if (cx.is(j, "__noinline__") && cx.skip_attribute(j) == j)
      cx.edits.replace(cx.toks[j].offset, cx.toks[j].end(), "__attribute__((noinline))");
  cx.blank(init != npos ? init : body, cx.match[body], ";");
  return cx.match[body] + 1;
}

}  // namespace cuemu::translate
