// cuemu-regions: parses a .cu with clang (as C++, the emulator's headers marking kernels) and
// writes it back with a region form (cuemu/regions.h) at the top of every kernel it can prove
// safe. Run by the cuemu driver before preprocessing; never changes what the kernel does.
//
//   cuemu-regions IN.cu -o OUT.cu --file NAME [--report FILE] -- CLANG_ARGS...
//
// NAME: the name #line directives give (the user's spelling of IN.cu). The report has one line
// per kernel of IN.cu: "NAME:LINE: kernel K: loops over threads" (with how many regions run only
// the threads below a bound) or "...: coroutines (WHY)".
// Exit status: 0 when OUT.cu was written with at least one region form, 3 when no kernel has
// one (OUT.cu is not written), 2 on bad usage or when IN.cu cannot be read.
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Rewrite/Core/Rewriter.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Tooling.h>

#include <cctype>
#include <climits>
#include <cstdlib>
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "regions/inline_calls.h"
#include "regions/kernel_regions.h"
#include "regions/quote.h"

namespace {

using namespace cuemu::regions;

struct run_state {
  std::string file;      // for #line
  std::string original;  // the file as written, launch configurations and all
  std::vector<kernel_result> kernels;
  // Per kernel: where its region form goes (after the body's '{'; 0 if none) and where its
  // body ends.
  std::vector<unsigned> at, end;
  // The first parse: the kernels' calls of functions that synchronise, to write out (the
  // second parse reads the file with them written out).
  std::vector<text_edit> edits;
  bool written_out = false;
};

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The file as clang parses it: every launch configuration `<<<...>>>` blanked (spaces, newlines
// kept), so that `k<<<g, b>>>(args)` reads as the call `k(args)`: host code parses, and a kernel
// template is instantiated for the types its launches use. Offsets do not move.

std::string without_launch_syntax(std::string t) {
  const std::size_t n = t.size();
  for (std::size_t i = 0; i < n;) {
    const char c = t[i];
    if (c == '/' && i + 1 < n && t[i + 1] == '/') {
      while (i < n && t[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
      const std::size_t e = t.find("*/", i + 2);
      i = e == std::string::npos ? n : e + 2;
    } else if (c == '"' || c == '\'') {
      for (++i; i < n && t[i] != c; ++i)
        if (t[i] == '\\') ++i;
      ++i;
    } else if (t.compare(i, 12, "__noinline__") == 0 && (i == 0 || !ident(t[i - 1])) &&
               (i + 12 >= n || !ident(t[i + 12]))) {
      // CUDA's __noinline__ written as a function's qualifier: the emulator's headers leave it
      // undefined (as an attribute name, __attribute__((__noinline__)) in system headers, it
      // must stay itself), and the translator rewrites it; here it becomes a name of the same
      // length that the parse defines as the attribute. Where it sits inside an attribute (after
      // '(', ',' or ':') it is left alone.
      std::size_t b = i;
      while (b > 0 && std::isspace(static_cast<unsigned char>(t[b - 1]))) --b;
      if (b == 0 || (t[b - 1] != '(' && t[b - 1] != ',' && t[b - 1] != ':')) t.replace(i, 12, "__cuemu_ni__");
      i += 12;
    } else if (t.compare(i, 3, "<<<") == 0) {
      int depth = 0;
      std::size_t j = i + 3;
      for (; j + 2 < n; ++j) {
        if (t[j] == '(' || t[j] == '[' || t[j] == '{') ++depth;
        if (t[j] == ')' || t[j] == ']' || t[j] == '}') --depth;
        if (depth <= 0 && t.compare(j, 3, ">>>") == 0) break;
      }
      if (j + 2 >= n) return t;  // unbalanced: leave it to clang
      for (std::size_t k = i; k < j + 3; ++k)
        if (t[k] != '\n') t[k] = ' ';
      i = j + 3;
    } else {
      ++i;
    }
  }
  return t;
}

class kernel_finder : public clang::RecursiveASTVisitor<kernel_finder> {
 public:
  explicit kernel_finder(clang::ASTContext& ctx) : sm_(ctx.getSourceManager()) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitFunctionDecl(clang::FunctionDecl* fn) {
    if (!fn->doesThisDeclarationHaveABody() || !fn->hasAttrs()) return true;
    if (fn->getTemplateSpecializationKind() == clang::TSK_ImplicitInstantiation) return true;
    bool kernel = false;
    for (const auto* a : fn->specific_attrs<clang::AnnotateAttr>())
      if (a->getAnnotation() == "cuemu_global") kernel = true;
    if (!kernel) return true;
    if (!sm_.isInMainFile(sm_.getExpansionLoc(fn->getBody()->getBeginLoc()))) return true;
    found.push_back(fn);
    return true;
  }
  std::vector<const clang::FunctionDecl*> found;

 private:
  clang::SourceManager& sm_;
};

class consumer : public clang::ASTConsumer {
 public:
  explicit consumer(run_state& st) : st_(st) {}
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    kernel_finder f(ctx);
    f.TraverseDecl(ctx.getTranslationUnitDecl());
    sync_calls calls(ctx);
    clang::SourceManager& sm = ctx.getSourceManager();
    for (const clang::FunctionDecl* k : f.found) {
      kernel_result r = translate_kernel(ctx, calls, k, st_.file, st_.original);
      unsigned at = 0, end = 0;
      const auto* body = llvm::cast<clang::CompoundStmt>(k->getBody());
      const clang::SourceLocation brace = body->getLBracLoc(), rbrace = body->getRBracLoc();
      if (!brace.isMacroID() && sm.getFileID(brace) == sm.getMainFileID() && !rbrace.isMacroID() &&
          sm.getFileID(rbrace) == sm.getMainFileID())
        end = sm.getFileOffset(rbrace);
      if (r.regions) {
        if (end == 0) {
          r.regions = false;
          r.why = "its body could not be rewritten";
        } else {
          at = sm.getFileOffset(brace) + 1;
        }
      }
      st_.kernels.push_back(std::move(r));
      st_.at.push_back(at);
      st_.end.push_back(end);
    }
    if (!st_.written_out) st_.edits = inline_sync_calls(ctx, calls, f.found, st_.file, st_.original);
  }

 private:
  run_state& st_;
};

class action : public clang::ASTFrontendAction {
 public:
  explicit action(run_state& st) : st_(st) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& ci,
                                                        llvm::StringRef) override {
    // The parse only has to see the kernels: errors elsewhere (a <<<...>>> launch is not C++)
    // are expected and not shown.
    ci.getDiagnostics().setSuppressAllDiagnostics(!std::getenv("CUEMU_REGIONS_DIAGNOSTICS"));
    return std::make_unique<consumer>(st_);
  }

 private:
  run_state& st_;
};

class action_factory : public clang::tooling::FrontendActionFactory {
 public:
  explicit action_factory(run_state& st) : st_(st) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::make_unique<action>(st_); }

 private:
  run_state& st_;
};


// Parses the text of st.original (as the file at `path`) and translates its kernels into st.
void parse(const clang::tooling::CompilationDatabase& db, const std::string& path, run_state& st) {
  clang::tooling::ClangTool tool(db, {path});
  const std::string parsed = without_launch_syntax(st.original);  // mapVirtualFile keeps a reference
  tool.mapVirtualFile(path, parsed);
  // CUEMU_REGIONS_DIAGNOSTICS=1 shows clang's messages (errors outside kernels are expected).
  clang::IgnoringDiagConsumer quiet;
  if (!std::getenv("CUEMU_REGIONS_DIAGNOSTICS")) tool.setDiagnosticConsumer(&quiet);
  action_factory factory(st);
  tool.run(&factory);  // errors outside the kernels are expected (see action)
}

int usage() {
  std::fprintf(stderr,
               "usage: cuemu-regions IN.cu -o OUT.cu --file NAME [--report FILE] -- CLANG_ARGS...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string in, out, report;
  run_state st;
  std::vector<std::string> args;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if ((a == "-o" || a == "--file" || a == "--report") && i + 1 < argc) {
      (a == "-o" ? out : a == "--file" ? st.file : report) = argv[++i];
    } else if (in.empty() && !a.empty() && a[0] != '-') {
      in = a;
    } else {
      return usage();
    }
  }
  for (; i < argc; ++i) args.emplace_back(argv[i]);
  if (in.empty() || out.empty()) return usage();
  if (st.file.empty()) st.file = in;
  if (!std::ifstream(in)) {
    std::fprintf(stderr, "cuemu-regions: cannot read %s\n", in.c_str());
    return 2;
  }
  args.push_back("-ferror-limit=0");
  args.push_back("-w");
  clang::tooling::FixedCompilationDatabase db(".", args);
  std::string text;
  {
    std::ifstream f(in, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  // The tool's file names are absolute (its virtual file system overlays the blanked text there).
  char resolved[PATH_MAX];
  const std::string path = realpath(in.c_str(), resolved) ? resolved : in;
  st.original = text;
  parse(db, path, st);
  // Again with the kernels' calls of functions that synchronise written out: a kernel takes that
  // translation where it cuts more of the kernel into loops (fewer statements as coroutines).
  if (!st.edits.empty()) {
    run_state second;
    second.file = st.file;
    second.written_out = true;
    second.original = text;
    for (auto e = st.edits.rbegin(); e != st.edits.rend(); ++e)
      second.original.replace(e->from, e->to - e->from, e->text);
    parse(db, path, second);
    // CUEMU_REGIONS_WRITTEN_OUT=FILE: the text the second parse read (for the translation's developers).
    if (const char* dump = std::getenv("CUEMU_REGIONS_WRITTEN_OUT")) std::ofstream(dump) << second.original;
    // An offset of the second text outside the edits, in the first.
    auto back = [&](unsigned o) {
      long delta = 0;
      for (const text_edit& e : st.edits) {
        if (o <= e.from + delta) break;
        delta += static_cast<long>(e.text.size()) - static_cast<long>(e.to - e.from);
      }
      return static_cast<unsigned>(o - delta);
    };
    for (std::size_t k = 0; k < st.kernels.size() && k < second.kernels.size(); ++k) {
      kernel_result& a = st.kernels[k];
      kernel_result& b = second.kernels[k];
      if (a.name != b.name || a.line != b.line || !b.regions) continue;
      if (a.regions && b.fibers.size() >= a.fibers.size()) continue;
      unsigned n = 0;
      for (const text_edit& e : st.edits)
        if (e.from > st.at[k] && e.to <= st.end[k]) ++n;
      if (n == 0 || st.end[k] == 0) continue;
      // What the written-out copies add to a user's warnings (a parameter passed on and never
      // read otherwise, ...): the region form is exempt from them; the functions themselves and
      // the kernel as written are compiled too, with every warning of their own.
      std::string code = std::move(b.code);
      const std::size_t tail = code.rfind("\n#line ");
      code.insert(tail == std::string::npos ? code.size() : tail, "\n#pragma GCC diagnostic pop");
      code = "\n#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wshadow\"\n"
             "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
             "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n" + code;
      b.code = std::move(code);
      b.written_out = n;
      a = std::move(b);
      st.at[k] = back(second.at[k]);
    }
  }

  std::string lines;
  for (const kernel_result& k : st.kernels) {
    std::string how = k.regions ? "loops over threads" : "coroutines (" + k.why + ")";
    if (k.written_out)
      how += " (" + std::to_string(k.written_out) + " call" + (k.written_out > 1 ? "s" : "") +
             " of functions that synchronise written out)";
    if (k.bounded)
      how += " (" + std::to_string(k.bounded) + " of its regions run only the threads below a bound)";
    for (const auto& [line, why] : k.fibers)
      how += "; the statement at line " + std::to_string(line) + " as coroutines (" + why + ")";
    lines += st.file + ":" + std::to_string(k.line) + ": kernel " + k.name + ": " + how + "\n";
  }
  if (!report.empty()) std::ofstream(report) << lines;
  std::vector<std::pair<unsigned, std::string>> inserts;  // (offset in the file, region form)
  for (std::size_t k = 0; k < st.kernels.size(); ++k)
    if (st.kernels[k].regions && st.at[k]) inserts.emplace_back(st.at[k], st.kernels[k].code);
  if (inserts.empty()) return 3;
  std::sort(inserts.begin(), inserts.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [offset, code] : inserts) text.insert(offset, code);
  std::ofstream w(out, std::ios::binary);
  w << "#line 1 " << quote(st.file) << "\n" << text;
  if (!w) {
    std::fprintf(stderr, "cuemu-regions: cannot write %s\n", out.c_str());
    return 2;
  }
  return 0;
}
