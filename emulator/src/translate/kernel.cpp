// __global__ functions. The marker is blanked out; a definition gets a prologue that, entered
// from host code, hands its parameters to launch_from_stub instead of running the body:
//   { if (::cuemu::detail::is_launch_call()) { ::cuemu::detail::launch_from_stub<
//       static_cast<void (*)(decltype(a), decltype(b))>(&NAME<TARGS>)>("NAME",
//       __PRETTY_FUNCTION__, a, b); return; } ...body... }
// (the kernel is a template argument: the executor's sync-free loop calls it directly)
// and a non-template definition (or an explicit specialization, or an explicit instantiation)
// registers itself for cudaLaunchKernel:
//   static const ::cuemu::detail::kernel_registrar __cuemu_kreg_N(
//       static_cast<void (*)(TYPES)>(&NAME), "NAME");
#include <algorithm>
#include <string>

#include "translate/declarator.h"
#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

struct kernel_decl {
  std::size_t name_first = npos, lparen = npos, rparen = npos;
  bool name_has_targs = false;      // `k<float>`: explicit specialization or instantiation
  std::size_t header_lt = npos, header_gt = npos;  // `template < ... >` before the declaration
  bool instantiation = false;       // `template __global__ void k<float>(float*);`
  std::size_t template_keyword = npos;  // its `template`
  std::size_t body = npos;          // `{` of a definition
  std::size_t semicolon = npos;     // `;` of a declaration
};

// Tokens [first, last) as in context::join, but a left-out name leaves a space only where the
// source had one next to it: `int a[10]` -> `int [10]`, `void (*f)(int)` -> `void (*)(int)`.
std::string join_without(const context& cx, std::size_t first, std::size_t last, std::size_t skip) {
  std::string out;
  std::size_t prev = npos;
  for (std::size_t i = first; i < last; ++i) {
    if (i == skip) continue;
    if (prev != npos) {
      bool gap = cx.toks[prev].end() != cx.toks[i].offset;
      if (prev + 2 == i && prev + 1 == skip)
        gap = cx.toks[prev].end() != cx.toks[skip].offset || cx.toks[skip].end() != cx.toks[i].offset;
      if (gap) out += ' ';
    }
    out += cx.toks[i].text;
    prev = i;
  }
  return out;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// Fills name and parameter list; returns an error message or "".
std::string find_declarator(const context& cx, std::size_t marker, kernel_decl& d) {
  std::size_t j = marker + 1;
  while (true) {
    if (j >= cx.size()) return "no parameter list follows";
    if (cx.skip_attribute(j) != j) {
      j = cx.skip_attribute(j);
      continue;
    }
    if (cx.is(j, "(")) break;
    if (cx.is(j, "<")) {
      const std::size_t c = cx.angle_close(j);
      if (c == npos) return "unbalanced '<' before the parameter list";
      j = c + 1;
      continue;
    }
    if (cx.is(j, ";") || cx.is(j, "{") || cx.is(j, "}") || cx.is(j, "=") || cx.is(j, ")") ||
        cx.is(j, "]") || cx.is(j, ","))
      return "no parameter list follows";
    ++j;
  }
  d.lparen = j;
  d.rparen = cx.match[j];
  if (d.rparen == npos) return "unbalanced parameter list";
  std::size_t n = j - 1;
  if (n > marker && (cx.is(n, ">") || cx.is(n, ">>"))) {
    const std::size_t open = cx.angle_open(n);
    if (open == npos || open == 0) return "unbalanced template argument list in the name";
    d.name_has_targs = true;
    n = open - 1;
  }
  if (n <= marker || !cx.is_name(n)) return "cannot find the function name before '('";
  while (n >= marker + 3 && cx.is(n - 1, "::") && cx.is_name(n - 2)) n -= 2;
  if (n > marker + 1 && cx.is(n - 1, "::")) --n;
  d.name_first = n;
  return "";
}

// Looks backwards from the marker, over specifiers, strings (extern "C") and attributes, for
// `template <...>` or the `template` of an explicit instantiation.
void find_template_header(const context& cx, std::size_t marker, kernel_decl& d) {
  std::size_t k = marker;
  while (k > 0) {
    const std::size_t p = k - 1;
    if (cx.is(p, "template")) {
      d.instantiation = true;
      d.template_keyword = p;
      return;
    }
    if (cx.is_ident(p) || cx.toks[p].kind == token_kind::string_literal) {
      k = p;
    } else if ((cx.is(p, ")") || cx.is(p, "]")) && cx.match[p] != npos) {
      // an attribute: __attribute__((...)), alignas(...), __declspec(...), [[...]]
      const std::size_t open = cx.match[p];
      const std::size_t start = cx.is(open, "(") ? open - 1 : open;
      if (open == 0 || cx.skip_attribute(start) != p + 1) return;
      k = start;
    } else if (cx.is(p, ">") || cx.is(p, ">>")) {
      const std::size_t open = cx.angle_open(p);
      if (open != npos && open > 0 && cx.is(open - 1, "template")) {
        d.header_lt = open;
        d.header_gt = p;
      }
      return;
    } else {
      return;
    }
  }
}

// After the parameter list: noexcept, throw(), attributes, a trailing return type; then `{`
// (definition), `;` or `= delete` (declaration). Returns an error message or "".
std::string find_body(const context& cx, kernel_decl& d) {
  std::size_t j = d.rparen + 1;
  while (j < cx.size()) {
    if (cx.skip_attribute(j) != j) {
      j = cx.skip_attribute(j);
    } else if ((cx.is(j, "noexcept") || cx.is(j, "throw")) ) {
      ++j;
      if (cx.is(j, "(") && cx.match[j] != npos) j = cx.match[j] + 1;
    } else if (cx.is(j, "->")) {
      for (++j; j < cx.size() && !cx.is(j, "{") && !cx.is(j, ";") && !cx.is(j, "="); ++j)
        if ((cx.is(j, "(") || cx.is(j, "[")) && cx.match[j] != npos) j = cx.match[j];
    } else {
      break;
    }
  }
  if (cx.is(j, "{") && cx.match[j] != npos) {
    d.body = j;
    return "";
  }
  if (cx.is(j, ";") || cx.is(j, "=")) {
    for (; j < cx.size() && !cx.is(j, ";"); ++j) {
    }
    d.semicolon = j;
    return "";
  }
  return "expected '{', ';' or '= delete' after the parameter list";
}

std::string registrar(context& cx, const std::string& types, const std::string& name) {
  return " static const ::cuemu::detail::kernel_registrar __cuemu_kreg_" +
         std::to_string(cx.registrar_counter++) + "(static_cast<void (*)(" + types + ")>(&" +
         name + "), " + quoted(name) + ");";
}

}  // namespace

std::size_t rewrite_kernel(context& cx, std::size_t marker, const scope_info& scope, const options& opts) {
  const token& m = cx.toks[marker];
  kernel_decl d;
  std::string why = find_declarator(cx, marker, d);
  if (why.empty()) why = find_body(cx, d);
  // The device pass keeps every kernel it defines (also an instantiation only named, say as an
  // argument that an inlined host path drops): the host pass's object refers to it.
  const bool defined = why.empty() && d.body != npos;
  std::string attributes;
  auto add = [&](bool on, const char* a) {
    if (on) attributes += std::string(attributes.empty() ? "" : ", ") + a;
  };
  add(defined && opts.compile_pass == pass::device, "used");
  // `{__cuemu_regions(OK) __cuemu_vectorise`: a region form without floating-point arithmetic.
  const bool vectorise = defined && cx.is(d.body + 1, "__cuemu_regions") && cx.is(d.body + 2, "(") &&
                         cx.match[d.body + 2] != npos && cx.is(cx.match[d.body + 2] + 1, "__cuemu_vectorise");
  add(defined && opts.contract_fp, vectorise ? kernel_vector_attribute : kernel_fp_attribute);
  add(defined && opts.gpu_fp, "cuemu_gpu_fp");
  cx.edits.replace(m.offset, m.end(),
                   attributes.empty() ? std::string(m.text.size(), ' ') : "__attribute__((" + attributes + "))");
  const auto fail = [&](const std::string& why) {
    cx.error(marker, "cannot rewrite this __global__ function: " + why);
    return marker + 1;
  };
  if (!why.empty()) return fail(why);
  find_template_header(cx, marker, d);
  const std::string name = cx.join(d.name_first, d.lparen);
  const bool two_pass = opts.compile_pass != pass::single;
  const bool host_pass = opts.compile_pass == pass::host;
  const std::size_t start = cx.declaration_start(marker);
  std::vector<std::size_t> statics;
  for (std::size_t j = start; j < d.name_first; ++j)
    if (cx.is(j, "static")) statics.push_back(j);
  const bool has_header = d.header_lt != npos;
  const bool template_params = has_header && d.header_gt > d.header_lt + 1;
  if (opts.compile_pass == pass::host && d.instantiation) {  // the device pass instantiates it
    const std::size_t last = d.body != npos ? cx.match[d.body] : d.semicolon;
    if (d.template_keyword < marker) cx.blank(d.template_keyword, marker - 1);
    if (marker < last) cx.blank(marker + 1, last);
    return last + 1;
  }
  if (d.body == npos && !d.instantiation && !(two_pass && (!statics.empty() || scope.anonymous)))
    return marker + 1;  // a plain declaration: marker removed only

  // Function parameters; `()` and `(void)` have none.
  std::vector<parameter> params;
  const bool no_params = d.rparen == d.lparen + 1 || (d.rparen == d.lparen + 2 && cx.is(d.lparen + 1, "void"));
  if (!no_params)
    for (const auto& [a, b] : split_commas(cx, d.lparen + 1, d.rparen, true)) {
      const std::string pos = std::to_string(params.size() + 1);
      if (cx.is(a, "...") && b == a + 1) return fail("a kernel cannot be variadic");
      params.push_back(parse_function_parameter(cx, a, b));
      const parameter& p = params.back();
      if (a == b || !p.ok) return fail("cannot parse parameter " + pos + " '" + cx.join(a, b) + "'");
      if (p.function_pointer && p.name == npos && d.body != npos)
        return fail("give parameter " + pos + " a name (an unnamed function-pointer parameter cannot be forwarded)");
    }
  std::string types;
  for (std::size_t k = 0; k < params.size(); ++k)
    types += (k ? ", " : "") + join_without(cx, params[k].first, params[k].last, params[k].name);


  // In a two-pass build the host pass only declares the kernel; the device pass defines it. An
  // internal-linkage kernel stays so in the device pass (templates instantiated on it stay apart
  // from another unit's), which publishes its address under a name of the unit; the host pass
  // declares the kernel as a reference to that.
  std::string published;
  if (two_pass && !d.instantiation && (!statics.empty() || scope.anonymous)) {
    if (scope.anonymous || template_params || d.name_has_targs)
      return fail("a kernel with internal linkage (" +
                  std::string(scope.anonymous ? "in an anonymous namespace" : "a static template") +
                  ") in a file whose host and device passes differ (it tests __CUDA_ARCH__) is not "
                  "supported; give it external linkage");
    const std::string label = unit_symbol(cx, d.name_first, opts, types);
    const std::string pointer = "void (*const " + label + ")(" + types + ")";
    if (host_pass) {
      const std::size_t last = d.body != npos ? cx.match[d.body] : d.semicolon;
      std::string text;
      if (std::find(cx.declared.begin(), cx.declared.end(), label) == cx.declared.end()) {
        cx.declared.push_back(label);
        text = "extern \"C\" " + pointer + "; static void (&" + name + ")(" + types + ") = *" + label + ";";
      }
      if (start < marker) cx.blank(start, marker - 1, std::move(text));
      else cx.edits.insert(cx.toks[marker].offset, std::move(text));
      if (marker < last) cx.blank(marker + 1, last);
      return last + 1;
    }
    if (d.body == npos) return marker + 1;
    published = " extern \"C\" " + pointer + " = &" + name + ";";
  }

  if (d.body == npos) {
    // A declaration: only an explicit instantiation needs something (its registrar).
    if (d.instantiation) cx.edits.insert(cx.toks[d.semicolon].end(), registrar(cx, types, name));
    return marker + 1;
  }
  if (host_pass) {
    cx.blank(d.body, cx.match[d.body], ";");
    return cx.match[d.body] + 1;
  }

  // Template arguments naming every template parameter, for &NAME<TARGS>.
  std::string targs;
  std::vector<std::pair<std::size_t, std::string>> injected;  // (offset, text)
  if (template_params && !d.name_has_targs) {
    std::size_t k = 0;
    for (const auto& [a, b] : split_commas(cx, d.header_lt + 1, d.header_gt, true)) {
      parameter p = parse_template_parameter(cx, a, b);
      if (!p.ok) return fail("cannot parse template parameter '" + cx.join(a, b) + "'");
      std::string n = p.name != npos ? std::string(cx.toks[p.name].text) : "__cuemu_t" + std::to_string(k);
      if (p.name == npos) injected.push_back({p.insert_at, " " + n});
      targs += (k++ ? ", " : "") + n + (p.pack ? "..." : "");
    }
    targs = "<" + targs + ">";
  }
  std::string decltypes, args;
  for (std::size_t k = 0; k < params.size(); ++k) {
    const parameter& p = params[k];
    std::string n = p.name != npos ? std::string(cx.toks[p.name].text) : "__cuemu_p" + std::to_string(k);
    if (p.name == npos) injected.push_back({p.insert_at, " " + n});
    const std::string dots = p.pack ? "..." : "";
    // g++ 12 rejects decltype(p) of a `T* __restrict p` in a template (it does not drop the
    // top-level __restrict when matching the function type); the spelled type works.
    const bool spelled = p.restrict_pointer && !p.pack;
    decltypes += (k ? ", " : "") +
                 (spelled ? join_without(cx, p.first, p.last, p.name) : "decltype(" + n + ")" + dots);
    args += ", " + n + dots;
  }
  for (auto& [offset, text] : injected) cx.edits.insert(offset, std::move(text));
  // Ending the process from a CUDA thread: nvcc refuses these host functions in a kernel.
  for (std::size_t i = d.body + 1; i < cx.match[d.body]; ++i) {
    const std::string_view t = cx.toks[i].text;
    if ((t == "exit" || t == "_Exit" || t == "quick_exit" || t == "abort") && cx.is(i + 1, "(") &&
        !cx.is(i - 1, ".") && !cx.is(i - 1, "->") &&
        (!cx.is(i - 1, "::") || cx.is(i - 2, "std") || !cx.is_ident(i - 2)))
      cx.error(i, std::string(t) + "() called in the __global__ function " + name +
                      ": a host function, which nvcc refuses in device code (end the thread with "
                      "return, or the kernel with __trap())");
  }
  // A kernel given a region form by cuemu-regions (cuemu/regions.h) starts with
  // `__cuemu_regions(OK)`: OK tells the launch whether this instantiation has it.
  std::string regions;
  if (cx.is(d.body + 1, "__cuemu_regions") && cx.is(d.body + 2, "(") && cx.match[d.body + 2] != npos) {
    const std::size_t close = cx.match[d.body + 2];
    regions = ", (" + cx.join(d.body + 3, close) + ")";
    cx.blank(d.body + 1, cx.is(close + 1, "__cuemu_vectorise") ? close + 1 : close);
  }
  cx.edits.insert(cx.toks[d.body].end(),
                  "if (::cuemu::detail::is_launch_call()) { ::cuemu::detail::launch_from_stub<"
                  "static_cast<void (*)(" + decltypes + ")>(&" + name + targs + ")" + regions + ">(" +
                      quoted(name) + ", __PRETTY_FUNCTION__" + args + "); return; }");
  if (!template_params)
    cx.edits.insert(cx.toks[cx.match[d.body]].end(), registrar(cx, types, name) + published);
  return marker + 1;
}

}  // namespace cuemu::translate
