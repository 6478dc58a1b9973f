// GNU inline asm statements: `asm`/`__asm__`/`__asm` [volatile|__volatile__|goto|inline]...
// `( "template" "literals" [: outputs [: inputs [: clobbers [: labels]]]] );`
// Inline PTX cannot run on the CPU. A statement whose template holds only instructions of a
// small table with an exact CPU meaning is rewritten to C++:
//   griddepcontrol.wait / griddepcontrol.launch_dependents -> nothing (launches run to
//       completion in order here); a compiler barrier if the asm clobbers "memory"
//   membar.{gl,cta,sys}, fence.{sc,acq_rel}.{cta,gpu,sys} -> __atomic_thread_fence(5 /* __ATOMIC_SEQ_CST */)
//       (the translated text is compiled as preprocessed: no macros, so the value of
//       __ATOMIC_SEQ_CST, 5 in g++ and clang)
//   mov.u32 %0, %laneid; with one "=r"(x) output -> (x) = ::cuemu::detail::lane_id()
//   ld.global[.nc|.ca|.cg|.cs|.lu|.cv].TYPE %0, [%1]; with one output "=r"/"=l"/"=h"/"=f"/"=d"
//       (x) and one input "l"(p) -> (x) = *(const TYPE*)(p)
// Any other PTX is an error naming the user's line and the instruction. What is not PTX is left
// alone: an empty template (a compiler barrier), x86 instructions (pause, rdtsc, cpuid, ... or
// operands naming x86 registers), anything in a system header that does not look like PTX, and
// asm labels (`int f() __asm__("name");`, `register int r asm("eax")`), which are not statements.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <unordered_set>
#include <utility>

#include "translate/ptx.h"
#include "translate/rewrites.h"

namespace cuemu::translate {
namespace {

bool is_qualifier(std::string_view t) {
  return t == "volatile" || t == "__volatile__" || t == "__volatile" || t == "goto" || t == "inline" ||
         t == "__inline" || t == "__inline__";
}

// asm at `kw` starts a statement (rather than being an asm label of a declarator).
bool at_statement_start(const context& cx, std::size_t kw) {
  if (kw == 0) return true;
  const std::size_t p = kw - 1;
  if (cx.is(p, ";") || cx.is(p, "{") || cx.is(p, "}") || cx.is(p, ":") || cx.is(p, "else") ||
      cx.is(p, "do") || cx.is(p, "__extension__"))
    return true;
  if (cx.is(p, ")") && cx.match[p] != npos && cx.match[p] > 0) {
    const std::size_t k = cx.match[p] - 1;
    return cx.is(k, "if") || cx.is(k, "while") || cx.is(k, "for") || cx.is(k, "switch");
  }
  return false;
}

// The value of a plain "..." literal with its escapes decoded, or of a raw R"d(...)d" one; false
// for a prefixed one.
bool decode_literal(std::string_view lit, std::string& out) {
  if (lit.size() >= 5 && lit[0] == 'R' && lit[1] == '"' && lit.back() == '"') {
    const std::size_t open = lit.find('(');
    if (open == std::string_view::npos) return false;
    const std::string_view delim = lit.substr(2, open - 2);
    if (open + 2 + delim.size() >= lit.size()) return false;
    const std::size_t close = lit.size() - 2 - delim.size();  // the ')' before the delimiter
    if (close <= open || lit[close] != ')') return false;
    out += lit.substr(open + 1, close - open - 1);
    return true;
  }
  if (lit.size() < 2 || lit.front() != '"' || lit.back() != '"') return false;
  for (std::size_t i = 1; i + 1 < lit.size(); ++i) {
    char c = lit[i];
    if (c != '\\' || i + 2 >= lit.size()) {
      out += c;
      continue;
    }
    c = lit[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'v': out += '\v'; break;
      case 'f': out += '\f'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'x': {
        int v = 0;
        while (i + 2 < lit.size() && std::isxdigit(static_cast<unsigned char>(lit[i + 1])))
          v = v * 16 + (std::isdigit(static_cast<unsigned char>(lit[i + 1]))
                            ? lit[i + 1] - '0'
                            : std::tolower(static_cast<unsigned char>(lit[i + 1])) - 'a' + 10),
          ++i;
        out += static_cast<char>(v);
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          int v = c - '0';
          for (int n = 0; n < 2 && i + 2 < lit.size() && lit[i + 1] >= '0' && lit[i + 1] <= '7'; ++n)
            v = v * 8 + (lit[++i] - '0');
          out += static_cast<char>(v);
        } else {
          out += c;  // \\ \" \' \?
        }
    }
  }
  return true;
}

struct instruction {
  std::string mnemonic;  // e.g. ld.global.nc.v4.u32
  std::string operands;  // with all whitespace removed
  bool guarded = false;  // @p / @!p
  std::size_t tok = 0;   // the literal it starts in
};

struct parsed_template {
  std::vector<instruction> insts;
  bool ptx_directive = false;  // .reg / .pred / .shared ... declarations, or a `{ }` scope
  std::string text;            // the decoded template
};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

parsed_template parse_template(const context& cx, const std::vector<std::size_t>& lits, bool& ok) {
  parsed_template pt;
  std::vector<std::size_t> owner;  // literal token of each character of pt.text
  ok = true;
  for (std::size_t t : lits) {
    if (!decode_literal(cx.toks[t].text, pt.text)) ok = false;
    owner.resize(pt.text.size(), t);
  }
  const std::string& s = pt.text;
  std::size_t i = 0;
  while (i < s.size()) {
    // One statement: up to ; newline { }, a // comment ends at the newline.
    // Braces open and close a scope only where a statement starts (`{%0, %1}` is an operand).
    std::size_t b = i;
    bool blank = true;
    while (i < s.size() && s[i] != ';' && s[i] != '\n' && !(blank && (s[i] == '{' || s[i] == '}')) &&
           !(s[i] == '/' && i + 1 < s.size() && s[i + 1] == '/')) {
      if (!is_blank(s[i])) blank = false;
      ++i;
    }
    std::size_t e = i;
    if (i < s.size() && s[i] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (i < s.size()) {
      if (s[i] == '{' || s[i] == '}') pt.ptx_directive = true;
      ++i;
    }
    while (b < e && is_blank(s[b])) ++b;
    while (e > b && is_blank(s[e - 1])) --e;
    // A label `name:` before the instruction.
    for (std::size_t k = b; k < e; ++k) {
      const char c = s[k];
      if (c == ':') {
        b = k + 1;
        while (b < e && is_blank(s[b])) ++b;
        break;
      }
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$')) break;
    }
    if (b == e) continue;
    if (s[b] == '.') {
      if (s.compare(b, 4, ".reg") == 0 || s.compare(b, 7, ".shared") == 0 || s.compare(b, 6, ".local") == 0)
        pt.ptx_directive = true;
      continue;  // a declaration or an assembler directive, not an instruction
    }
    instruction in;
    in.tok = owner[b];
    if (s[b] == '@') {
      in.guarded = true;
      while (b < e && !is_blank(s[b])) ++b;
      while (b < e && is_blank(s[b])) ++b;
      if (b == e) continue;
    }
    std::size_t m = b;
    while (m < e && !is_blank(s[m])) ++m;
    in.mnemonic.assign(s, b, m - b);
    for (std::size_t k = m; k < e; ++k)
      if (!is_blank(s[k])) in.operands += s[k];
    pt.insts.push_back(std::move(in));
  }
  return pt;
}

bool looks_like_ptx(const parsed_template& pt) {
  if (pt.ptx_directive) return true;
  for (const instruction& in : pt.insts)
    if (in.guarded || in.mnemonic.find('.') != std::string::npos || in.mnemonic == "exit" || in.mnemonic == "trap" ||
        in.mnemonic == "brkpt" || in.mnemonic == "ret" || in.mnemonic == "pmevent")
      return true;
  static const std::array<std::string_view, 13> specials = {
      "%laneid", "%warpid", "%tid", "%ntid", "%ctaid", "%nctaid", "%smid", "%nsmid", "%gridid",
      "%lanemask", "%clock", "%globaltimer", "%dynamic_smem_size"};
  for (std::string_view r : specials)
    if (pt.text.find(r) != std::string::npos) return true;
  return false;
}

bool looks_like_x86(const parsed_template& pt) {
  static const std::unordered_set<std::string_view> x86 = {
      "pause", "rdtsc", "rdtscp", "rdpmc", "cpuid", "lfence", "mfence", "sfence", "nop", "int3",
      "ud2", "xgetbv", "serialize", "rep", "lock", "hlt"};
  bool all_known = true;
  for (const instruction& in : pt.insts) {
    std::string m = in.mnemonic;
    std::transform(m.begin(), m.end(), m.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!x86.count(m)) all_known = false;
  }
  if (all_known) return true;
  // Operands naming x86 registers: %%eax, %%rsp, %%xmm0, %%r8 ...
  static const std::array<std::string_view, 22> regs = {
      "%%eax", "%%ebx", "%%ecx", "%%edx", "%%esi", "%%edi", "%%esp", "%%ebp", "%%rax", "%%rbx", "%%rcx",
      "%%rdx", "%%rsi", "%%rdi", "%%rsp", "%%rbp", "%%xmm", "%%ymm", "%%zmm", "%%al", "%%ax", "%%r8"};
  for (std::string_view r : regs)
    if (pt.text.find(r) != std::string::npos) return true;
  return false;
}

// A hint for the error message: the CUDA C++ that replaces the instruction.
std::string hint(const instruction& in) {
  const std::string& m = in.mnemonic;
  const auto starts = [&](std::string_view p) { return m.compare(0, p.size(), p) == 0; };
  const auto head = m.substr(0, m.find('.'));
  struct entry {
    const char* prefix;
    const char* intrinsic;
  };
  static const entry intrinsics[] = {
      {"ld.global.nc", "__ldg"},       {"ld.global.cs", "__ldcs"},     {"ld.global.cg", "__ldcg"},
      {"ld.global.ca", "__ldca"},      {"ld.global.lu", "__ldlu"},     {"ld.global.cv", "__ldcv"},
      {"st.global.cs", "__stcs"},      {"st.global.cg", "__stcg"},     {"st.global.wb", "__stwb"},
      {"st.global.wt", "__stwt"},      {"shfl", "__shfl_sync"},        {"vote.ballot", "__ballot_sync"},
      {"vote.any", "__any_sync"},      {"vote.all", "__all_sync"},     {"vote", "__ballot_sync"},
      {"bar.warp.sync", "__syncwarp"}, {"bar", "__syncthreads"},       {"barrier", "__syncthreads"},
      {"cvt.rn.f16.f32", "__float2half_rn"}, {"cvt.f32.f16", "__half2float"},
      {"prmt", "__byte_perm"},         {"brev", "__brev"},             {"popc", "__popc"},
      {"clz", "__clz"},                {"bfind", "__clz"},             {"mul.hi", "__umulhi"},
      {"mul24", "__umul24"},           {"mad.hi", "__umulhi"},         {"nanosleep", "__nanosleep"},
      {"match", "__match_any_sync"},   {"redux", "__reduce_add_sync"}, {"activemask", "__activemask"},
      {"sad", "__sad"},                {"trap", "__trap"},             {"brkpt", "__brkpt"}};
  for (const entry& e : intrinsics) {
    const std::string_view p = e.prefix;
    if (starts(p) && (m.size() == p.size() || m[p.size()] == '.'))
      return std::string("use the CUDA C++ intrinsic, e.g. ") + e.intrinsic;
  }
  if (head == "atom" || head == "red") return "use the CUDA C++ atomic functions, e.g. atomicAdd";
  if (head == "lop3") return "use C++ bitwise operators";
  if (head == "setp" || head == "set" || head == "selp") return "use C++ comparisons";
  if (head == "mad" || head == "fma") return "use C++ arithmetic (a * b + c)";
  if (head == "cp" || head == "ld" || head == "st" || head == "ldmatrix" || head == "stmatrix")
    return "use plain C++ loads and stores";
  if (head == "mov") {
    static const std::pair<const char*, const char*> regs[] = {
        {"%clock64", "clock64()"}, {"%clock", "static_cast<unsigned int>(clock64())"},    {"%tid", "threadIdx"},
        {"%ntid", "blockDim"},     {"%ctaid", "blockIdx"},   {"%nctaid", "gridDim"},
        {"%laneid", "a \"=r\"(x) output operand"}};
    for (const auto& [r, cxx] : regs)
      if (in.operands.find(r) != std::string::npos) return std::string("use ") + cxx;
  }
  return "write it in CUDA C++";
}

// The instruction as the error names it: the mnemonic, and for `mov` the whole instruction (the
// special register read is what matters): `mov.u32 %0, %warpid`.
std::string name_of(const instruction& in) {
  if (in.mnemonic.compare(0, 4, "mov.") != 0 || in.operands.empty()) return in.mnemonic;
  std::string ops;
  for (std::size_t k = 0; k < in.operands.size(); ++k) {
    if (in.operands.compare(k, 2, "%%") == 0) continue;  // %% is % in an asm with operands
    ops += in.operands[k];
    if (in.operands[k] == ',') ops += ' ';
  }
  return in.mnemonic + " " + ops;
}

enum class meaning { none, no_op, fence, lane_id, load };

// The C++ type of a PTX scalar type suffix (u32, s64, f32, b16, ...), or "".
std::string scalar_type(std::string_view t) {
  static const std::pair<std::string_view, const char*> types[] = {
      {"u16", "unsigned short"}, {"s16", "short"},      {"b16", "unsigned short"},
      {"u32", "unsigned int"},   {"s32", "int"},        {"b32", "unsigned int"},
      {"u64", "unsigned long long"}, {"s64", "long long"}, {"b64", "unsigned long long"},
      {"f32", "float"},          {"f64", "double"}};
  for (const auto& [p, c] : types)
    if (p == t) return c;
  return "";
}

// ld.global[.nc|.ca|.cg|.cs|.lu|.cv].TYPE: the C++ type loaded, or "".
std::string load_type(const std::string& m) {
  if (m.compare(0, 10, "ld.global.") != 0) return "";
  std::string rest = m.substr(10);
  for (const char* cache : {"nc.", "ca.", "cg.", "cs.", "lu.", "cv."})
    if (rest.compare(0, 3, cache) == 0) {
      rest = rest.substr(3);
      break;
    }
  return scalar_type(rest);
}

meaning table_meaning(const instruction& in) {
  if (in.guarded) return meaning::none;
  const std::string& m = in.mnemonic;
  if (in.operands.empty()) {
    if (m == "griddepcontrol.wait" || m == "griddepcontrol.launch_dependents") return meaning::no_op;
    if (m == "membar.gl" || m == "membar.cta" || m == "membar.sys") return meaning::fence;
    for (const char* sem : {"fence.sc.", "fence.acq_rel."})
      for (const char* scope : {"cta", "gpu", "sys"})
        if (m == std::string(sem) + scope) return meaning::fence;
  }
  if ((m == "mov.u32" || m == "mov.b32") && (in.operands == "%0,%laneid" || in.operands == "%0,%%laneid"))
    return meaning::lane_id;
  if (!load_type(m).empty() && in.operands == "%0,[%1]") return meaning::load;
  return meaning::none;
}

// The one operand `[name] "C" (expr)` of [b, e), its constraint one of `constraints`: the
// expression's token range.
bool single_operand(const context& cx, std::size_t b, std::size_t e, std::size_t& lp, std::size_t& rp,
                    std::initializer_list<std::string_view> constraints) {
  if (cx.is(b, "[") && cx.match[b] != npos) b = cx.match[b] + 1;
  if (b >= e || cx.toks[b].kind != token_kind::string_literal) return false;
  const std::string_view c = cx.toks[b].text;
  if (std::find(constraints.begin(), constraints.end(), c) == constraints.end()) return false;
  lp = b + 1;
  if (!cx.is(lp, "(") || cx.match[lp] == npos || cx.match[lp] + 1 != e) return false;
  rp = cx.match[lp];
  return rp > lp + 1;
}

// The operands of one section: `[name] "constraint" (expr), ...`; false if one does not parse.
bool parse_operands(const context& cx, std::pair<std::size_t, std::size_t> section, std::vector<asm_operand>& out) {
  std::size_t j = section.first;
  while (j < section.second) {
    if (cx.is(j, "[")) return false;  // named operands: %[name] is not translated
    if (cx.toks[j].kind != token_kind::string_literal) return false;
    std::string constraint;
    if (!decode_literal(cx.toks[j].text, constraint)) return false;
    const std::size_t lp = j + 1;
    if (!cx.is(lp, "(") || cx.match[lp] == npos || cx.match[lp] >= section.second + 1) return false;
    out.push_back({constraint, cx.join(lp + 1, cx.match[lp])});
    j = cx.match[lp] + 1;
    if (j < section.second) {
      if (!cx.is(j, ",")) return false;
      ++j;
    }
  }
  return true;
}

std::string general_ptx(const context& cx, const parsed_template& pt,
                        const std::vector<std::pair<std::size_t, std::size_t>>& sections, bool namespace_scope,
                        std::string& unsupported) {
  if (namespace_scope) return "";
  std::vector<asm_operand> outputs, inputs;
  if ((sections.size() > 0 && !parse_operands(cx, sections[0], outputs)) ||
      (sections.size() > 1 && !parse_operands(cx, sections[1], inputs)) ||
      (sections.size() > 3 && sections[3].first != sections[3].second))
    return "";
  return ptx_statement(pt.text, !sections.empty(), outputs, inputs, unsupported);
}

// A PTX asm statement [kw, rp]: rewritten when every instruction is in the table, else an error.
void rewrite_ptx(context& cx, std::size_t kw, std::size_t rp, const parsed_template& pt,
                 const std::vector<std::pair<std::size_t, std::size_t>>& sections, bool namespace_scope) {
  const auto non_empty = [&](std::size_t k) { return sections.size() > k && sections[k].first != sections[k].second; };
  bool clobbers_memory = false;
  if (sections.size() >= 3)
    for (std::size_t k = sections[2].first; k < sections[2].second; ++k)
      if (cx.is(k, "\"memory\"")) clobbers_memory = true;
  std::vector<meaning> meanings;
  for (const instruction& in : pt.insts) meanings.push_back(table_meaning(in));
  const auto lane_ids = std::count(meanings.begin(), meanings.end(), meaning::lane_id);
  const auto loads = std::count(meanings.begin(), meanings.end(), meaning::load);
  std::size_t elp = 0, erp = 0;  // the parentheses around the output operand's expression
  std::size_t ilp = 0, irp = 0;  // and around the input operand's (a load's address)
  const auto output = [&](std::initializer_list<std::string_view> c) {
    return non_empty(0) && single_operand(cx, sections[0].first, sections[0].second, elp, erp, c);
  };
  bool operands_fit = !non_empty(0) && !non_empty(1);
  if (lane_ids + loads > 1 || (loads == 1 && pt.insts.size() != 1)) {
    operands_fit = false;
  } else if (lane_ids == 1) {
    operands_fit = !non_empty(1) && output({"\"=r\"", "\"=&r\""});
  } else if (loads == 1) {
    operands_fit = output({"\"=r\"", "\"=l\"", "\"=h\"", "\"=f\"", "\"=d\""}) && non_empty(1) &&
                   single_operand(cx, sections[1].first, sections[1].second, ilp, irp, {"\"l\""});
  }
  // The error names the first instruction outside the table; else (operands that do not fit,
  // asm goto labels, namespace scope) the lane id read, or the first instruction.
  std::size_t bad = std::find(meanings.begin(), meanings.end(), meaning::none) - meanings.begin();
  if (bad == meanings.size() && (!operands_fit || namespace_scope || non_empty(3)))
    bad = lane_ids + loads > 0 ? std::find_if(meanings.begin(), meanings.end(),
                                              [](meaning m) { return m == meaning::lane_id || m == meaning::load; }) -
                                     meanings.begin()
                               : 0;
  if (bad < pt.insts.size()) {
    // Beyond the table: the general translation (translate/ptx.h).
    std::string unsupported;
    const std::string cxx = general_ptx(cx, pt, sections, namespace_scope, unsupported);
    const bool system = cx.lines.in_system_header(cx.toks[kw].line);
    const bool whole = cx.is(rp + 1, ";") && !cx.pragma_within(cx.toks[kw].offset, cx.toks[rp].end());
    if (!cxx.empty() && whole) {
      cx.blank(kw, rp, cxx);
      return;
    }
    if (system && !namespace_scope && whole) {
      // A library's header: the statement fails when it runs (a report naming it), not when it
      // is compiled, since most such paths are never taken.
      const source_location at = cx.lines.locate(cx.toks[kw].line);
      std::string file;
      for (char c : at.file) file += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
      std::string what;
      for (char c : "inline PTX '" + (unsupported.empty() ? name_of(pt.insts[bad]) : unsupported) + "'")
        what += (c == '"' || c == '\\') ? std::string("\\") + c : c == '\n' ? std::string(" ") : std::string(1, c);
      cx.blank(kw, rp, "::cuemu::detail::device_unsupported(\"" + what + "\", \"" + file + "\", " + std::to_string(at.line) + ")");
      return;
    }
    const instruction& in = pt.insts[bad];
    cx.error(in.tok, "inline PTX cannot run on the CPU emulator: '" + name_of(in) + "' (" + hint(in) +
                         ", or guard it with #ifdef __CUEMU__)");
    return;
  }
  if (pt.insts.empty() && (namespace_scope || non_empty(0) || non_empty(1))) {
    cx.error(kw, "inline PTX cannot run on the CPU emulator (or guard it with #ifdef __CUEMU__)");
    return;
  }
  if (!cx.is(rp + 1, ";")) {
    cx.error(kw, "inline PTX: expected ';' after the asm statement");
    return;
  }
  if (cx.pragma_within(cx.toks[kw].offset, cx.toks[rp].end())) {
    cx.error(kw, "inline PTX split by a #pragma cannot be rewritten");
    return;
  }
  const std::string barrier = "__asm__ __volatile__(\"\" ::: \"memory\")";
  std::vector<std::string> stmts;
  const auto add = [&](std::string s) {
    if (stmts.empty() || stmts.back() != s) stmts.push_back(std::move(s));
  };
  for (meaning m : meanings) {
    if (m == meaning::no_op) {
      if (clobbers_memory) add(barrier);
    } else if (m == meaning::fence) {
      add("__atomic_thread_fence(5 /* __ATOMIC_SEQ_CST */)");
    } else if (m == meaning::lane_id) {
      add("(" + cx.join(elp + 1, erp) + ") = ::cuemu::detail::lane_id()");
    } else {
      add("(" + cx.join(elp + 1, erp) + ") = *(const " + load_type(pt.insts[0].mnemonic) + "*)(" +
          cx.join(ilp + 1, irp) + ")");
    }
  }
  if (stmts.empty() && clobbers_memory) add(barrier);  // only declarations: `{ .reg .pred p; }`
  std::string text;
  if (stmts.empty()) {
    text = "((void)0)";
  } else if (stmts.size() == 1) {
    text = stmts[0];
  } else {
    text = "do {";
    for (const std::string& s : stmts) text += " " + s + ";";
    text += " } while (0)";
  }
  cx.blank(kw, rp, std::move(text));  // line markers inside stay on their lines
}

}  // namespace

std::size_t rewrite_asm(context& cx, std::size_t kw, bool namespace_scope) {
  std::size_t lp = kw + 1;
  while (lp < cx.size() && cx.is_ident(lp) && is_qualifier(cx.toks[lp].text)) ++lp;
  if (!cx.is(lp, "(") || cx.match[lp] == npos || !at_statement_start(cx, kw)) return kw;
  const std::size_t rp = cx.match[lp];
  // The template: adjacent string literals, then `)` or the first `:`.
  std::vector<std::size_t> lits;
  std::size_t j = lp + 1;
  for (; j < rp && cx.toks[j].kind == token_kind::string_literal; ++j) lits.push_back(j);
  if (lits.empty() || !(j == rp || cx.is(j, ":") || cx.is(j, "::")))
    return rp;  // not GNU asm syntax: the compiler will say so
  // Operand sections (outputs, inputs, clobbers, labels) as token ranges, split by top-level
  // `:`; `::` is two, with an empty section between them.
  std::vector<std::pair<std::size_t, std::size_t>> sections;
  bool open = false;
  std::size_t begin = 0;
  for (std::size_t k = j; k <= rp; ++k) {
    if (k < rp && !cx.is(k, ":") && !cx.is(k, "::")) {
      if ((cx.is(k, "(") || cx.is(k, "[")) && cx.match[k] != npos && cx.match[k] < rp) k = cx.match[k];
      continue;
    }
    if (open) sections.push_back({begin, k});
    if (k == rp) break;
    if (cx.is(k, "::")) sections.push_back({k, k});
    open = true;
    begin = k + 1;
  }
  bool ok = true;
  const parsed_template pt = parse_template(cx, lits, ok);
  if (!ok || (pt.insts.empty() && !pt.ptx_directive)) return rp;  // an empty template: a barrier
  if (!looks_like_ptx(pt) && (looks_like_x86(pt) || cx.lines.in_system_header(cx.toks[kw].line))) return rp;
  rewrite_ptx(cx, kw, rp, pt, sections, namespace_scope);
  return rp;
}

}  // namespace cuemu::translate
