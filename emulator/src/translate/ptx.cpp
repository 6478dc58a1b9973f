#include "translate/ptx.h"

#include <cctype>
#include <map>
#include <set>
#include <string_view>

namespace cuemu::translate {
namespace {

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : s) {
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') --depth;
    if (c == sep && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

// The C++ type of a PTX type suffix, or "".
std::string cxx_type(std::string_view t) {
  static const std::map<std::string_view, const char*> types = {
      {"u8", "unsigned char"},  {"s8", "signed char"},  {"b8", "unsigned char"},
      {"u16", "unsigned short"}, {"s16", "short"},       {"b16", "unsigned short"},
      {"u32", "unsigned int"},   {"s32", "int"},         {"b32", "unsigned int"},
      {"u64", "unsigned long long"}, {"s64", "long long"}, {"b64", "unsigned long long"},
      {"f32", "float"},          {"f64", "double"},      {"pred", "bool"}};
  auto it = types.find(t);
  return it == types.end() ? "" : it->second;
}

std::string constraint_type(const std::string& c) {
  for (char ch : c) {
    switch (ch) {
      case 'h': return "unsigned short";
      case 'r': return "unsigned int";
      case 'l': return "unsigned long long";
      case 'f': return "float";
      case 'd': return "double";
      case 'c': return "unsigned char";
      case 'n': return "n";
      default: break;
    }
  }
  return "";
}

struct translator {
  bool has_operands = false;
  std::vector<std::string> operand_types;  // by %N
  std::set<std::string> registers;         // declared .reg names
  std::string body;
  std::string unsupported;

  bool fail(const std::string& what) {
    if (unsupported.empty()) unsupported = what;
    return false;
  }

  // %N (an operand's index) or -1.
  int operand_index(const std::string& o) const {
    if (o.size() < 2 || o[0] != '%' || !std::isdigit(static_cast<unsigned char>(o[1]))) return -1;
    for (std::size_t i = 1; i < o.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(o[i]))) return -1;
    if (o.size() > 4) return -1;  // GCC allows at most 30 operands
    const int n = std::stoi(o.substr(1));
    return n < static_cast<int>(operand_types.size()) ? n : -1;
  }

  std::string special(const std::string& name) {
    static const std::map<std::string, std::string> regs = {
        {"laneid", "::cuemu::detail::lane_id()"},
        {"warpid", "::cuemu::ptx::warp_id()"},
        {"lanemask_eq", "::cuemu::ptx::lanemask(0)"}, {"lanemask_lt", "::cuemu::ptx::lanemask(1)"},
        {"lanemask_le", "::cuemu::ptx::lanemask(2)"}, {"lanemask_gt", "::cuemu::ptx::lanemask(3)"},
        {"lanemask_ge", "::cuemu::ptx::lanemask(4)"},
        {"tid.x", "threadIdx.x"}, {"tid.y", "threadIdx.y"}, {"tid.z", "threadIdx.z"},
        {"ntid.x", "blockDim.x"}, {"ntid.y", "blockDim.y"}, {"ntid.z", "blockDim.z"},
        {"ctaid.x", "blockIdx.x"}, {"ctaid.y", "blockIdx.y"}, {"ctaid.z", "blockIdx.z"},
        {"nctaid.x", "gridDim.x"}, {"nctaid.y", "gridDim.y"}, {"nctaid.z", "gridDim.z"},
        {"clock", "static_cast<unsigned int>(clock64())"}, {"clock64", "clock64()"},
        {"globaltimer", "::cuemu::ptx::global_timer()"}, {"globaltimer_lo", "static_cast<unsigned int>(::cuemu::ptx::global_timer())"},
        {"globaltimer_hi", "static_cast<unsigned int>(::cuemu::ptx::global_timer() >> 32)"}};
    auto it = regs.find(name);
    return it == regs.end() ? "" : it->second;
  }

  // The value of operand text `o` as type `t`; "" if it cannot be read.
  std::string value(const std::string& o, const std::string& t) {
    if (o.empty()) return "";
    if (const int n = operand_index(o); n >= 0) {
      if (operand_types[n] == "n") return "static_cast<" + t + ">(__cuemu_p" + std::to_string(n) + ")";
      return "::cuemu::ptx::as<" + t + ">(__cuemu_p" + std::to_string(n) + ")";
    }
    if (o[0] == '%') {
      const std::string name = o.substr(o.size() > 1 && o[1] == '%' ? 2 : 1);
      if (registers.count(name)) return "::cuemu::ptx::as<" + t + ">(__cuemu_r_" + name + ")";
      const std::string s = special(name);
      return s.empty() ? "" : "static_cast<" + t + ">(" + s + ")";
    }
    if (registers.count(o)) return "::cuemu::ptx::as<" + t + ">(__cuemu_r_" + o + ")";
    if (o.size() > 2 && o[0] == '0' && (o[1] == 'f' || o[1] == 'F' || o[1] == 'd' || o[1] == 'D'))
      return "::cuemu::ptx::as<" + t + ">(::cuemu::ptx::bits<" + std::string(o[1] == 'f' || o[1] == 'F' ? "float" : "double") +
             ">(0x" + o.substr(2) + "ull))";
    const bool numeric = std::isdigit(static_cast<unsigned char>(o[0])) ||
                         ((o[0] == '-' || o[0] == '+') && o.size() > 1 && std::isdigit(static_cast<unsigned char>(o[1])));
    if (numeric) {
      for (char c : o)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+')) return "";
      const bool is_float = o.find('.') != std::string::npos;
      return "static_cast<" + t + ">(" + o + (is_float ? "" : "ll") + ")";
    }
    return "";
  }

  // An assignment of `e` to destination operand `o`; "" if `o` cannot be written.
  std::string assign(const std::string& o, const std::string& e) {
    if (o == "_") return "(void)(" + e + ");";
    if (const int n = operand_index(o); n >= 0 && operand_types[n] != "n")
      return "::cuemu::ptx::assign(__cuemu_p" + std::to_string(n) + ", " + e + ");";
    std::string name = o;
    if (!name.empty() && name[0] == '%') name = name.substr(name.size() > 1 && name[1] == '%' ? 2 : 1);
    if (registers.count(name)) return "::cuemu::ptx::assign(__cuemu_r_" + name + ", " + e + ");";
    return "";
  }

  // `[base]`, `[base+off]`, `[base-off]` as a void*; "" otherwise.
  std::string address(const std::string& o) {
    if (o.size() < 3 || o.front() != '[' || o.back() != ']') return "";
    std::string in = trim(std::string_view(o).substr(1, o.size() - 2));
    std::string off = "0";
    for (std::size_t i = 1; i < in.size(); ++i)
      if (in[i] == '+' || in[i] == '-') {
        off = trim(std::string_view(in).substr(i + (in[i] == '+' ? 1 : 0)));
        in = trim(std::string_view(in).substr(0, i));
        break;
      }
    const std::string base = value(in, "unsigned long long");
    const std::string o2 = value(off, "long long");
    if (base.empty() || o2.empty()) return "";
    return "::cuemu::ptx::ptr(" + base + ", " + o2 + ")";
  }

  bool declare(const std::string& stmt) {
    // .reg .TYPE a, b<4>, c;
    std::string rest = trim(std::string_view(stmt).substr(4));
    if (rest.empty() || rest[0] != '.') return fail(stmt);
    std::size_t sp = rest.find_first_of(" \t");
    if (sp == std::string::npos) return fail(stmt);
    std::string type = rest.substr(1, sp - 1);
    const std::string t = cxx_type(type);
    if (t.empty()) return fail(".reg ." + type);
    for (std::string name : split(rest.substr(sp + 1), ',')) {
      const std::size_t lt = name.find('<');
      if (lt != std::string::npos) {
        const int n = std::atoi(name.c_str() + lt + 1);
        if (n < 0 || n > 1024) return fail(".reg " + name);
        const std::string base = name.substr(0, lt);
        for (int i = 0; i < n; ++i) {
          registers.insert(base + std::to_string(i));
          body += t + " __cuemu_r_" + base + std::to_string(i) + "{}; ";
        }
      } else {
        registers.insert(name);
        body += t + " __cuemu_r_" + name + "{}; ";
      }
    }
    return true;
  }

  static int order(const std::set<std::string>& q, int otherwise) {
    if (q.count("relaxed")) return 0;
    if (q.count("acquire")) return 2;
    if (q.count("release")) return 3;
    if (q.count("acq_rel")) return 4;
    if (q.count("sc")) return 5;
    return otherwise;
  }

  bool instruction(const std::string& stmt) {
    std::string s = stmt, guard;
    if (s[0] == '@') {
      std::size_t sp = s.find_first_of(" \t");
      if (sp == std::string::npos) return fail(stmt);
      std::string p = s.substr(1, sp - 1);
      const bool negate = !p.empty() && p[0] == '!';
      if (negate) p = p.substr(1);
      const std::string v = value(p, "bool");
      if (v.empty()) return fail(stmt);
      guard = std::string("if (") + (negate ? "!" : "") + v + ") ";
      s = trim(std::string_view(s).substr(sp));
    }
    const std::size_t sp = s.find_first_of(" \t");
    const std::string mnemonic = s.substr(0, sp);
    const std::vector<std::string> ops = sp == std::string::npos ? std::vector<std::string>{} : split(s.substr(sp), ',');
    std::vector<std::string> parts = split(mnemonic, '.');
    const std::string op = parts[0];
    std::set<std::string> q(parts.begin() + 1, parts.end());
    std::string type;  // the last part that is a type
    for (auto it = parts.rbegin(); it != parts.rend() - 1; ++it)
      if (!cxx_type(*it).empty()) {
        type = *it;
        break;
      }
    const std::string t = cxx_type(type);
    std::string code = emit(op, q, parts, t, type, ops);
    if (code.empty()) return fail(mnemonic);
    body += guard + "{ " + code + " } ";
    return true;
  }

  std::string v(const std::vector<std::string>& ops, std::size_t i, const std::string& t) {
    return i < ops.size() ? value(ops[i], t) : "";
  }

  std::string emit(const std::string& op, const std::set<std::string>& q, const std::vector<std::string>& parts,
                   const std::string& t, const std::string& type, const std::vector<std::string>& ops) {
    const auto all = [](std::initializer_list<std::string> xs) {
      for (const auto& x : xs)
        if (x.empty()) return false;
      return true;
    };
    const auto unary = [&](const std::string& f) -> std::string {
      if (ops.size() != 2 || t.empty()) return "";
      const std::string a = v(ops, 1, t);
      return a.empty() ? "" : assign(ops[0], f + "(" + a + ")");
    };
    const auto binary = [&](const std::string& f, const std::string& bt = "") -> std::string {
      if (ops.size() != 3 || t.empty()) return "";
      const std::string a = v(ops, 1, t), b = v(ops, 2, bt.empty() ? t : bt);
      return all({a, b}) ? assign(ops[0], f + "(" + a + ", " + b + ")") : "";
    };
    if (op == "griddepcontrol") return "(void)0;";
    // cp.async (sm_80): the copy is done at once, which is one schedule a GPU may give; commits
    // and waits then have nothing to wait for.
    if (op == "cp" && q.count("async") && !q.count("bulk")) {
      if (q.count("commit_group") || q.count("wait_group") || q.count("wait_all")) return "(void)0;";
      if (ops.size() < 3) return "";
      const std::string dst = address(ops[0]), src = address(ops[1]);
      const std::string n = v(ops, 2, "unsigned int");
      const bool hint = q.count("L2::cache_hint") != 0;
      const bool has_src_size = ops.size() >= 5 || (ops.size() == 4 && !hint);
      const std::string src_n = has_src_size ? v(ops, 3, "unsigned int") : n;
      if (dst.empty() || src.empty() || n.empty() || src_n.empty()) return "";
      return "::cuemu::ptx::cp_async(" + dst + ", " + src + ", " + n + ", " + src_n + ");";
    }
    if (op == "membar" || (op == "fence" && !q.count("proxy") && !q.count("mbarrier_init")))
      return "__threadfence();";
    if (op == "fence") return "__asm__ __volatile__(\"\" ::: \"memory\");";
    if (op == "trap") return "__trap();";
    if (op == "exit" && ops.empty()) return "::cuemu::detail::exit_thread();";
    if (op == "nanosleep") {
      const std::string a = v(ops, 0, "unsigned int");
      return a.empty() ? "" : "__nanosleep(" + a + ");";
    }
    if (op == "activemask" && ops.size() == 1) return assign(ops[0], "__activemask()");
    if ((op == "bar" || op == "barrier") && (q.count("sync") || q.count("cta") || parts.size() == 1)) {
      if (q.count("warp")) {
        const std::string m = v(ops, 0, "unsigned int");
        return m.empty() ? "" : "__syncwarp(" + m + ");";
      }
      if (ops.size() == 1 && (ops[0] == "0")) return "__syncthreads();";
      return "";
    }
    if (op == "ld" || op == "st") return memory(op, q, t, ops);
    if (op == "atom" || op == "red") return atomic(op, q, parts, t, type, ops);
    if (op == "mov") return move(t, ops);
    if (op == "cvta") return "";
    if (op == "isspacep") {  // every address counts as global (see __isGlobal)
      if (ops.size() != 2) return "";
      return assign(ops[0], q.count("global") ? "true" : "false");
    }
    if (op == "prefetch" || op == "prefetchu") return "(void)0;";
    if (op == "bmsk") {
      if (ops.size() != 3) return "";
      const std::string a = v(ops, 1, "unsigned int"), b = v(ops, 2, "unsigned int");
      return all({a, b}) ? assign(ops[0], "::cuemu::ptx::bmsk(" + a + ", " + b + ", " + (q.count("wrap") ? "true" : "false") + ")") : "";
    }
    if (op == "elect" && q.count("sync") && ops.size() == 2) {
      const std::string m = v(ops, 1, "unsigned int");
      if (m.empty()) return "";
      const std::size_t bar = ops[0].find('|');
      const std::string leader = "::cuemu::ptx::elect_leader(" + m + ")";
      std::string code = "__syncwarp(" + m + "); ";
      if (bar == std::string::npos) return code + assign(ops[0], leader);
      const std::string d = trim(ops[0].substr(0, bar)), p = trim(ops[0].substr(bar + 1));
      const std::string sd = d == "_" ? "" : assign(d, leader);
      const std::string sp = assign(p, "(::cuemu::detail::lane_id() == " + leader + ")");
      return (d != "_" && sd.empty()) || sp.empty() ? "" : code + sd + " " + sp;
    }
    if (op == "cvt") {
      // cvt.TO.FROM between integer types (and float <-> the same width by value).
      if (parts.size() < 3 || ops.size() != 2) return "";
      const std::string to = cxx_type(parts[parts.size() - 2]), from = cxx_type(parts.back());
      if (to.empty() || from.empty() || (to != from && (to == "float" || to == "double" || from == "float" || from == "double") &&
                                          !(q.count("rn") || q.count("rzi") || q.count("rni") || q.count("rz"))))
        return "";
      const std::string a = v(ops, 1, from);
      if (a.empty()) return "";
      return assign(ops[0], "::cuemu::ptx::cvt<" + to + ">(" + a + ", \"" + parts[1] + "\")");
    }
    if (op == "add" || op == "sub" || op == "min" || op == "max" || op == "and" || op == "or" || op == "xor") {
      if (t.empty()) return "";
      return binary("::cuemu::ptx::" + op + "_<" + t + ">");
    }
    if (op == "mul" || op == "mad") {
      std::string mode = q.count("hi") ? "hi" : q.count("wide") ? "wide" : "lo";
      if (t == "float" || t == "double") mode = "lo";
      if (op == "mul") return binary("::cuemu::ptx::mul_" + mode + "<" + t + ">");
      if (ops.size() != 4 || t.empty()) return "";
      const std::string wt = mode == "wide" ? (type[0] == 's' ? "long long" : "unsigned long long") : t;
      const std::string a = v(ops, 1, t), b = v(ops, 2, t), c = v(ops, 3, wt);
      return all({a, b, c}) ? assign(ops[0], "::cuemu::ptx::mad_" + mode + "<" + t + ">(" + a + ", " + b + ", " + c + ")") : "";
    }
    if (op == "neg") return unary("-");
    if (op == "not") return unary("~");
    if (op == "abs") return unary("::cuemu::ptx::abs_<" + t + ">");
    if (op == "popc") return unary("::cuemu::ptx::popc<" + t + ">");
    if (op == "clz") return unary("::cuemu::ptx::clz<" + t + ">");
    if (op == "brev") return unary("::cuemu::ptx::brev<" + t + ">");
    if (op == "bfind") return unary(std::string("::cuemu::ptx::bfind<") + t + ", " + (q.count("shiftamt") ? "true" : "false") + ">");
    if (op == "shl" || op == "shr") return binary("::cuemu::ptx::" + op + "<" + t + ">", "unsigned int");
    if (op == "shf") {
      if (ops.size() != 4) return "";
      const std::string a = v(ops, 1, "unsigned int"), b = v(ops, 2, "unsigned int"), c = v(ops, 3, "unsigned int");
      if (!all({a, b, c})) return "";
      return assign(ops[0], std::string("::cuemu::ptx::shf(") + a + ", " + b + ", " + c + ", " + (q.count("l") ? "true" : "false") +
                                ", " + (q.count("wrap") ? "true" : "false") + ")");
    }
    const bool video2 = op == "vadd2" || op == "vsub2" || op == "vabsdiff2" || op == "vmin2" ||
                        op == "vmax2" || op == "vavrg2";
    if (video2 || op == "vadd4" || op == "vsub4" || op == "vabsdiff4" || op == "vmin4" ||
        op == "vmax4" || op == "vavrg4") {
      // vop4.dtype.atype.btype{.sat}{.add} d, a, b, c and vop2 alike (no lane mask or operand
      // selectors: all lanes, a's and b's own).
      if (ops.size() != 4 || parts.size() < 4) return "";
      for (const std::string& m : {"b0", "b1", "b2", "b3", "b10", "b32", "b3210", "h0", "h1"})
        if (q.count(m) && m != "b3210") return "";  // a partial destination mask: not handled
      if (q.count("min") || q.count("max")) return "";  // ptxas: illegal for the 4-way forms
      const bool add = q.count("add") != 0;
      const std::string name = op.substr(1, op.size() - 2);
      const std::string a = v(ops, 1, "unsigned int"), b = v(ops, 2, "unsigned int"),
                        c = v(ops, 3, "unsigned int");
      if (!all({a, b, c})) return "";
      const auto s = [&](std::size_t i) { return parts[i][0] == 's' ? "true" : "false"; };
      return assign(ops[0], std::string("::cuemu::ptx::video<") + (video2 ? "2" : "4") +
                                ">(::cuemu::ptx::video_op::" +
                                name + ", " + a + ", " + b + ", " + c + ", " + s(1) + ", " +
                                s(2) + ", " + s(3) + ", " + (add ? "true" : "false") + ", " +
                                (q.count("sat") ? "true" : "false") + ")");
    }
    if (op == "prmt") {
      static const char* const modes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
      int mode = 0;
      for (int i = 0; i < 6; ++i)
        if (q.count(modes[i])) mode = i + 1;
      if (ops.size() != 4) return "";
      const std::string a = v(ops, 1, "unsigned int"), b = v(ops, 2, "unsigned int"), c = v(ops, 3, "unsigned int");
      return all({a, b, c}) ? assign(ops[0], "::cuemu::ptx::prmt(" + a + ", " + b + ", " + c + ", " + std::to_string(mode) + ")") : "";
    }
    if (op == "lop3") {
      if (ops.size() != 5) return "";
      const std::string a = v(ops, 1, t), b = v(ops, 2, t), c = v(ops, 3, t), l = v(ops, 4, "unsigned int");
      return all({a, b, c, l}) ? assign(ops[0], "::cuemu::ptx::lop3<" + t + ">(" + a + ", " + b + ", " + c + ", " + l + ")") : "";
    }
    if (op == "bfe") {
      if (ops.size() != 4) return "";
      const std::string a = v(ops, 1, t), b = v(ops, 2, "unsigned int"), c = v(ops, 3, "unsigned int");
      return all({a, b, c}) ? assign(ops[0], "::cuemu::ptx::bfe<" + t + ">(" + a + ", " + b + ", " + c + ")") : "";
    }
    if (op == "bfi") {
      if (ops.size() != 5) return "";
      const std::string a = v(ops, 1, t), b = v(ops, 2, t), c = v(ops, 3, "unsigned int"), d = v(ops, 4, "unsigned int");
      return all({a, b, c, d}) ? assign(ops[0], "::cuemu::ptx::bfi<" + t + ">(" + a + ", " + b + ", " + c + ", " + d + ")") : "";
    }
    if (op == "selp") {
      if (ops.size() != 4) return "";
      const std::string a = v(ops, 1, t), b = v(ops, 2, t), c = v(ops, 3, "bool");
      return all({a, b, c}) ? assign(ops[0], "(" + c + " ? " + a + " : " + b + ")") : "";
    }
    if (op == "setp") {
      static const std::map<std::string, std::string> cmps = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="},
                                                              {"gt", ">"},  {"ge", ">="}, {"lo", "<"}, {"ls", "<="},
                                                              {"hi", ">"},  {"hs", ">="}};
      if (parts.size() < 3 || ops.size() != 3 || !cmps.count(parts[1])) return "";
      const std::string a = v(ops, 1, t), b = v(ops, 2, t);
      std::string dst = ops[0];
      if (dst.find('|') != std::string::npos) return "";
      return all({a, b}) ? assign(dst, "(" + a + " " + cmps.at(parts[1]) + " " + b + ")") : "";
    }
    if (op == "shfl" && q.count("sync") && ops.size() == 5) {
      std::string mode = q.count("up") ? "1" : q.count("down") ? "2" : q.count("bfly") ? "3" : q.count("idx") ? "0" : "";
      const std::string a = v(ops, 1, "unsigned int"), b = v(ops, 2, "unsigned int"), c = v(ops, 3, "unsigned int"),
                        m = v(ops, 4, "unsigned int");
      if (mode.empty() || !all({a, b, c, m})) return "";
      const std::string call = "::cuemu::ptx::shfl(" + mode + ", " + a + ", " + b + ", " + c + ", " + m;
      const std::size_t bar = ops[0].find('|');
      if (bar == std::string::npos) return assign(ops[0], call + ")");
      // d|p: the value and whether the source lane was in range.
      const std::string d = assign(trim(ops[0].substr(0, bar)), call + ", &__cuemu_in_range)");
      const std::string p = assign(trim(ops[0].substr(bar + 1)), "__cuemu_in_range");
      return d.empty() || p.empty() ? "" : "bool __cuemu_in_range = false; " + d + " " + p;
    }
    if (op == "vote" && q.count("sync") && ops.size() == 3) {
      const std::string p = v(ops, 1, "bool"), m = v(ops, 2, "unsigned int");
      if (!all({p, m})) return "";
      if (q.count("ballot")) return assign(ops[0], "__ballot_sync(" + m + ", " + p + ")");
      if (q.count("any")) return assign(ops[0], "__any_sync(" + m + ", " + p + ")");
      if (q.count("all")) return assign(ops[0], "__all_sync(" + m + ", " + p + ")");
      if (q.count("uni")) return assign(ops[0], "::cuemu::ptx::vote_uni(" + m + ", " + p + ")");
    }
    return "";
  }

  std::string memory(const std::string& op, const std::set<std::string>& q, const std::string& t,
                     const std::vector<std::string>& ops) {
    if (t.empty() || ops.size() != 2) return "";
    // Ordering: relaxed/acquire/release are atomic, and so are .volatile (PTX's memory model
    // treats it as relaxed at system scope: CUB's decoupled look-back polls with it) and the
    // uncached .cv; weak, mmio and the default are plain (volatile) accesses.
    int ord = order(q, -1);
    if (ord < 0 && (q.count("volatile") || q.count("cv"))) ord = 0;
    int lanes = 1;
    if (q.count("v2")) lanes = 2;
    if (q.count("v4")) lanes = 4;
    if (q.count("v8")) lanes = 8;
    const std::string& data = op == "ld" ? ops[0] : ops[1];
    const std::string addr = address(op == "ld" ? ops[1] : ops[0]);
    if (addr.empty()) return "";
    std::vector<std::string> items;
    if (lanes == 1) {
      items.push_back(data);
    } else {
      if (data.size() < 2 || data.front() != '{' || data.back() != '}') return "";
      items = split(data.substr(1, data.size() - 2), ',');
      if (static_cast<int>(items.size()) != lanes) return "";
    }
    std::string code = "void* __cuemu_a = " + addr + "; ";
    if (lanes > 1 && ord >= 0) {  // an ordered vector access is one access (cuemu/ptx.h)
      const std::string vt = "::cuemu::ptx::vec<" + t + ", " + std::to_string(lanes) + ">";
      if (op == "ld") {
        code += vt + " __cuemu_v = ::cuemu::ptx::ld_vec<" + t + ", " + std::to_string(lanes) + ">(__cuemu_a, " +
                std::to_string(ord) + "); ";
        for (int i = 0; i < lanes; ++i) {
          const std::string s = assign(items[i], "__cuemu_v.e[" + std::to_string(i) + "]");
          if (s.empty()) return "";
          code += s + " ";
        }
      } else {
        code += vt + " __cuemu_v; ";
        for (int i = 0; i < lanes; ++i) {
          const std::string x = value(items[i], t);
          if (x.empty()) return "";
          code += "__cuemu_v.e[" + std::to_string(i) + "] = " + x + "; ";
        }
        code += "::cuemu::ptx::st_vec<" + t + ", " + std::to_string(lanes) + ">(__cuemu_a, __cuemu_v, " +
                std::to_string(ord) + "); ";
      }
      return code;
    }
    for (int i = 0; i < lanes; ++i) {
      const std::string at = "static_cast<char*>(__cuemu_a) + " + std::to_string(i) + " * sizeof(" + t + ")";
      if (op == "ld") {
        const std::string s = assign(items[i], "::cuemu::ptx::ld<" + t + ">(" + at + ", " + std::to_string(ord) + ")");
        if (s.empty()) return "";
        code += s + " ";
      } else {
        const std::string x = value(items[i], t);
        if (x.empty()) return "";
        code += "::cuemu::ptx::st<" + t + ">(" + at + ", " + x + ", " + std::to_string(ord) + "); ";
      }
    }
    return code;
  }

  std::string atomic(const std::string& op, const std::set<std::string>& q, const std::vector<std::string>& parts,
                     const std::string& t, const std::string& type, const std::vector<std::string>& ops) {
    static const std::set<std::string> kinds = {"add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas"};
    std::string kind;
    for (std::size_t i = 1; i < parts.size(); ++i)
      if (kinds.count(parts[i])) kind = parts[i];
    if (kind.empty() || t.empty() || t == "bool" || q.count("v2") || q.count("v4")) return "";
    (void)type;
    const int ord = order(q, 0);
    const bool red = op == "red";
    const std::size_t first = red ? 0 : 1;
    const std::size_t need = first + (kind == "cas" ? 3 : 2);
    if (ops.size() != need) return "";
    const std::string addr = address(ops[first]);
    const std::string b = value(ops[first + 1], t);
    const std::string c = kind == "cas" ? value(ops[first + 2], t) : "";
    if (addr.empty() || b.empty() || (kind == "cas" && c.empty())) return "";
    const std::string call = "::cuemu::ptx::atom_" + kind + "<" + t + ">(" + addr + ", " + b + (kind == "cas" ? ", " + c : "") +
                             ", " + std::to_string(ord) + ")";
    return red ? "(void)" + call + ";" : assign(ops[0], call);
  }

  std::string move(const std::string& t, const std::vector<std::string>& ops) {
    if (ops.size() != 2 || t.empty()) return "";
    const std::string& d = ops[0];
    const std::string& a = ops[1];
    const auto halves = [&](const std::string& braces) {
      return split(braces.substr(1, braces.size() - 2), ',');
    };
    const std::string half = t == "unsigned long long" ? "unsigned int" : t == "unsigned int" ? "unsigned short" : "";
    if (!a.empty() && a.front() == '{') {  // pack {lo, hi}
      const auto h = halves(a);
      if (h.size() != 2 || half.empty()) return "";
      const std::string lo = value(h[0], half), hi = value(h[1], half);
      if (lo.empty() || hi.empty()) return "";
      return assign(d, "::cuemu::ptx::pack<" + t + ">(" + lo + ", " + hi + ")");
    }
    if (!d.empty() && d.front() == '{') {  // unpack into {lo, hi}
      const auto h = halves(d);
      const std::string x = value(a, t);
      if (h.size() != 2 || half.empty() || x.empty()) return "";
      const std::string s0 = assign(h[0], "static_cast<" + half + ">(" + x + ")");
      const std::string s1 = assign(h[1], "static_cast<" + half + ">(" + x + " >> (8 * sizeof(" + half + ")))");
      return s0.empty() || s1.empty() ? "" : s0 + " " + s1;
    }
    const std::string x = value(a, t);
    return x.empty() ? "" : assign(d, x);
  }
};

}  // namespace

std::string ptx_statement(const std::string& text, bool has_operands, const std::vector<asm_operand>& outputs,
                          const std::vector<asm_operand>& inputs, std::string& unsupported) {
  translator tr;
  tr.has_operands = has_operands;
  std::string prologue, epilogue;
  const std::size_t n = outputs.size() + inputs.size();
  for (std::size_t i = 0; i < n; ++i) {
    const asm_operand& o = i < outputs.size() ? outputs[i] : inputs[i - outputs.size()];
    std::string t = constraint_type(o.constraint);
    if (t.empty()) {
      unsupported = "an operand with constraint \"" + o.constraint + "\"";
      return "";
    }
    tr.operand_types.push_back(t);
    const std::string local = "__cuemu_p" + std::to_string(i);
    const bool output = i < outputs.size();
    const bool in_out = output && o.constraint.find('+') != std::string::npos;
    if (t == "n") {
      prologue += "const long long " + local + " = (" + o.expr + "); ";
    } else if (!output || in_out) {
      prologue += t + " " + local + " = ::cuemu::ptx::operand<" + t + ">(" + o.expr + "); ";
    } else {
      prologue += t + " " + local + "{}; ";
    }
    if (output) epilogue += "::cuemu::ptx::assign(" + o.expr + ", " + local + "); ";
  }
  // Statements end at ';'; braces open and close scopes; `//` comments end at a newline.
  std::string stmt;
  std::vector<std::string> stmts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == ';' || ((c == '{' || c == '}') && trim(stmt).empty())) {
      if (!trim(stmt).empty()) stmts.push_back(trim(stmt));
      stmt.clear();
      continue;
    }
    stmt += c;
  }
  if (!trim(stmt).empty()) stmts.push_back(trim(stmt));
  for (std::string s : stmts) {
    // A label `name:` before the statement.
    const std::size_t colon = s.find(':');
    if (colon != std::string::npos && s.find_first_of(" \t[{,") > colon) s = trim(std::string_view(s).substr(colon + 1));
    if (s.empty()) continue;
    if (s.rfind(".reg", 0) == 0) {
      if (!tr.declare(s)) break;
      continue;
    }
    if (s[0] == '.') {
      tr.fail(s.substr(0, s.find_first_of(" \t")));
      break;
    }
    if (!tr.instruction(s)) break;
  }
  if (!tr.unsupported.empty()) {
    unsupported = tr.unsupported;
    return "";
  }
  return "do { " + prologue + tr.body + epilogue + "} while (0)";
}

}  // namespace cuemu::translate
