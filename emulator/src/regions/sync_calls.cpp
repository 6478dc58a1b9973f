#include "regions/sync_calls.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/Path.h>

#include <cstring>

namespace cuemu::regions {
namespace {

clang::QualType ctx_type(const clang::CXXRecordDecl* r) {
  return r->getASTContext().getRecordType(r);
}

bool in_namespace(const clang::Decl* d, const char* name) {
  for (const clang::DeclContext* c = d->getDeclContext(); c; c = c->getParent())
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(c))
      if (ns->getName() == name) return true;
  return false;
}

bool global(const clang::FunctionDecl* fn) {
  return fn->getDeclContext()->getRedeclContext()->isTranslationUnit();
}

// The emulator's own out-of-line entry points (cuemu/sync_functions.h, progress.h): a
// synchronisation point, or a poll.
enum class runtime_kind { none, sync, poll };
runtime_kind runtime_entry(const clang::FunctionDecl* fn) {
  if (!fn->getIdentifier() || !in_namespace(fn, "cuemu")) return runtime_kind::none;
  static const char* const sync[] = {"block_barrier", "warp_collective", "converged_lanes",
                                     "spin_yield",    "activemask_at",   "push_call_configuration",
                                     "launch"};
  static const char* const poll[] = {"spin_check", "poll_uninstrumented", "poll_at"};
  const std::string n = fn->getName().str();
  for (const char* s : sync)
    if (n == s) return runtime_kind::sync;
  for (const char* s : poll)
    if (n == s) return runtime_kind::poll;
  return runtime_kind::none;
}

}  // namespace

namespace {

// The mask argument is the whole warp: left out (the default), or the constant 0xffffffff.
bool full_mask(const clang::CallExpr* call, const clang::FunctionDecl* fn) {
  if (call->getNumArgs() == 0) return false;
  const clang::Expr* m = call->getArg(0);
  if (llvm::isa<clang::CXXDefaultArgExpr>(m)) return true;
  if (m->isValueDependent()) return false;
  clang::Expr::EvalResult r;
  if (!m->EvaluateAsInt(r, fn->getASTContext())) return false;
  return r.Val.getInt().getZExtValue() == 0xffffffffu;
}

}  // namespace

namespace {

// cooperative_groups::thread_block, the group of the whole block.
bool is_thread_block(clang::QualType t) {
  const clang::CXXRecordDecl* r = t.getNonReferenceType()->getAsCXXRecordDecl();
  return r && r->getIdentifier() && r->getName() == "thread_block" &&
         in_namespace(r, "cooperative_groups");
}

}  // namespace

unsigned sync_calls::tile_width(const clang::CallExpr* call) {
  if (!call) return 0;
  clang::QualType t;
  if (const auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) {
    const clang::Expr* obj = mc->getImplicitObjectArgument();
    if (!obj) return 0;
    t = obj->IgnoreParenBaseCasts()->getType();  // (its shuffles are members of a base class)
  } else if (const auto* u = llvm::dyn_cast<clang::UnresolvedMemberExpr>(
                 call->getCallee()->IgnoreParens())) {
    // In a template, on a value of a dependent type: resolved per instantiation.
    if (u->isImplicitAccess()) return 0;
    t = u->getBaseType();
  } else {
    return 0;
  }
  if (t->isPointerType()) t = t->getPointeeType();
  const auto* spec =
      llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(t->getAsCXXRecordDecl());
  if (!spec || !spec->getIdentifier() || spec->getName() != "thread_block_tile" ||
      !in_namespace(spec, "cooperative_groups"))
    return 0;
  const clang::TemplateArgumentList& args = spec->getTemplateArgs();
  if (args.size() < 1 || args[0].getKind() != clang::TemplateArgument::Integral) return 0;
  const unsigned n = static_cast<unsigned>(args[0].getAsIntegral().getZExtValue());
  return n >= 1 && n <= 32 ? n : 0;
}

bool sync_calls::is_block_shape_call(const clang::CallExpr* call) {
  const auto* m = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  if (!m || !m->isStatic() || !m->getIdentifier() || !is_thread_block(ctx_type(m->getParent())))
    return false;
  const llvm::StringRef n = m->getName();
  return n == "size" || n == "num_threads" || n == "dim_threads" || n == "group_dim" ||
         n == "group_index";
}

bool sync_calls::is_barrier_call(const clang::Stmt* s) {
  const auto* call = llvm::dyn_cast_or_null<clang::CallExpr>(s);
  if (!call) return false;
  const clang::FunctionDecl* fn = call->getDirectCallee();
  if (!fn || !fn->getIdentifier()) return false;
  // Cooperative groups' barrier of the whole block: thread_block::sync(), cg::sync(block); a
  // tile of a warp or less synchronising, every tile at once (its lanes' barrier, kept).
  if (fn->getName() == "sync" && tile_width(call) != 0) return true;
  if (fn->getName() == "sync" && in_namespace(fn, "cooperative_groups")) {
    if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(fn))
      return is_thread_block(ctx_type(m->getParent()));
    return fn->getNumParams() >= 1 && is_thread_block(fn->getParamDecl(0)->getType());
  }
  if (!global(fn)) return false;
  if (fn->getName() == "__syncthreads") return true;
  return fn->getName() == "__syncwarp" && full_mask(call, fn);
}

const char* sync_calls::shuffle_op(const clang::Stmt* s) {
  const auto* call = llvm::dyn_cast_or_null<clang::CallExpr>(s);
  if (!call) return nullptr;
  // A shuffle of a cooperative groups tile of N <= 32 lanes: __shfl*_sync over segments of N
  // lanes, every tile of the warp at once.
  if (tile_width(call) != 0) {
    const clang::FunctionDecl* m = call->getDirectCallee();
    std::string n = m && m->getIdentifier() ? m->getName().str() : "";
    if (const auto* u = llvm::dyn_cast<clang::UnresolvedMemberExpr>(call->getCallee()->IgnoreParens()))
      n = u->getMemberName().getAsString();
    if (n == "shfl") return "shfl_idx";
    if (n == "shfl_up") return "shfl_up";
    if (n == "shfl_down") return "shfl_down";
    if (n == "shfl_xor") return "shfl_xor";
    return nullptr;
  }
  const clang::FunctionDecl* fn = call->getDirectCallee();
  if (!fn) {
    // In a template, a call on a dependent value: every candidate the global shuffle.
    const auto* u = llvm::dyn_cast<clang::UnresolvedLookupExpr>(call->getCallee()->IgnoreParenImpCasts());
    if (!u) return nullptr;
    for (const clang::NamedDecl* d : u->decls()) {
      d = d->getUnderlyingDecl();
      if (const auto* t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) d = t->getTemplatedDecl();
      fn = llvm::dyn_cast<clang::FunctionDecl>(d);
      if (!fn || !global(fn)) return nullptr;
    }
  }
  if (!fn || !fn->getIdentifier() || !global(fn)) return nullptr;
  const llvm::StringRef n = fn->getName();
  // The block's barriers with a result: the same two passes, over the block.
  if (n == "__syncthreads_count") return "count";
  if (n == "__syncthreads_and") return "and_";
  if (n == "__syncthreads_or") return "or_";
  if (!full_mask(call, fn)) return nullptr;
  if (n == "__shfl_sync") return "shfl_idx";
  if (n == "__shfl_up_sync") return "shfl_up";
  if (n == "__shfl_down_sync") return "shfl_down";
  if (n == "__shfl_xor_sync") return "shfl_xor";
  // The warp's votes and reductions: every lane's value folded into one result.
  if (n == "__ballot_sync") return "ballot";
  if (n == "__any_sync") return "any";
  if (n == "__all_sync") return "all";
  const bool is_signed = fn->getNumParams() > 1 && fn->getParamDecl(1)->getType()->isSignedIntegerType();
  if (n == "__reduce_add_sync") return is_signed ? "reduce_add_i" : "reduce_add_u";
  if (n == "__reduce_min_sync") return is_signed ? "reduce_min_i" : "reduce_min_u";
  if (n == "__reduce_max_sync") return is_signed ? "reduce_max_i" : "reduce_max_u";
  if (n == "__reduce_and_sync") return "reduce_and";
  if (n == "__reduce_or_sync") return "reduce_or";
  if (n == "__reduce_xor_sync") return "reduce_xor";
  return nullptr;
}

// An atomic read-modify-write of CUDA's (atomicAdd, atomicOr, ..., and their _block/_system
// forms) whose old value the caller drops: it changes memory, and nothing of the thread's own
// waits on what it reads, so a loop around it is not a spin-wait (a histogram's loop of
// `atomicAdd(&bin[v], 1)`). atomicCAS is left out: its old value is what a CAS loop tests.
bool atomic_update(const clang::FunctionDecl* fn) {
  if (!fn->getIdentifier() || !fn->getDeclContext()->getRedeclContext()->isTranslationUnit()) return false;
  llvm::StringRef n = fn->getName();
  if (!n.consume_front("atomic")) return false;
  n.consume_back("_block") || n.consume_back("_system");
  static const char* const ops[] = {"Add", "Sub", "Exch", "Min", "Max", "Inc", "Dec", "And", "Or", "Xor"};
  for (const char* op : ops)
    if (n == op) return true;
  return false;
}

// Whether the value of `e` is dropped: a statement of its own, a loop's or branch's body, the left
// of a comma, or cast to void.
bool value_dropped(clang::ASTContext& ctx, const clang::Expr* e) {
  const clang::Stmt* cur = e;
  for (;;) {
    const auto parents = ctx.getParents(*cur);
    if (parents.size() != 1) return false;
    const clang::Stmt* p = parents[0].get<clang::Stmt>();
    if (!p) return false;
    if (llvm::isa<clang::ExprWithCleanups>(p) || llvm::isa<clang::ParenExpr>(p) ||
        llvm::isa<clang::MaterializeTemporaryExpr>(p)) {
      cur = p;
      continue;
    }
    if (const auto* c = llvm::dyn_cast<clang::CastExpr>(p))
      return c->getType()->isVoidType();
    if (llvm::isa<clang::CompoundStmt>(p)) return true;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(p))
      return b->getOpcode() == clang::BO_Comma && b->getLHS() == cur;
    if (const auto* f = llvm::dyn_cast<clang::ForStmt>(p)) return f->getBody() == cur || f->getInc() == cur;
    if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(p)) return w->getBody() == cur;
    if (const auto* d = llvm::dyn_cast<clang::DoStmt>(p)) return d->getBody() == cur;
    if (const auto* i = llvm::dyn_cast<clang::IfStmt>(p)) return i->getThen() == cur || i->getElse() == cur;
    return false;
  }
}

// Walks one body, folding in the summaries of the functions it calls.
class summary_walker : public clang::RecursiveASTVisitor<summary_walker> {
 public:
  summary_walker(sync_calls& calls, sync_summary& out, unsigned depth)
      : calls_(calls), out_(out), depth_(depth) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseForStmt(clang::ForStmt* s) {
    return loop(s->getBody(), [&] { return Base::TraverseForStmt(s); });
  }
  bool TraverseWhileStmt(clang::WhileStmt* s) {
    return loop(s->getBody(), [&] { return Base::TraverseWhileStmt(s); });
  }
  bool TraverseDoStmt(clang::DoStmt* s) {
    return loop(s->getBody(), [&] { return Base::TraverseDoStmt(s); });
  }
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt* s) {
    return loop(s->getBody(), [&] { return Base::TraverseCXXForRangeStmt(s); });
  }

  bool VisitGotoStmt(clang::GotoStmt* s) { return forbid("a goto", s); }
  bool VisitIndirectGotoStmt(clang::IndirectGotoStmt* s) { return forbid("a computed goto", s); }
  bool VisitGCCAsmStmt(clang::GCCAsmStmt* s) { return forbid("inline assembly", s); }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr* e) {
    if (e->getCastKind() == clang::CK_LValueToRValue &&
        e->getSubExpr()->getType().isVolatileQualified() && !own_local(e->getSubExpr()))
      poll();
    return true;
  }

  bool VisitCXXConstructExpr(clang::CXXConstructExpr* e) {
    if (const clang::CXXConstructorDecl* c = e->getConstructor()) fold(c, e);
    return true;
  }
  // Destructors run where no call is written: a local's, a temporary's, a delete's.
  bool VisitVarDecl(clang::VarDecl* v) {
    if (v->hasLocalStorage()) destroys(v->getType(), v->getLocation());
    return true;
  }
  bool VisitCXXBindTemporaryExpr(clang::CXXBindTemporaryExpr* e) {
    if (const clang::CXXDestructorDecl* d = e->getTemporary()->getDestructor()) fold(d, e);
    return true;
  }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr* e) {
    destroys(e->getDestroyedType(), e->getBeginLoc());
    if (const clang::FunctionDecl* op = e->getOperatorDelete()) fold(op, e);
    return true;
  }
  bool VisitCXXNewExpr(clang::CXXNewExpr* e) {
    if (const clang::FunctionDecl* op = e->getOperatorNew()) fold(op, e);
    return true;
  }
  // A default argument is an expression of the callee's declaration, evaluated at the call.
  bool VisitCXXDefaultArgExpr(clang::CXXDefaultArgExpr* e) {
    if (e->getExpr()) TraverseStmt(e->getExpr());
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(e->getDecl()))
      if (v->hasGlobalStorage() && v->getName() == "threadIdx") out_.thread_index = true;
    return true;
  }
  // A value of a floating-point type (a vector's or a complex's elements too), or of a type not
  // known before instantiation.
  bool VisitExpr(clang::Expr* e) {
    if (out_.floating) return true;
    const clang::QualType t = e->getType();
    if (t.isNull()) return true;
    if (e->isTypeDependent() || t->isDependentType()) {
      out_.floating = true;
      return true;
    }
    const clang::Type* c = t.getCanonicalType().getTypePtr();
    if (const auto* v = llvm::dyn_cast<clang::VectorType>(c)) c = v->getElementType().getCanonicalType().getTypePtr();
    if (c->isFloatingType()) out_.floating = true;
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* e) {
    if (sync_calls::is_barrier_call(e)) {
      out_.barrier = true;
      ++out_.points;
      const clang::FunctionDecl* fn = e->getDirectCallee();
      if (!(fn && fn->getIdentifier() && fn->getName() == "__syncwarp") && sync_calls::tile_width(e) == 0)
        out_.block_barrier = true;
      return true;
    }
    if (const char* op = sync_calls::shuffle_op(e)) {
      out_.shuffle = true;
      ++out_.points;
      if (std::strcmp(op, "count") == 0 || std::strcmp(op, "and_") == 0 || std::strcmp(op, "or_") == 0)
        out_.block_barrier = true;
      return true;
    }
    if (const clang::FunctionDecl* fn = e->getDirectCallee()) {
      if (const auto* m = llvm::dyn_cast<clang::CXXMethodDecl>(fn);
          m && m->isVirtual() && !m->hasAttr<clang::FinalAttr>()) {
        const auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(e);
        const auto* me = mc ? llvm::dyn_cast<clang::MemberExpr>(mc->getCallee()->IgnoreParens()) : nullptr;
        if (!me || !me->hasQualifier()) return forbid("a virtual call", e);
      }
      // An atomic update whose old value is dropped does not poll (its arguments are walked as
      // any other expression).
      quiet_ = atomic_update(fn) && value_dropped(calls_.ctx_, e);
      fold(fn, e);
      quiet_ = false;
      return true;
    }
    const clang::Expr* callee = e->getCallee()->IgnoreParenImpCasts();
    if (const auto* u = llvm::dyn_cast<clang::UnresolvedLookupExpr>(callee)) {
      // A call that depends on template parameters: every candidate must be safe.
      for (const clang::NamedDecl* d : u->decls()) {
        d = d->getUnderlyingDecl();
        if (const auto* t = llvm::dyn_cast<clang::FunctionTemplateDecl>(d)) d = t->getTemplatedDecl();
        if (const auto* fn = llvm::dyn_cast<clang::FunctionDecl>(d)) fold(fn, e);
      }
      return true;
    }
    if (e->isTypeDependent() || e->isValueDependent() ||
        llvm::isa<clang::CXXDependentScopeMemberExpr>(callee) ||
        llvm::isa<clang::UnresolvedMemberExpr>(callee)) {
      // Resolved in each instantiation: the kernel's instantiations are checked instead.
      if (!out_.dependent)
        out_.dependent_line = calls_.ctx_.getSourceManager().getExpansionLineNumber(e->getBeginLoc());
      out_.dependent = true;
      out_.thread_index = true;
      return true;
    }
    return forbid("a call through a function pointer", e);
  }

 private:
  using Base = clang::RecursiveASTVisitor<summary_walker>;
  // A volatile local variable of the thread's own (`volatile double s = p + c;`, to keep a
  // rounding): no other thread can write it, so reading it does not wait for one.
  static bool own_local(const clang::Expr* e) {
    const auto* r = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParens());
    const auto* v = r ? llvm::dyn_cast<clang::VarDecl>(r->getDecl()) : nullptr;
    return v && v->hasLocalStorage() && !v->getType()->isReferenceType();
  }
  void destroys(clang::QualType t, clang::SourceLocation at) {
    t = calls_.ctx_.getBaseElementType(t);
    if (t->isDependentType()) {
      out_.thread_index = true;  // known per instantiation
      return;
    }
    if (const clang::CXXRecordDecl* r = t->getAsCXXRecordDecl())
      if (r->hasDefinition() && !r->hasTrivialDestructor())
        if (const clang::CXXDestructorDecl* d = r->getDestructor()) fold(d, at);
  }
  // A poll in a loop may spin until another thread writes, unless every iteration passes a
  // barrier of the whole block (a scan's `for (...) { sync; t = s[pos] + s[pos - d]; sync; ... }`
  // over volatile shared memory): the block's threads then go round together, and the loop is
  // one at block level. A poll in such a loop still counts for the loops around it.
  void poll() {
    out_.polls = true;
    if (!polled_.empty()) polled_.back() = true;
    else if (depth_ > 0) out_.polls_in_loop = true;
  }
  bool block_barrier_each_iteration(const clang::Stmt* body) const {
    const auto* c = llvm::dyn_cast_or_null<clang::CompoundStmt>(body);
    if (!c) return false;
    for (const clang::Stmt* st : c->body()) {
      const auto* e = llvm::dyn_cast<clang::Expr>(st);
      const auto* call = e ? llvm::dyn_cast<clang::CallExpr>(e->IgnoreImplicit()) : nullptr;
      if (!call || !sync_calls::is_barrier_call(call) || sync_calls::tile_width(call) != 0) continue;
      const clang::FunctionDecl* fn = call->getDirectCallee();
      if (fn && fn->getIdentifier() && fn->getName() != "__syncwarp") return true;
    }
    return false;
  }
  template <class F>
  bool loop(const clang::Stmt* body, F&& f) {
    polled_.push_back(false);
    const bool r = f();
    const bool polled = polled_.back();
    polled_.pop_back();
    if (polled) {
      if (!block_barrier_each_iteration(body)) out_.polls_in_loop = true;
      poll();
    }
    return r;
  }
  bool forbid(const std::string& why, const clang::Stmt* s) { return forbid(why, s->getBeginLoc()); }
  bool forbid(const std::string& why, clang::SourceLocation at) {
    if (out_.forbidden.empty()) {
      out_.forbidden = why;
      out_.forbidden_line = calls_.ctx_.getSourceManager().getExpansionLineNumber(at);
    }
    return true;
  }
  void fold(const clang::FunctionDecl* fn, const clang::Stmt* at) { fold(fn, at->getBeginLoc()); }
  void fold(const clang::FunctionDecl* fn, clang::SourceLocation at) {
    switch (runtime_entry(fn)) {
      case runtime_kind::sync:
        if (fn->getName() == "block_barrier") out_.block_barrier = true;
        forbid("a warp collective, a barrier with a result, grid sync or a device launch (" +
                   fn->getNameAsString() + ")",
               at);
        return;
      case runtime_kind::poll:
        if (!quiet_) poll();
        return;
      case runtime_kind::none:
        break;
    }
    const sync_summary& s = calls_.of(fn);
    if (s.barrier || s.shuffle || s.barrier_below) out_.barrier_below = true;
    if (s.block_barrier) out_.block_barrier = true;
    if (s.polls && !quiet_) poll();
    if (s.polls_in_loop && !quiet_) out_.polls_in_loop = true;
    if (s.dependent) out_.dependent = true;
    if (s.thread_index) out_.thread_index = true;
    if (s.floating) out_.floating = true;
    if (!s.forbidden.empty()) {
      // Name the user's call, and the library's reason.
      std::string name = fn->getNameAsString();
      if (name.empty()) name = "a function";
      forbid(name + ": " + s.forbidden, at);
    }
  }

  sync_calls& calls_;
  sync_summary& out_;
  unsigned depth_;            // loops around the walked statement (of the kernel's)
  std::vector<bool> polled_;  // per loop inside it, innermost last: it polls
  bool quiet_ = false;  // folding an atomic update whose old value is dropped: not a poll
};

const sync_summary& sync_calls::of(const clang::FunctionDecl* fn) {
  static const sync_summary recursive = [] {
    sync_summary r;
    r.forbidden = "recursion";
    r.floating = true;
    return r;
  }();
  fn = fn->getCanonicalDecl();
  if (auto it = done_.find(fn); it != done_.end()) return it->second;
  if (active_[fn]) return recursive;
  const clang::FunctionDecl* def = nullptr;
  const clang::Stmt* body = fn->getBody(def);
  if (!body) {
    if (const clang::FunctionDecl* pattern = fn->getTemplateInstantiationPattern())
      body = pattern->getBody(def);
  }
  sync_summary s;
  if (body) {
    active_[fn] = true;
    summary_walker w(*this, s, 0);
    w.TraverseStmt(const_cast<clang::Stmt*>(body));
    if (const auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(def))
      for (const clang::CXXCtorInitializer* i : ctor->inits())
        if (i->getInit()) w.TraverseStmt(i->getInit());
    active_[fn] = false;
  } else if (!known_elsewhere(fn)) {
    s.thread_index = true;
    s.floating = true;
    s.forbidden = "defined in another file (what it reaches is not known here)";
  }
  return done_[fn] = s;
}

bool sync_calls::known_elsewhere(const clang::FunctionDecl* fn) {
  if (fn->getBuiltinID() != 0 || fn->isDefaulted() || fn->isTrivial()) return true;
  clang::SourceManager& sm = ctx_.getSourceManager();
  if (!emulator_dir_found_) {
    emulator_dir_found_ = true;
    clang::TranslationUnitDecl* tu = ctx_.getTranslationUnitDecl();
    for (const clang::NamedDecl* d : tu->lookup(&ctx_.Idents.get("threadIdx"))) {
      const clang::SourceLocation l = sm.getSpellingLoc(d->getUnderlyingDecl()->getLocation());
      emulator_dir_ = llvm::sys::path::parent_path(sm.getFilename(l)).str();
      if (!emulator_dir_.empty()) break;
    }
  }
  // Where the name was written and, for a name a macro pastes together (cuemu/libdevice.h
  // declares its __nv_* functions so), where the macro was used: the spelling of a pasted name is
  // in clang's scratch space.
  const clang::SourceLocation loc = fn->getLocation();
  for (const clang::SourceLocation at : {sm.getSpellingLoc(loc), sm.getExpansionLoc(loc)}) {
    if (at.isInvalid() || sm.isInSystemHeader(at)) return true;
    const llvm::StringRef file = sm.getFilename(at);
    if (!emulator_dir_.empty() && file.startswith(emulator_dir_ + "/")) return true;
  }
  return false;
}

sync_summary sync_calls::of_stmt(const clang::Stmt* st, unsigned loop_depth) {
  sync_summary s;
  summary_walker w(*this, s, loop_depth);
  w.TraverseStmt(const_cast<clang::Stmt*>(st));
  return s;
}

}  // namespace cuemu::regions
