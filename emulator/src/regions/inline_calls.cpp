// Writing out the calls of the user's synchronising functions in kernels (see inline_calls.h).
//
// A statement S holding the call C = f(a0, a1, ...) becomes
//   R __cuemu_rN{};                                 (f returns R)
//   { P0 p0__cuemuN = (a0); P1 p1__cuemuN = (a1); ...
//   #line <f's body>
//     <f's statements, every variable of f renamed NAME__cuemuN; its last `return X;` as
//      `__cuemu_rN = (X);`> }
//   #line <S>
//   S with C replaced by __cuemu_rN
// and the same is done inside f's statements for the calls they make. Evaluating C before the
// rest of S is one of the orders C++ allows where nothing else in S has side effects and C is not
// under ?:, &&, || or a comma. The renaming keeps f's variables from meeting the caller's in one
// region (the region form binds the caller's live variables by name); a static, extern or
// __shared__ variable keeps its name (one object for every call), and a function declaring one
// is written out once per kernel. Template arguments are written where f's body names its
// parameters. The region translation then sees f's barriers as the kernel's own; where it cannot
// cut the result better than the kernel as written, cuemu-regions keeps the kernel's translation
// without the written-out calls (main.cpp).
#include "regions/inline_calls.h"
#include "regions/quote.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <map>
#include <set>

namespace cuemu::regions {
namespace {

struct no_inline {};  // this call stays a call

struct splice {
  unsigned from = 0, to = 0;  // offsets in one file
  std::string text;
};

// What the written-out code of one kernel is inside: the names the kernel's variables may hide
// (the written-out functions' own variables are renamed), and the functions on the way.
struct frame {
  std::set<std::string> names;
  std::vector<const clang::FunctionDecl*> active;
};

class inliner {
 public:
  inliner(clang::ASTContext& ctx, sync_calls& calls, const std::string& file, const std::string& original)
      : ctx_(ctx), sm_(ctx.getSourceManager()), calls_(calls), file_(file), original_(original) {}

  std::vector<splice> kernel(const clang::FunctionDecl* k) {
    k_ = k;
    for (;;) {
      uses_.clear();
      frame f;
      f.active.push_back(k);
      add_names(k, f);
      std::vector<splice> out;
      walk(k->getBody(), out, f);
      // A function with declarations the region form moves to the kernel's top (shared,
      // static, constexpr, types) can be written out once per kernel.
      bool again = false;
      for (const auto& [fn, n] : uses_)
        if (n > 1 && top_level_decls(fn)) again = banned_.insert(fn).second || again;
      if (again) continue;
      // Functions calling others several times, nested: the copies multiply. A kernel whose
      // written-out text would pass 1 MiB (CUEMU_REGIONS_WRITE_OUT_LIMIT bytes, for tests) keeps
      // its calls.
      std::size_t bytes = 0, limit = 1u << 20;
      if (const char* e = std::getenv("CUEMU_REGIONS_WRITE_OUT_LIMIT")) limit = std::strtoull(e, nullptr, 10);
      for (const splice& sp : out) bytes += sp.text.size();
      return bytes > limit ? std::vector<splice>{} : out;
    }
  }

 private:
  bool syncs(const clang::FunctionDecl* fn) {
    const sync_summary& s = calls_.of(fn);
    return s.barrier || s.shuffle || s.barrier_below;
  }

  static void collect_names(const clang::Stmt* s, std::set<std::string>& out) {
    struct v : clang::RecursiveASTVisitor<v> {
      std::set<std::string>* out;
      bool VisitVarDecl(clang::VarDecl* d) {
        if (d->getIdentifier()) out->insert(d->getName().str());
        return true;
      }
    } w;
    w.out = &out;
    w.TraverseStmt(const_cast<clang::Stmt*>(s));
  }
  static void add_names(const clang::FunctionDecl* fn, frame& f) {
    for (const clang::ParmVarDecl* p : fn->parameters())
      if (p->getIdentifier()) f.names.insert(p->getName().str());
    collect_names(fn->getBody(), f.names);
  }

  bool top_level_decls(const clang::FunctionDecl* fn) {
    struct v : clang::RecursiveASTVisitor<v> {
      clang::ASTContext* ctx;
      bool any = false;
      bool VisitDeclStmt(clang::DeclStmt* d) {
        for (const clang::Decl* x : d->decls()) {
          // What the region translation moves to the kernel's top (translator::invariant).
          const auto* var = llvm::dyn_cast<clang::VarDecl>(x);
          if (!var || var->isStaticLocal() || var->hasExternalStorage() || var->isConstexpr() ||
              (var->getType().isConstQualified() && var->getType()->isIntegralOrEnumerationType() &&
               var->hasInit() && !var->getInit()->isValueDependent() &&
               var->isUsableInConstantExpressions(*ctx)))
            any = true;
          else
            for (const auto* a : var->specific_attrs<clang::AnnotateAttr>())
              if (a->getAnnotation() == "cuemu_shared") any = true;
        }
        return true;
      }
    } w;
    w.ctx = &ctx_;
    w.TraverseStmt(const_cast<clang::Stmt*>(fn->getBody()));
    return w.any;
  }

  // The text between two offsets of a file (the main file as written: its launch
  // configurations are blanked in what clang parsed), with splices applied.
  std::string source(clang::FileID fid, unsigned from, unsigned to, std::vector<splice> sp) {
    const llvm::StringRef buf = fid == sm_.getMainFileID() ? llvm::StringRef(original_) : sm_.getBufferData(fid);
    if (to > buf.size() || from > to) throw no_inline{};
    // The template arguments of the function being written out, where its text names them
    // (not inside what an explicit splice replaces whole).
    if (targs_ && fid == targs_fid_)
      for (const splice& t : *targs_) {
        if (t.from < from || t.to > to) continue;
        bool inside = false;
        for (const splice& s : sp)
          if (t.from < s.to && s.from < t.to) inside = true;
        if (!inside) sp.push_back(t);
      }
    std::sort(sp.begin(), sp.end(), [](const splice& a, const splice& b) { return a.from < b.from; });
    std::string out;
    unsigned at = from;
    for (const splice& s : sp) {
      if (s.from < at || s.to > to) throw no_inline{};  // overlapping: give up
      out += buf.substr(at, s.from - at).str() + s.text;
      at = s.to;
    }
    return out + buf.substr(at, to - at).str();
  }

  // A #line directive for where l was written (a directive of its own, on its own line).
  std::string line(clang::SourceLocation l) {
    const clang::PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
    if (p.isInvalid()) throw no_inline{};
    const clang::FileID fid = sm_.getFileID(sm_.getExpansionLoc(l));
    const std::string name = fid == sm_.getMainFileID() ? file_ : std::string(p.getFilename());
    return "\n#line " + std::to_string(p.getLine()) + " " + quote(name) + "\n";
  }

  // The offsets of a statement in its file, its closing ';' included.
  std::pair<unsigned, unsigned> extent(const clang::Stmt* s, clang::FileID& fid) {
    const clang::SourceLocation b = s->getBeginLoc(), e = s->getEndLoc();
    if (b.isInvalid() || e.isInvalid() || b.isMacroID() || e.isMacroID()) throw no_inline{};
    fid = sm_.getFileID(b);
    if (sm_.getFileID(e) != fid) throw no_inline{};
    const clang::LangOptions& lo = ctx_.getLangOpts();
    unsigned to = sm_.getFileOffset(e) + clang::Lexer::MeasureTokenLength(e, sm_, lo);
    if (!llvm::isa<clang::DeclStmt>(s) && !llvm::isa<clang::CompoundStmt>(s))
      if (auto next = clang::Lexer::findNextToken(e, sm_, lo); next && next->is(clang::tok::semi))
        to = sm_.getFileOffset(next->getEndLoc());
    return {sm_.getFileOffset(b), to};
  }
  std::pair<unsigned, unsigned> expr_extent(const clang::Expr* x, clang::FileID fid) {
    const clang::SourceLocation b = x->getBeginLoc(), e = x->getEndLoc();
    if (b.isInvalid() || e.isInvalid() || b.isMacroID() || e.isMacroID() || sm_.getFileID(b) != fid ||
        sm_.getFileID(e) != fid)
      throw no_inline{};
    return {sm_.getFileOffset(b),
            sm_.getFileOffset(e) + clang::Lexer::MeasureTokenLength(e, sm_, ctx_.getLangOpts())};
  }

  std::string type_name(clang::QualType t) {
    clang::PrintingPolicy pp(ctx_.getLangOpts());
    pp.SuppressTagKeyword = true;
    pp.FullyQualifiedName = true;
    pp.PrintCanonicalTypes = false;
    const std::string s = t.getAsString(pp);
    if (t->isDependentType() || s.find("(anonymous") != std::string::npos ||
        s.find("(lambda") != std::string::npos || s.find("(unnamed") != std::string::npos)
      throw no_inline{};
    return s;
  }

  // The statements of a body that may hold calls to write out: walked down compound statements,
  // branches and loops (not into expressions or lambdas).
  void walk(const clang::Stmt* s, std::vector<splice>& out, frame& f, const std::string* result = nullptr,
            const clang::Stmt* last = nullptr) {
    if (!s) return;
    if (const auto* c = llvm::dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt* x : c->body()) walk(x, out, f, result, last);
      return;
    }
    if (const auto* i = llvm::dyn_cast<clang::IfStmt>(s)) {
      walk(i->getThen(), out, f, result, last);
      walk(i->getElse(), out, f, result, last);
      return;
    }
    if (const auto* l = llvm::dyn_cast<clang::ForStmt>(s)) return walk(l->getBody(), out, f, result, last);
    if (const auto* l = llvm::dyn_cast<clang::WhileStmt>(s)) return walk(l->getBody(), out, f, result, last);
    if (const auto* l = llvm::dyn_cast<clang::DoStmt>(s)) return walk(l->getBody(), out, f, result, last);
    if (const auto* a = llvm::dyn_cast<clang::AttributedStmt>(s)) return walk(a->getSubStmt(), out, f, result, last);
    const bool is_return = llvm::isa<clang::ReturnStmt>(s);
    if (!llvm::isa<clang::Expr>(s) && !llvm::isa<clang::DeclStmt>(s) && !is_return) return;
    if (is_return && s != last) return;  // (the function is not written out: see body)
    try {
      if (std::optional<splice> sp = statement(s, f, is_return ? result : nullptr)) out.push_back(*sp);
    } catch (const no_inline&) {
      // A return that stays as written (its call too) still leaves the result.
      if (is_return && result) out.push_back(plain_return(llvm::cast<clang::ReturnStmt>(s), *result));
    }
  }

  // The last `return X;` of a function written out: `result = (X);` (X; for a void function).
  splice plain_return(const clang::ReturnStmt* r, const std::string& result) {
    clang::FileID fid;
    const auto [b, e] = extent(r, fid);
    if (!r->getRetValue()) return splice{b, e, ";"};
    const auto [xb, xe] = expr_extent(r->getRetValue(), fid);
    const std::string x = source(fid, xb, xe, {});
    return splice{b, e, result.empty() ? x + ";" : result + " = (" + x + ");"};
  }

  // The call of a statement to write out, if any.
  const clang::CallExpr* the_call(const clang::Stmt* s) {
    struct v : clang::RecursiveASTVisitor<v> {
      inliner* self;
      std::vector<const clang::CallExpr*> found;
      bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
      bool VisitCallExpr(clang::CallExpr* c) {
        if (sync_calls::is_barrier_call(c) || sync_calls::shuffle_op(c)) return true;
        const clang::FunctionDecl* fn = c->getDirectCallee();
        if (fn && self->syncs(fn)) found.push_back(c);
        return true;
      }
    } w;
    w.self = this;
    w.TraverseStmt(const_cast<clang::Stmt*>(s));
    return w.found.size() == 1 ? w.found[0] : nullptr;
  }

  // C evaluated first: not under ?:, &&, || or a comma, and every other operand on the way up to
  // the statement free of side effects.
  void check_hoist(const clang::CallExpr* c, const clang::Stmt* s) {
    const clang::Stmt* child = c;
    while (child != s) {
      auto parents = ctx_.getParents(*child);
      if (parents.empty()) throw no_inline{};
      const clang::Stmt* p = parents[0].get<clang::Stmt>();
      if (!p) return;  // a declaration's initialiser
      if (llvm::isa<clang::AbstractConditionalOperator>(p)) throw no_inline{};
      if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(p);
          b && (b->isLogicalOp() || b->isCommaOp()))
        throw no_inline{};
      if (llvm::isa<clang::LambdaExpr>(p) || llvm::isa<clang::StmtExpr>(p)) throw no_inline{};
      for (const clang::Stmt* sib : p->children())
        if (sib && sib != child)
          if (const auto* e = llvm::dyn_cast<clang::Expr>(sib); e && e->HasSideEffects(ctx_, true))
            throw no_inline{};
      child = p;
    }
  }

  std::optional<splice> statement(const clang::Stmt* s, frame& f, const std::string* result) {
    const clang::CallExpr* c = the_call(s);
    if (!c) {
      if (!result) return std::nullopt;
      return plain_return(llvm::cast<clang::ReturnStmt>(s), *result);
    }
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s); d && !d->isSingleDecl()) throw no_inline{};
    check_hoist(c, s);
    const clang::FunctionDecl* fn = c->getDirectCallee();
    clang::FileID fid;
    const auto [b, e] = extent(s, fid);
    const auto [cb, ce] = expr_extent(c, fid);
    if (cb < b || ce > e) throw no_inline{};
    std::string value;
    const std::string prefix = expand(c, fn, value, f);
    std::string rest;
    const auto* whole = llvm::dyn_cast<clang::Expr>(s);
    const bool just_the_call = whole && whole->IgnoreImplicit()->IgnoreParens() == c;
    if (value.empty() && !just_the_call && !(llvm::isa<clang::ReturnStmt>(s) && result->empty()))
      throw no_inline{};  // a void call's value used
    if (const auto* r = llvm::dyn_cast<clang::ReturnStmt>(s)) {
      const auto [xb, xe] = expr_extent(r->getRetValue(), fid);
      const std::string x = source(fid, xb, cb, {}) + value + source(fid, ce, xe, {});
      rest = result->empty() ? ";" : *result + " = (" + x + ");";
    } else if (just_the_call) {
      rest = ";";
    } else {
      rest = source(fid, b, cb, {}) + value + source(fid, ce, e, {});
    }
    // A statement that is not one of a compound's (the body of an if or a loop) gets braces,
    // unless it declares what follows it uses.
    std::string text = prefix + line(s->getBeginLoc()) + rest + line(s->getEndLoc());
    auto parents = ctx_.getParents(*s);
    const clang::Stmt* p = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
    if (!p || !llvm::isa<clang::CompoundStmt>(p)) {
      if (llvm::isa<clang::DeclStmt>(s)) throw no_inline{};
      text = "{" + text + "}";
    }
    return splice{b, e, text};
  }

  // The written-out call: declarations and a block that leave its value in `value`.
  std::string expand(const clang::CallExpr* c, const clang::FunctionDecl* fn, std::string& value, frame& f) {
    if (banned_.count(fn->getCanonicalDecl())) throw no_inline{};
    if (calls_.known_elsewhere(fn)) throw no_inline{};  // the emulator's or the system's
    // A kernel: the call is a launch (its <<<...>>> blanked where clang parsed it).
    for (const auto* a : fn->specific_attrs<clang::AnnotateAttr>())
      if (a->getAnnotation() == "cuemu_global") throw no_inline{};
    const clang::FunctionDecl* def = fn->getDefinition();
    // __noinline__: the user's word that it stays a call (it then runs as coroutines).
    if (!def || !def->getBody() || llvm::isa<clang::CXXMethodDecl>(def) || def->isVariadic() ||
        def->hasAttr<clang::NoInlineAttr>() ||
        def->isInvalidDecl() || llvm::isa<clang::CXXMemberCallExpr>(c) || c->getNumArgs() != def->getNumParams())
      throw no_inline{};
    for (const clang::FunctionDecl* a : f.active)
      if (a->getCanonicalDecl() == def->getCanonicalDecl()) throw no_inline{};  // recursion
    const auto* body = llvm::dyn_cast<clang::CompoundStmt>(def->getBody());
    if (!body) throw no_inline{};
    // Its names must mean in the kernel what they mean where it was written.
    const clang::DeclContext* kc = k_->getDeclContext()->getRedeclContext();
    const clang::DeclContext* fc = def->getDeclContext()->getRedeclContext();
    if (!fc->Encloses(kc)) throw no_inline{};
    const clang::FunctionDecl* pattern = def->getTemplateInstantiationPattern();
    const clang::SourceLocation written = (pattern ? pattern : def)->getBody()->getEndLoc();
    if (!sm_.isBeforeInTranslationUnit(sm_.getExpansionLoc(written), sm_.getExpansionLoc(k_->getBody()->getBeginLoc())))
      throw no_inline{};
    check_body(def, body, f);

    const unsigned n = counter_++;
    const std::string tag = std::to_string(n);
    std::string out;
    const clang::QualType rt = def->getReturnType();
    if (!rt->isVoidType()) {
      if (rt->isReferenceType() || !rt.isTriviallyCopyableType(ctx_)) throw no_inline{};
      if (const clang::CXXRecordDecl* r = rt->getAsCXXRecordDecl(); r && !r->hasDefaultConstructor())
        throw no_inline{};
      value = "__cuemu_r" + tag;
      out += type_name(rt.getUnqualifiedType()) + " " + value + "{}; ";
    }
    // The parameters, each initialised from its argument (its name in the body is renamed, like
    // every variable of the body, so that nothing it declares meets a name of the caller's).
    out += "{ ";
    std::map<const clang::ParmVarDecl*, std::string> aliases;
    for (unsigned i = 0; i < def->getNumParams(); ++i) {
      const clang::ParmVarDecl* p = def->getParamDecl(i);
      const clang::QualType t = p->getType();
      if (const clang::CXXRecordDecl* r = t.getNonReferenceType()->getAsCXXRecordDecl();
          r && !t->isReferenceType() && !t.isTriviallyCopyableType(ctx_))
        throw no_inline{};
      const std::string tn = type_name(t);
      const std::string a = p->getIdentifier() ? renamed(p->getName().str(), tag) : "__cuemu_a" + tag + "_" + std::to_string(i);
      const clang::Expr* arg = c->getArg(i);
      std::string arg_text;
      if (const auto* d = llvm::dyn_cast<clang::CXXDefaultArgExpr>(arg)) {
        const clang::Expr* x = d->getExpr();
        clang::FileID afid = sm_.getFileID(x->getBeginLoc());
        const auto [xb, xe] = expr_extent(x, afid);
        arg_text = source(afid, xb, xe, {});
      } else {
        const clang::FileID afid = sm_.getFileID(arg->getBeginLoc());
        const auto [xb, xe] = expr_extent(arg, afid);
        arg_text = source(afid, xb, xe, {});
      }
      // A reference bound to a variable, a constant element of an array or a field of either is
      // that object under another name: the body names the object (a reference variable could
      // not be stored per thread across its barriers).
      if (t->isReferenceType() && p->getIdentifier() && !llvm::isa<clang::CXXDefaultArgExpr>(arg) &&
          stable_lvalue(arg)) {
        aliases[p] = "(" + arg_text + ")";
        continue;
      }
      out += tn + " " + a + " = (" + arg_text + "); ";
      if (!p->getIdentifier()) out += "(void)" + a + "; ";
    }

    // Its body, with the calls it makes written out too.
    // (Its variables are renamed: they hide nothing of the functions around it.)
    frame inner = f;
    inner.active.push_back(def);
    std::vector<splice> sp;
    const clang::Stmt* last = body->body_empty() ? nullptr : body->body_back();
    const std::string* result = value.empty() ? &void_result_ : &value;
    clang::FileID bfid = sm_.getFileID(body->getLBracLoc());
    if (body->getLBracLoc().isMacroID() || body->getRBracLoc().isMacroID() ||
        sm_.getFileID(body->getRBracLoc()) != bfid)
      throw no_inline{};
    std::vector<splice> targs = template_arguments(def);
    renames(def, body, tag, aliases, targs);
    struct restore {
      inliner& in;
      std::vector<splice>* was;
      clang::FileID fid;
      ~restore() { in.targs_ = was, in.targs_fid_ = fid; }
    } back{*this, targs_, targs_fid_};
    targs_ = &targs;
    targs_fid_ = bfid;
    walk(body, sp, inner, result, last);
    if (last && llvm::isa<clang::ReturnStmt>(last) &&
        std::none_of(sp.begin(), sp.end(), [&](const splice& s) {
          clang::FileID fid;
          return s.from == extent(last, fid).first;
        }))
      throw no_inline{};  // its return was not written as the result
    out += line(body->getLBracLoc()) +
           source(bfid, sm_.getFileOffset(body->getLBracLoc()) + 1, sm_.getFileOffset(body->getRBracLoc()), sp) +
           " }";
    ++uses_[def->getCanonicalDecl()];
    return out;
  }

  // What a body must not hold to be written out in a kernel.
  void check_body(const clang::FunctionDecl* def, const clang::CompoundStmt* body, const frame& f) {
    struct v : clang::RecursiveASTVisitor<v> {
      const clang::CompoundStmt* body;
      const frame* f;
      bool bad = false;
      bool VisitReturnStmt(clang::ReturnStmt* r) {
        // Only the last statement returns (a lambda's returns are its own: see below).
        if (body->body_empty() || body->body_back() != r) bad = true;
        return !bad;
      }
      bool TraverseLambdaExpr(clang::LambdaExpr* l) {
        // Its body's returns are the lambda's; its names are checked like the rest.
        struct names : clang::RecursiveASTVisitor<names> {
          v* outer;
          bool VisitDeclRefExpr(clang::DeclRefExpr* d) { return outer->VisitDeclRefExpr(d); }
          bool VisitPredefinedExpr(clang::PredefinedExpr*) { return !(outer->bad = true); }
        } n;
        n.outer = this;
        n.TraverseStmt(l->getBody());
        return !bad;
      }
      bool VisitGotoStmt(clang::GotoStmt*) { return !(bad = true); }
      bool VisitIndirectGotoStmt(clang::IndirectGotoStmt*) { return !(bad = true); }
      bool VisitLabelStmt(clang::LabelStmt*) { return !(bad = true); }
      bool VisitPredefinedExpr(clang::PredefinedExpr*) { return !(bad = true); }  // __func__, assert
      bool VisitCoreturnStmt(clang::CoreturnStmt*) { return !(bad = true); }
      bool VisitCXXThisExpr(clang::CXXThisExpr*) { return !(bad = true); }
      bool VisitSubstTemplateTypeParmPackType(clang::SubstTemplateTypeParmPackType*) { return !(bad = true); }
      bool VisitSizeOfPackExpr(clang::SizeOfPackExpr*) { return !(bad = true); }
      bool VisitPackExpansionExpr(clang::PackExpansionExpr*) { return !(bad = true); }
      bool VisitDeclRefExpr(clang::DeclRefExpr* d) {
        const clang::ValueDecl* x = d->getDecl();
        if (const auto* var = llvm::dyn_cast<clang::VarDecl>(x); var && var->isLocalVarDeclOrParm())
          return true;  // its own (a lambda's captures are the function's too)
        // A name of the namespace (a global, a function, an enumerator) that a variable of the
        // kernel would hide.
        if (x->getIdentifier() && f->names.count(x->getName().str())) bad = true;
        return !bad;
      }
    } w;
    w.body = body;
    w.f = &f;
    w.TraverseStmt(const_cast<clang::CompoundStmt*>(body));
    if (w.bad) throw no_inline{};
    if (def->isTemplateInstantiation() && !def->getTemplateSpecializationArgs()) throw no_inline{};
  }

  // An lvalue that names the same object wherever it is evaluated in the function's body: a
  // variable, an element of an array variable at a constant index, a field of either.
  bool stable_lvalue(const clang::Expr* e) const {
    e = e->IgnoreParens();
    while (const auto* c = llvm::dyn_cast<clang::ImplicitCastExpr>(e)) {
      if (c->getCastKind() != clang::CK_NoOp) return false;
      e = c->getSubExpr()->IgnoreParens();
    }
    if (e->isTypeDependent() || e->isValueDependent() || !e->isLValue()) return false;
    if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) return llvm::isa<clang::VarDecl>(d->getDecl());
    if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(e)) return !m->isArrow() && stable_lvalue(m->getBase());
    if (const auto* a = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      const auto* base = llvm::dyn_cast<clang::DeclRefExpr>(a->getBase()->IgnoreParenImpCasts());
      return base && base->getType()->isArrayType() && a->getIdx()->isIntegerConstantExpr(ctx_) &&
             !a->getIdx()->HasSideEffects(ctx_);
    }
    return false;
  }

  static std::string renamed(const std::string& name, const std::string& tag) {
    return name + "__cuemu" + tag;
  }

  // Every variable of the function (its parameters and the body's own) under a name of its own.
  // (A parameter in `aliases` is the object its argument names: written as that argument.)
  void renames(const clang::FunctionDecl* def, const clang::CompoundStmt* body, const std::string& tag,
               const std::map<const clang::ParmVarDecl*, std::string>& aliases, std::vector<splice>& out) {
    struct v : clang::RecursiveASTVisitor<v> {
      inliner* self;
      const clang::FunctionDecl* def;
      const std::string* tag;
      const std::map<const clang::ParmVarDecl*, std::string>* aliases;
      std::vector<splice>* out;
      std::set<unsigned> at;
      bool bad = false;
      bool own(const clang::ValueDecl* d) const {
        const auto* var = llvm::dyn_cast<clang::VarDecl>(d);
        if (!var || !var->isLocalVarDeclOrParm() || !var->getIdentifier()) return false;
        // One object whatever calls it (a static or __shared__ variable, an extern declaration):
        // its own name (top_level_decls: written out once per kernel).
        if (var->isStaticLocal() || var->hasExternalStorage()) return false;
        for (const auto* a : var->specific_attrs<clang::AnnotateAttr>())
          if (a->getAnnotation() == "cuemu_shared") return false;
        if (llvm::isa<clang::ParmVarDecl>(var)) return var->getDeclContext() == def;  // not a lambda's
        for (const clang::DeclContext* c = var->getDeclContext(); c; c = c->getParent())
          if (c == def) return true;
        return false;
      }
      void add(clang::SourceLocation l, const clang::ValueDecl* d) {
        clang::SourceManager& sm = self->sm_;
        if (l.isInvalid() || l.isMacroID()) {
          bad = true;
          return;
        }
        const unsigned from = sm.getFileOffset(l);
        if (!at.insert(from).second) return;
        std::string text = renamed(d->getName().str(), *tag);
        if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(d))
          if (auto it = aliases->find(p); it != aliases->end()) text = it->second;
        out->push_back({from, from + static_cast<unsigned>(d->getName().size()), text});
      }
      bool VisitVarDecl(clang::VarDecl* d) {
        if (llvm::isa<clang::DecompositionDecl>(d)) bad = true;
        if (own(d) && !llvm::isa<clang::ParmVarDecl>(d)) add(d->getLocation(), d);
        return !bad;
      }
      bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
        if (own(e->getDecl())) add(e->getLocation(), e->getDecl());
        return !bad;
      }
      bool TraverseLambdaExpr(clang::LambdaExpr* l) {
        for (const clang::LambdaCapture& c : l->explicit_captures())
          if (c.capturesVariable() && own(c.getCapturedVar())) {
            if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(c.getCapturedVar()); p && aliases->count(p))
              bad = true;  // a capture names a variable, not an expression
            add(c.getLocation(), c.getCapturedVar());
          }
        // Its own parameters are the lambda's: not renamed (own() is false for them), and its
        // body refers to the function's variables under their new names.
        return clang::RecursiveASTVisitor<v>::TraverseStmt(l->getBody());
      }
    } w;
    w.self = this;
    w.def = def;
    w.tag = &tag;
    w.aliases = &aliases;
    w.out = &out;
    w.TraverseStmt(const_cast<clang::CompoundStmt*>(body));
    if (w.bad) throw no_inline{};
  }

  // Where the body of a template's instantiation names a template parameter: its argument.
  std::vector<splice> template_arguments(const clang::FunctionDecl* def) {
    if (!def->isTemplateInstantiation()) return {};
    struct v : clang::RecursiveASTVisitor<v> {
      inliner* self;
      std::vector<splice> found;
      bool bad = false;
      bool VisitSubstTemplateTypeParmTypeLoc(clang::SubstTemplateTypeParmTypeLoc tl) {
        if (place(tl.getBeginLoc(), tl.getEndLoc()))
          found.back().text = self->type_name(tl.getTypePtr()->getReplacementType());
        return !bad;
      }
      bool VisitSubstNonTypeTemplateParmExpr(clang::SubstNonTypeTemplateParmExpr* e) {
        if (place(e->getBeginLoc(), e->getEndLoc())) {
          clang::Expr::EvalResult r;
          if (e->isValueDependent() || !e->EvaluateAsInt(r, self->ctx_)) throw no_inline{};
          const llvm::APSInt& i = r.Val.getInt();
          found.back().text = "static_cast<" + self->type_name(e->getType()) + ">(" +
                              (i.isSigned() ? std::to_string(i.getSExtValue()) + "LL"
                                            : std::to_string(i.getZExtValue()) + "ULL") +
                              ")";
        }
        return !bad;
      }
      // A new splice for [b, e] (its text to be filled), or false.
      bool place(clang::SourceLocation b, clang::SourceLocation e) {
        clang::SourceManager& sm = self->sm_;
        if (b.isInvalid() || e.isInvalid() || b.isMacroID() || e.isMacroID() ||
            sm.getFileID(b) != sm.getFileID(e)) {
          bad = true;
          return false;
        }
        const unsigned from = sm.getFileOffset(b);
        const unsigned to = sm.getFileOffset(e) + clang::Lexer::MeasureTokenLength(e, sm, self->ctx_.getLangOpts());
        for (const splice& s : found)
          if (s.from == from && s.to == to) return false;  // one spelling, seen through two nodes
        found.push_back({from, to, ""});
        return true;
      }
    } w;
    w.self = this;
    w.TraverseStmt(def->getBody());
    if (w.bad) throw no_inline{};
    return w.found;
  }

  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  sync_calls& calls_;
  const std::string& file_;
  const std::string& original_;
  const clang::FunctionDecl* k_ = nullptr;
  unsigned counter_ = 0;
  std::map<const clang::FunctionDecl*, unsigned> uses_;  // written out per function (canonical)
  std::set<const clang::FunctionDecl*> banned_;
  const std::string void_result_;
  // The function being written out: where its body names its template parameters.
  std::vector<splice>* targs_ = nullptr;
  clang::FileID targs_fid_;
};

}  // namespace

std::vector<text_edit> inline_sync_calls(clang::ASTContext& ctx, sync_calls& calls,
                                         const std::vector<const clang::FunctionDecl*>& kernels,
                                         const std::string& file, const std::string& original) {
  inliner in(ctx, calls, file, original);
  std::vector<text_edit> out;
  const clang::SourceManager& sm = ctx.getSourceManager();
  for (const clang::FunctionDecl* k : kernels) {
    if (!k->getBody() || k->isInvalidDecl()) continue;
    for (const splice& s : in.kernel(k)) {
      const clang::SourceLocation b = k->getBody()->getBeginLoc();
      if (sm.getFileID(sm.getExpansionLoc(b)) != sm.getMainFileID()) break;
      out.push_back({s.from, s.to, s.text});
    }
  }
  std::sort(out.begin(), out.end(), [](const text_edit& a, const text_edit& b) { return a.from < b.from; });
  return out;
}

}  // namespace cuemu::regions
