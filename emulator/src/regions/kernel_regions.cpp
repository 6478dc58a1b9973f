// The region form of a kernel (see cuemu/regions.h for what it runs on).
//
// The statements that hold a synchronisation point (__syncthreads(), a whole warp's
// __syncwarp() or __shfl*_sync()) are the block level: compound statements, loops (for, while,
// do) and branches (if) whose conditions are proved the same in every thread (made of constants,
// parameters no thread writes, blockIdx/blockDim/gridDim and variables proved so), and the points
// themselves. Every run of statements between them is a region, written as
//   __cuemu_rb->each([&](unsigned __cuemu_s) -> bool { <bindings> <statements> return true; });
// A statement holding a shuffle (or a __syncthreads_count/_and/_or) is two regions: every thread
// offers its value, then every thread runs the statement with its result. A variable declared at block level and used outside the
// region that declares it lives in a region_var (one per thread), or in a region_uniform (one per
// block) when it is uniform and written only by a for loop's initialisation or increment, which
// then run once; each region that uses it binds its name to the copy. Declarations that are the
// same for every thread (__shared__, static, constexpr, types) move to the top. `return` in a
// region ends that thread (`return false`). Anything the translation cannot prove right (a
// barrier in a called function, in a switch or under a condition that may differ between
// threads, break/continue under such a condition, a goto, a loop that polls memory and may spin,
// ballots and warp votes, a return in a kernel with shuffles, calls it cannot see) keeps the
// kernel on coroutines, with the reason.
#include "regions/kernel_regions.h"
#include "regions/quote.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace cuemu::regions {
namespace {

struct refusal {
  std::string why;
  // The innermost block-level statement around what was refused: run as coroutines, the rest of
  // the kernel may still be loops (translate_kernel tries again).
  const clang::Stmt* fallback = nullptr;
};

struct item {
  enum kind_t { region, compound, if_, for_, while_, do_, shuffle, jump, fibers } kind = region;
  const clang::Stmt* s = nullptr;
  std::vector<const clang::Stmt*> stmts;  // region: its statements
  std::vector<item> body, other;          // compound/loop body; if: then, else
  int seg = -1;                           // region: its segment
  int cond_seg = -1, init_seg = -1, inc_seg = -1;
  int value_seg = -1, shuffle_no = -1;  // shuffle: the values offered, and which shuffle
};

// A warp shuffle of the whole warp in a block-level statement: every thread offers its value
// (one region), then every thread runs the statement with the shuffle's result (the next).
struct shuffle_point {
  const clang::CallExpr* call = nullptr;
  const char* op = nullptr;
  std::string width;
  std::string type;
  bool vote = false;  // __syncthreads_count/_and/_or
  bool fold = false;  // a warp vote or reduction: every lane's value folded into one result
  unsigned value_arg = 1;  // the call's argument offered (0 for a tile's member shuffle)
  std::string result;  // its result's type
  const clang::Stmt* stmt = nullptr;  // the statement it is in
  // Its lane or delta is the same in every thread and nothing in the statement writes what it
  // reads: evaluated once, and every thread's result computed before the statement's pass.
  bool uniform_arg = false;
  std::string arg_text;  // then: the lane or delta as written (the call's text is replaced)
};

// Code run per thread in one lambda: a region, a condition, a for's init or increment.
struct segment {
  std::vector<const clang::Stmt*> stmts;
  const clang::Expr* expr = nullptr;  // a condition / increment / a shuffle's value
  int offers = -1;                    // the shuffle whose value this segment computes
  std::set<const clang::VarDecl*> uses;
};

void comma_operands(const clang::Expr* e, std::vector<const clang::Expr*>& out);

// The variables a statement names.
struct variable_refs : clang::RecursiveASTVisitor<variable_refs> {
  std::set<const clang::VarDecl*> vars;
  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(e->getDecl())) vars.insert(v);
    return true;
  }
};

class translator {
 public:
  translator(clang::ASTContext& ctx, sync_calls& calls, const clang::FunctionDecl* k,
             const std::string& file, const std::string& original,
             const std::map<const clang::Stmt*, std::string>& forced)
      : ctx_(ctx), sm_(ctx.getSourceManager()), calls_(calls), k_(k), file_(file),
        original_(original), scratch_(ctx.getSourceManager(), ctx.getLangOpts()), forced_(forced) {}

  kernel_result run();
  // After a refusal: the statement to run as coroutines on the next try (nullptr: none), and why.
  const clang::Stmt* fallback() const { return fallback_; }
  const std::string& fallback_why() const { return fallback_why_; }

 private:
  // Where l was written, as #line directives say (a function written out in the kernel,
  // regions/inline_calls.h, keeps its own file and lines).
  unsigned line_of(clang::SourceLocation l) const {
    const clang::PresumedLoc p = sm_.getPresumedLoc(sm_.getExpansionLoc(l));
    return p.isValid() ? p.getLine() : sm_.getExpansionLineNumber(l);
  }
  std::string file_of(clang::SourceLocation l) const {
    const clang::SourceLocation x = sm_.getExpansionLoc(l);
    const clang::PresumedLoc p = sm_.getPresumedLoc(x);
    if (p.isInvalid()) return file_;
    // The main file under the name clang was given (no #line): the user's spelling.
    const clang::FileEntry* main = sm_.getFileEntryForID(sm_.getMainFileID());
    if (sm_.getFileID(x) == sm_.getMainFileID() && main && main->getName() == p.getFilename()) return file_;
    return p.getFilename();
  }
  [[noreturn]] void refuse(const std::string& why, const clang::Stmt* at) const {
    throw refusal{why + (at ? " (line " + std::to_string(line_of(at->getBeginLoc())) + ")" : "")};
  }
  bool has_barrier(const clang::Stmt* s);
  // A break or continue in s that leaves s (for the block-level loop around it).
  static bool escapes(const clang::Stmt* s, bool in_loop = false, bool in_switch = false);
  std::vector<item> sequence(const std::vector<const clang::Stmt*>& stmts);
  item block_level(const clang::Stmt* s);
  item block_level_parts(const clang::Stmt* s);
  item shuffle_statement(const clang::Stmt* s);
  item shuffle_parts(const clang::Stmt* s);
  std::string fiber_reason(const clang::Stmt* s);
  bool nothing_syncs_after(const clang::Stmt* s);
  const clang::Stmt* fallback_for(const clang::Stmt* s);
  item fiber_statement(const clang::Stmt* s, const std::string& why);
  int new_segment(std::vector<const clang::Stmt*> stmts, const clang::Expr* e);
  void declare(const clang::DeclStmt* d, int seg);
  bool invariant(const clang::DeclStmt* d);
  void check_jumps(const clang::Stmt* s);
  void check_parsed();
  bool gap_is_empty(const std::string& text) const;
  void collect_uses();
  bool uniform(const clang::Expr* e) const;
  bool uniform_once(const clang::Expr* arg, const clang::Stmt* st) const;
  void find_uniform();
  void require_uniform();
  std::string type_of(const clang::VarDecl* v);
  // A class whose destruction reaches no synchronisation, poll or threadIdx (nothing at all for
  // a trivial destructor).
  bool plain_destructor(const clang::CXXRecordDecl* r);
  void prepare_edits();
  std::string text(const clang::Stmt* s);
  std::string expr_text(const clang::Expr* e) {
    return scratch_.getRewrittenText(sm_.getExpansionRange(e->getSourceRange()));
  }
  std::string line_directive(const clang::Stmt* s) const;
  std::string bindings(int seg);
  // any_slot: the lambda takes `auto` (a warp_slot in each_warp's fast case, else unsigned).
  std::string lambda(int seg, bool condition, const char* attributes = "", bool any_slot = false);
  bool runs_once(int seg) const;
  std::string each(int seg);
  std::string below_test(int seg);
  bool only_read(const clang::VarDecl* v) const;
  bool may_fault(int seg) const;
  void emit(const std::vector<item>& items, std::string& out, int depth);

  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  sync_calls& calls_;
  const clang::FunctionDecl* k_;
  std::string file_;
  const std::string& original_;  // the file as written (launch configurations and all)
  clang::Rewriter scratch_;  // the kernel's statements with their edits, read back per segment

  std::map<const clang::Stmt*, bool> barrier_;
  std::vector<segment> segs_;
  std::map<const clang::VarDecl*, int> declared_in_;  // block-level variables
  std::vector<const clang::DeclStmt*> moved_;         // to the top
  std::set<const clang::Stmt*> block_loops_;
  std::vector<const clang::VarDecl*> hoisted_;
  std::map<const clang::VarDecl*, int> slot_of_;  // hoisted -> storage number
  std::vector<const clang::ParmVarDecl*> params_;  // parameters a thread writes
  std::vector<std::string> dependent_types_;
  std::set<const clang::VarDecl*> uniform_;  // block-level variables equal in every thread
  // Hoisted variables of types that are not trivially copyable: constructed in place
  // (region_object), only where declared at the kernel's top level.
  std::set<const clang::VarDecl*> objects_;
  unsigned nesting_ = 0;                     // inside a block-level statement
  std::set<const clang::VarDecl*> nested_;   // declared there
  // Those of them stored once for the block: written only where one thread's run is every
  // thread's (a for loop's initialisation or increment).
  std::set<const clang::VarDecl*> single_;
  unsigned bounded_ = 0;  // regions run only below a thread bound (below_test)
  std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> writes_;  // (var, whole write)
  std::set<const clang::Expr*> for_parts_;  // for loops' increments (expressions)
  std::vector<const clang::Expr*> conditions_;  // of block-level loops and branches
  std::vector<shuffle_point> shuffles_;
  bool in_block_loop_ = false;  // building the body of a block-level loop
  bool has_warp_shuffle_ = false;
  std::vector<std::string> offered_;  // per shuffle: its value's text
  // Block-level statements run as coroutines (region_block::fibers), and why: found by earlier
  // tries (forced_), and in this one (line, why).
  std::map<const clang::Stmt*, std::string> forced_;
  std::vector<std::pair<unsigned, std::string>> fiber_notes_;
  std::map<const clang::Expr*, const clang::Stmt*> condition_of_;  // a condition's loop or branch
  // An instantiation of the kernel reaches a barrier, a warp collective or what the translation
  // cannot see through a call that the template's pattern does not resolve: every statement with
  // such a call runs as coroutines.
  bool dependent_sync_ = false;
  const clang::Stmt* fallback_ = nullptr;
  std::string fallback_why_;
};

bool translator::escapes(const clang::Stmt* s, bool in_loop, bool in_switch) {
  if (!s || llvm::isa<clang::LambdaExpr>(s)) return false;
  if (llvm::isa<clang::BreakStmt>(s)) return !in_loop && !in_switch;
  if (llvm::isa<clang::ContinueStmt>(s)) return !in_loop;
  const bool loop = llvm::isa<clang::ForStmt>(s) || llvm::isa<clang::WhileStmt>(s) ||
                    llvm::isa<clang::DoStmt>(s) || llvm::isa<clang::CXXForRangeStmt>(s);
  const bool sw = llvm::isa<clang::SwitchStmt>(s);
  for (const clang::Stmt* c : s->children())
    if (escapes(c, in_loop || loop, in_switch || sw)) return true;
  return false;
}

bool translator::has_barrier(const clang::Stmt* s) {
  if (!s) return false;
  if (auto it = barrier_.find(s); it != barrier_.end()) return it->second;
  bool b = sync_calls::is_barrier_call(s) || sync_calls::shuffle_op(s);
  if (!b && !llvm::isa<clang::LambdaExpr>(s))
    for (const clang::Stmt* c : s->children())
      if (has_barrier(c)) {
        b = true;
        break;
      }
  barrier_[s] = b;
  return b;
}

int translator::new_segment(std::vector<const clang::Stmt*> stmts, const clang::Expr* e) {
  segment g;
  g.stmts = std::move(stmts);
  g.expr = e;
  segs_.push_back(std::move(g));
  return static_cast<int>(segs_.size()) - 1;
}

bool translator::invariant(const clang::DeclStmt* d) {
  bool any_var = false, all_invariant = true, any_invariant = false;
  for (const clang::Decl* x : d->decls()) {
    const auto* v = llvm::dyn_cast<clang::VarDecl>(x);
    bool inv;
    if (!v) {
      inv = true;
    } else {
      any_var = true;
      bool shared = false;
      for (const auto* a : v->specific_attrs<clang::AnnotateAttr>())
        if (a->getAnnotation() == "cuemu_shared") shared = true;
      const bool constant_init =
          !v->hasInit() || (!v->getInit()->isValueDependent() && v->hasConstantInitialization());
      inv = shared || v->hasExternalStorage() || v->isConstexpr() ||
            (v->isStaticLocal() && constant_init) ||
            (v->getType().isConstQualified() && !v->getType()->isDependentType() &&
             v->getType()->isIntegralOrEnumerationType() && v->hasInit() &&
             !v->getInit()->isValueDependent() && v->isUsableInConstantExpressions(ctx_));
      if (v->isStaticLocal() && !constant_init) refuse("a static local initialised at run time", d);
    }
    all_invariant = all_invariant && inv;
    any_invariant = any_invariant || inv;
  }
  (void)any_var;
  if (any_invariant && !all_invariant)
    refuse("a declaration mixing per-thread and shared variables", d);
  return all_invariant;
}

void translator::declare(const clang::DeclStmt* d, int seg) {
  for (const clang::Decl* x : d->decls()) {
    if (llvm::isa<clang::DecompositionDecl>(x)) refuse("a structured binding at block level", d);
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(x)) {
      declared_in_[v] = seg;
      if (nesting_ > 0) nested_.insert(v);
    }
  }
}

// A run of statements at block level: regions between the block-level statements.
std::vector<item> translator::sequence(const std::vector<const clang::Stmt*>& stmts) {
  std::vector<item> out;
  std::vector<const clang::Stmt*> run;
  std::vector<const clang::DeclStmt*> decls;
  auto flush = [&] {
    if (run.empty()) return;
    item r;
    r.kind = item::region;
    r.stmts = run;
    r.seg = new_segment(run, nullptr);
    for (const clang::DeclStmt* d : decls) declare(d, r.seg);
    out.push_back(std::move(r));
    run.clear();
    decls.clear();
  };
  for (const clang::Stmt* s : stmts) {
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) {
      if (invariant(d)) {
        moved_.push_back(d);
        continue;
      }
      if (const std::string why = fiber_reason(s); !why.empty()) {
        flush();
        out.push_back(fiber_statement(s, why));
        continue;
      }
      if (has_barrier(s)) {
        flush();
        out.push_back(shuffle_statement(s));
        continue;
      }
      run.push_back(s);
      decls.push_back(d);
      continue;
    }
    if (sync_calls::is_barrier_call(s)) {
      flush();  // the barrier itself: the end of the region
      continue;
    }
    // break / continue for the block-level loop around: the loop's own, at block level.
    const bool jump = in_block_loop_ && escapes(s);
    // What a statement reaches through the functions it calls (or holds and the translation
    // cannot see into) runs as coroutines; a compound statement, loop or branch that also holds
    // barriers of its own is cut into its parts instead.
    if (const std::string why = fiber_reason(s);
        !why.empty() && (forced_.count(s) || !has_barrier(s) || llvm::isa<clang::Expr>(s))) {
      if (jump) refuse("a break or continue out of a loop that holds a barrier, in a statement run as coroutines", s);
      flush();
      out.push_back(fiber_statement(s, why));
      continue;
    }
    if (!has_barrier(s) && !jump) {
      if (llvm::isa<clang::NullStmt>(s)) continue;
      run.push_back(s);
      continue;
    }
    flush();
    if (llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s)) {
      item j;
      j.kind = item::jump;
      j.s = s;
      out.push_back(std::move(j));
      continue;
    }
    out.push_back(llvm::isa<clang::Expr>(s) && has_barrier(s) ? shuffle_statement(s) : block_level(s));
  }
  flush();
  return out;
}

// Why a block-level statement must run as coroutines, or "" where it can be cut into regions.
std::string translator::fiber_reason(const clang::Stmt* s) {
  if (auto it = forced_.find(s); it != forced_.end()) return it->second;
  const sync_summary ss = calls_.of_stmt(s, 0);
  if (!ss.forbidden.empty()) return ss.forbidden;
  if (ss.barrier_below) return "a barrier or warp collective inside a function it calls";
  if (ss.dependent && dependent_sync_)
    return "a call that depends on template parameters, which reaches a barrier or warp collective";
  return "";
}

item translator::fiber_statement(const clang::Stmt* s, const std::string& why) {
  item it;
  it.kind = item::fibers;
  it.s = s;
  it.stmts = {s};
  it.seg = new_segment({s}, nullptr);
  if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s)) declare(d, it.seg);
  fiber_notes_.push_back({line_of(s->getBeginLoc()), why});
  return it;
}

// The block-level statement to run as coroutines for a refusal at s: s, or where a break or
// continue in it leaves it, the smallest statement around it that the jump stays in (a loop body
// is not a statement of its own at block level: its loop). nullptr at the kernel's body.
// Not a statement that reaches a barrier of the whole block where something after it may
// synchronise: threads that skip its barrier (under a condition that differs between them) would
// meet the others at a later barrier on a GPU, which a statement run as coroutines cannot follow;
// the kernel keeps its coroutines.
const clang::Stmt* translator::fallback_for(const clang::Stmt* s) {
  for (;;) {
    if (s == k_->getBody()) return nullptr;
    bool body = false;
    auto parents = ctx_.getParents(*s);
    const clang::Stmt* p = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
    if (llvm::isa<clang::CompoundStmt>(s))
      body = !p || !llvm::isa<clang::CompoundStmt>(p);
    if (!body && !escapes(s)) {
      const sync_summary ss = calls_.of_stmt(s, 0);
      if ((ss.block_barrier || ss.dependent) && !nothing_syncs_after(s)) return nullptr;
      return s;
    }
    if (!p) return nullptr;
    s = p;
  }
}

// Whether no barrier or warp collective can follow statement s on the way to the kernel's end
// (no loop around it, nothing after it that synchronises): a thread that finishes s then takes
// part in no later synchronisation, so the executor may count it as gone from the block's
// barriers, as it counts a thread that returned.
bool translator::nothing_syncs_after(const clang::Stmt* s) {
  const clang::Stmt* cur = s;
  while (cur != k_->getBody()) {
    auto parents = ctx_.getParents(*cur);
    const clang::Stmt* p = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
    if (!p) return false;
    if (llvm::isa<clang::ForStmt>(p) || llvm::isa<clang::WhileStmt>(p) || llvm::isa<clang::DoStmt>(p) ||
        llvm::isa<clang::CXXForRangeStmt>(p))
      return false;
    if (const auto* c = llvm::dyn_cast<clang::CompoundStmt>(p)) {
      bool after = false;
      for (const clang::Stmt* x : c->body()) {
        if (after && (has_barrier(x) || !fiber_reason(x).empty())) return false;
        if (x == cur) after = true;
      }
    }
    cur = p;
  }
  return true;
}

// A refusal inside a block-level statement: that statement may run as coroutines instead.
item translator::shuffle_statement(const clang::Stmt* st) {
  try {
    return shuffle_parts(st);
  } catch (refusal& r) {
    if (!r.fallback) r.fallback = fallback_for(st);
    throw;
  }
}

item translator::block_level(const clang::Stmt* s) {
  try {
    return block_level_parts(s);
  } catch (refusal& r) {
    if (!r.fallback) r.fallback = fallback_for(s);
    throw;
  }
}

item translator::shuffle_parts(const clang::Stmt* st) {
  struct finder : clang::RecursiveASTVisitor<finder> {
    std::vector<const clang::CallExpr*> shuffles;
    bool barrier = false;
    bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
    bool VisitCallExpr(clang::CallExpr* c) {
      if (sync_calls::is_barrier_call(c)) barrier = true;
      if (sync_calls::shuffle_op(c)) shuffles.push_back(c);
      return true;
    }
  } f;
  f.TraverseStmt(const_cast<clang::Stmt*>(st));
  if (f.barrier) refuse("a barrier inside an expression", st);
  if (f.shuffles.size() != 1) refuse("more than one warp shuffle in one statement", st);
  const clang::CallExpr* call = f.shuffles[0];
  // Evaluated exactly once, whatever the thread: not under ?:, && or ||.
  clang::DynTypedNode n = clang::DynTypedNode::create(*call);
  for (;;) {
    auto parents = ctx_.getParents(n);
    if (parents.empty()) break;
    n = parents[0];
    const clang::Stmt* p = n.get<clang::Stmt>();
    if (!p || p == st) break;
    if (llvm::isa<clang::AbstractConditionalOperator>(p))
      refuse("a warp shuffle under a conditional operator", call);
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(p); b && b->isLogicalOp())
      refuse("a warp shuffle under && or ||", call);
  }
  shuffle_point sp;
  sp.call = call;
  sp.stmt = st;
  sp.op = sync_calls::shuffle_op(call);
  sp.width = "32";
  // The point's two passes: every thread offers `value`, then runs the statement.
  auto point = [&](const clang::Expr* value) {
    shuffles_.push_back(sp);
    item it;
    it.kind = item::shuffle;
    it.s = st;
    it.shuffle_no = static_cast<int>(shuffles_.size()) - 1;
    it.value_seg = new_segment({}, value);
    segs_[it.value_seg].offers = it.shuffle_no;
    it.seg = new_segment({st}, nullptr);
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(st)) declare(d, it.seg);
    return it;
  };
  const std::string op = sp.op;
  if (op == "count" || op == "and_" || op == "or_") {
    // Every thread offers its predicate; the result is the block's count, and, or.
    sp.vote = true;
    sp.type = "int";
    return point(call->getArg(0));
  }
  has_warp_shuffle_ = true;
  if (const unsigned tile = sync_calls::tile_width(call)) {
    // tile.shfl*(value, lane or delta): the segment is the tile.
    sp.value_arg = 0;
    sp.width = std::to_string(tile);
  }
  if (op == "ballot" || op == "any" || op == "all" || op.rfind("reduce_", 0) == 0) {
    // Every lane offers its predicate or value (the parameter's type: int or unsigned).
    sp.fold = true;
    if (op[0] != 'r') {
      sp.type = "int";
      sp.result = op == "ballot" ? "unsigned int" : "int";
    } else {
      const clang::FunctionDecl* fn = call->getDirectCallee();
      if (!fn) refuse("a warp reduction of a value whose type depends on template parameters", call);
      sp.type = fn->getParamDecl(1)->getType().getUnqualifiedType().getAsString();
      sp.result = fn->getReturnType().getUnqualifiedType().getAsString();
    }
    return point(call->getArg(1));
  }
  if (sp.value_arg == 1 && call->getNumArgs() > 3 && !llvm::isa<clang::CXXDefaultArgExpr>(call->getArg(3))) {
    clang::Expr::EvalResult r;
    const clang::Expr* w = call->getArg(3);
    if (w->isValueDependent() || !w->EvaluateAsInt(r, ctx_)) refuse("a warp shuffle whose width is not a constant", call);
    const long long v = r.Val.getInt().getSExtValue();
    if (v < 1 || v > 32 || (v & (v - 1)) != 0) refuse("a warp shuffle with an invalid width", call);
    sp.width = std::to_string(v);
  }
  clang::PrintingPolicy pp(ctx_.getLangOpts());
  pp.SuppressTagKeyword = true;
  pp.FullyQualifiedName = true;
  // The shuffled type: the value's (the template argument the call deduces).
  const clang::QualType t =
      call->getArg(sp.value_arg)->getType().getNonReferenceType().getUnqualifiedType();
  sp.type = t.getAsString(pp);
  if (sp.type.find('<') == 0 || sp.type.find("(anonymous") != std::string::npos ||
      sp.type.find("(lambda") != std::string::npos)
    refuse("a warp shuffle of a value whose type cannot be named", call);
  if (t->isDependentType()) dependent_types_.push_back(sp.type);
  else if (!t.isTriviallyCopyableType(ctx_)) refuse("a warp shuffle of this type", call);
  return point(call->getArg(sp.value_arg));
}

item translator::block_level_parts(const clang::Stmt* s) {
  if (const auto* a = llvm::dyn_cast<clang::AttributedStmt>(s))
    return block_level(a->getSubStmt());  // #pragma unroll: a hint the region form drops
  struct nested {
    unsigned& n;
    explicit nested(unsigned& x) : n(x) { ++n; }
    ~nested() { --n; }
  } in_statement(nesting_);
  item it;
  it.s = s;
  auto body_of = [&](const clang::Stmt* b) {
    if (const auto* c = llvm::dyn_cast<clang::CompoundStmt>(b))
      return sequence(std::vector<const clang::Stmt*>(c->body_begin(), c->body_end()));
    return sequence({b});
  };
  auto loop_body = [&](const clang::Stmt* b) {
    const bool outer = in_block_loop_;
    in_block_loop_ = true;
    std::vector<item> r = body_of(b);
    in_block_loop_ = outer;
    return r;
  };
  auto condition = [&](const clang::Expr* c) {
    if (!c) return -1;
    if (has_barrier(c)) refuse("a barrier inside a condition", c);
    if (!fiber_reason(c).empty()) refuse(fiber_reason(c), c);
    conditions_.push_back(c);
    condition_of_[c] = s;
    return new_segment({}, c);
  };
  if (const auto* c = llvm::dyn_cast<clang::CompoundStmt>(s)) {
    it.kind = item::compound;
    it.body = sequence(std::vector<const clang::Stmt*>(c->body_begin(), c->body_end()));
  } else if (const auto* f = llvm::dyn_cast<clang::IfStmt>(s)) {
    if (f->getInit() || f->getConditionVariable()) refuse("a barrier under an if with a declaration", s);
    it.kind = item::if_;
    if (!f->isConstexpr()) it.cond_seg = condition(f->getCond());
    it.body = body_of(f->getThen());
    if (f->getElse()) it.other = body_of(f->getElse());
  } else if (const auto* f = llvm::dyn_cast<clang::ForStmt>(s)) {
    if (f->getConditionVariable()) refuse("a barrier in a for loop with a condition declaration", s);
    it.kind = item::for_;
    block_loops_.insert(s);
    if (const clang::Stmt* init = f->getInit()) {
      if (has_barrier(init)) refuse("a barrier inside a for loop's initialisation", s);
      if (!fiber_reason(init).empty()) refuse(fiber_reason(init), s);
      it.init_seg = new_segment({init}, nullptr);
      if (const auto* e = llvm::dyn_cast<clang::Expr>(init)) {
        std::vector<const clang::Expr*> parts;
        comma_operands(e, parts);
        for_parts_.insert(parts.begin(), parts.end());
      }
      if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(init)) {
        if (invariant(d)) refuse("a for loop declaring a shared variable", s);
        declare(d, it.init_seg);
      }
    }
    it.cond_seg = condition(f->getCond());
    if (f->getInc()) {
      if (has_barrier(f->getInc())) refuse("a barrier inside a for loop's increment", s);
      if (!fiber_reason(f->getInc()).empty()) refuse(fiber_reason(f->getInc()), s);
      it.inc_seg = new_segment({}, f->getInc());
      std::vector<const clang::Expr*> parts;
      comma_operands(f->getInc(), parts);
      for_parts_.insert(parts.begin(), parts.end());
    }
    it.body = loop_body(f->getBody());
  } else if (const auto* w = llvm::dyn_cast<clang::WhileStmt>(s)) {
    if (w->getConditionVariable()) refuse("a barrier in a while loop with a condition declaration", s);
    it.kind = item::while_;
    block_loops_.insert(s);
    it.cond_seg = condition(w->getCond());
    it.body = loop_body(w->getBody());
  } else if (const auto* d = llvm::dyn_cast<clang::DoStmt>(s)) {
    it.kind = item::do_;
    block_loops_.insert(s);
    it.body = loop_body(d->getBody());
    it.cond_seg = condition(d->getCond());
  } else if (llvm::isa<clang::SwitchStmt>(s)) {
    refuse("a barrier inside a switch", s);
  } else if (llvm::isa<clang::CXXForRangeStmt>(s)) {
    refuse("a barrier inside a range-based for loop", s);
  } else if (llvm::isa<clang::CXXTryStmt>(s)) {
    refuse("a barrier inside a try block", s);
  } else {
    refuse("a barrier inside an expression or a statement of this kind", s);
  }
  return it;
}

// clang leaves out a statement it could not parse (a call of a function whose declaration it
// refused, say) without a trace in the AST: the region form would skip it without a word. So the
// text between a compound statement's statements must hold nothing but spaces, comments, ';',
// preprocessor lines and uses of macros that expand to nothing.
void translator::check_parsed() {
  struct compounds : clang::RecursiveASTVisitor<compounds> {
    std::vector<const clang::CompoundStmt*> found;
    bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
    bool VisitCompoundStmt(clang::CompoundStmt* c) {
      found.push_back(c);
      return true;
    }
  } cs;
  cs.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
  const clang::LangOptions& lo = ctx_.getLangOpts();
  for (const clang::CompoundStmt* c : cs.found) {
    const clang::SourceLocation lb = c->getLBracLoc(), rb = c->getRBracLoc();
    if (lb.isInvalid() || rb.isInvalid() || lb.isMacroID() || rb.isMacroID()) continue;
    const clang::FileID fid = sm_.getFileID(lb);
    if (sm_.getFileID(rb) != fid) continue;
    const llvm::StringRef buf = sm_.getBufferData(fid);
    unsigned pos = sm_.getFileOffset(lb) + 1;
    auto gap = [&](unsigned to) {
      if (to <= pos || gap_is_empty(buf.substr(pos, to - pos).str())) return;
      unsigned first = pos;
      while (first < to && std::isspace(static_cast<unsigned char>(buf[first]))) ++first;
      refuse("a statement clang could not parse (line " + std::to_string(sm_.getLineNumber(fid, first)) +
                 "; CUEMU_REGIONS_DIAGNOSTICS=1 shows clang's messages)",
             nullptr);
    };
    for (const clang::Stmt* child : c->body()) {
      const clang::CharSourceRange r = sm_.getExpansionRange(child->getSourceRange());
      if (r.isInvalid() || sm_.getFileID(r.getBegin()) != fid || sm_.getFileID(r.getEnd()) != fid) continue;
      const unsigned b = sm_.getFileOffset(r.getBegin());
      const unsigned e = sm_.getFileOffset(r.getEnd()) +
                         (r.isTokenRange() ? clang::Lexer::MeasureTokenLength(r.getEnd(), sm_, lo) : 0);
      gap(b);
      pos = std::max(pos, e);
    }
    gap(sm_.getFileOffset(rb));
  }
}

bool translator::gap_is_empty(const std::string& text) const {
  clang::Lexer lex(clang::SourceLocation(), ctx_.getLangOpts(), text.data(), text.data(),
                   text.data() + text.size());
  clang::Token t;
  bool more = !lex.LexFromRawLexer(t);
  auto next = [&] { more = more && !lex.LexFromRawLexer(t); };
  while (more || t.isNot(clang::tok::eof)) {
    if (t.is(clang::tok::eof)) break;
    if (t.is(clang::tok::semi)) {
      next();
    } else if (t.is(clang::tok::hash) && t.isAtStartOfLine()) {
      // A preprocessor line (#pragma unroll): up to the next line's first token. Lines a
      // conditional (#if ... #else ... #endif) left out are in the text too: such a gap is not
      // judged.
      next();
      if (t.is(clang::tok::raw_identifier)) {
        const llvm::StringRef d = t.getRawIdentifier();
        if (d == "if" || d == "ifdef" || d == "ifndef" || d == "elif" || d == "else" || d == "endif")
          return true;
      }
      while (more && t.isNot(clang::tok::eof) && !t.isAtStartOfLine()) next();
    } else if (t.is(clang::tok::raw_identifier) &&
               ctx_.Idents.get(t.getRawIdentifier()).hadMacroDefinition()) {
      next();
      if (t.is(clang::tok::l_paren)) {  // its arguments
        int depth = 0;
        do {
          if (t.is(clang::tok::l_paren)) ++depth;
          if (t.is(clang::tok::r_paren)) --depth;
          next();
        } while (depth > 0 && t.isNot(clang::tok::eof));
      }
    } else {
      return false;
    }
    if (!more) break;
  }
  return true;
}

// break and continue that would leave a region for a block-level loop; return with a value.
void translator::check_jumps(const clang::Stmt* s) {
  if (!s) return;
  if (llvm::isa<clang::LambdaExpr>(s)) return;
  if (llvm::isa<clang::BreakStmt>(s) || llvm::isa<clang::ContinueStmt>(s)) {
    const bool is_break = llvm::isa<clang::BreakStmt>(s);
    clang::DynTypedNode n = clang::DynTypedNode::create(*s);
    for (;;) {
      auto parents = ctx_.getParents(n);
      if (parents.empty()) break;
      n = parents[0];
      const clang::Stmt* p = n.get<clang::Stmt>();
      if (!p) break;
      const bool target = llvm::isa<clang::ForStmt>(p) || llvm::isa<clang::WhileStmt>(p) ||
                          llvm::isa<clang::DoStmt>(p) || llvm::isa<clang::CXXForRangeStmt>(p) ||
                          (is_break && llvm::isa<clang::SwitchStmt>(p));
      if (target) {
        if (block_loops_.count(p)) refuse("break or continue out of a loop that holds a barrier", s);
        break;
      }
    }
  }
  if (const auto* r = llvm::dyn_cast<clang::ReturnStmt>(s))
    if (r->getRetValue()) refuse("return with a value", s);
  for (const clang::Stmt* c : s->children()) check_jumps(c);
}

class use_collector : public clang::RecursiveASTVisitor<use_collector> {
 public:
  use_collector(const std::map<const clang::VarDecl*, int>& vars, std::set<const clang::VarDecl*>& out)
      : vars_(vars), out_(out) {}
  bool shouldVisitImplicitCode() const { return true; }
  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    if (const auto* v = llvm::dyn_cast<clang::VarDecl>(e->getDecl()))
      if (vars_.count(v)) out_.insert(v);
    return true;
  }

 private:
  const std::map<const clang::VarDecl*, int>& vars_;
  std::set<const clang::VarDecl*>& out_;
};

// Parameters a thread may write (anything but reading them): each thread gets its own copy.
class param_writes : public clang::RecursiveASTVisitor<param_writes> {
 public:
  param_writes(clang::ASTContext& ctx, std::set<const clang::ParmVarDecl*>& out) : ctx_(ctx), out_(out) {}
  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(e->getDecl());
    if (!p) return true;
    // Read: converted to its value, through any parentheses ((n) is a read of n).
    clang::DynTypedNode n = clang::DynTypedNode::create(*e);
    bool read = false;
    for (;;) {
      auto parents = ctx_.getParents(n);
      if (parents.empty()) break;
      if (parents[0].get<clang::ParenExpr>()) {
        n = parents[0];
        continue;
      }
      if (const auto* c = parents[0].get<clang::ImplicitCastExpr>())
        read = c->getCastKind() == clang::CK_LValueToRValue;
      break;
    }
    if (!read) out_.insert(p);
    return true;
  }

 private:
  clang::ASTContext& ctx_;
  std::set<const clang::ParmVarDecl*>& out_;
};

void translator::collect_uses() {
  std::set<const clang::ParmVarDecl*> written;
  for (segment& g : segs_) {
    use_collector u(declared_in_, g.uses);
    for (const clang::Stmt* s : g.stmts) u.TraverseStmt(const_cast<clang::Stmt*>(s));
    if (g.expr) u.TraverseStmt(const_cast<clang::Expr*>(g.expr));
  }
  for (const auto& [v, seg] : declared_in_) segs_[seg].uses.insert(v);
  for (const auto& [v, seg] : declared_in_) {
    bool elsewhere = false;
    for (std::size_t i = 0; i < segs_.size(); ++i)
      if (static_cast<int>(i) != seg && segs_[i].uses.count(v)) elsewhere = true;
    if (elsewhere) hoisted_.push_back(v);
  }
  // Deterministic order: by position.
  std::sort(hoisted_.begin(), hoisted_.end(), [&](const clang::VarDecl* a, const clang::VarDecl* b) {
    return sm_.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
  });
  for (std::size_t i = 0; i < hoisted_.size(); ++i) slot_of_[hoisted_[i]] = static_cast<int>(i);
  param_writes pw(ctx_, written);
  pw.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
  for (const clang::ParmVarDecl* p : k_->parameters())
    if (written.count(p)) params_.push_back(p);
}

// Whether an expression has one value in every thread of the block: made of constants, kernel
// parameters no thread writes, blockIdx/blockDim/gridDim, variables found uniform, and calls of
// functions without a body of their own or constexpr ones on such operands. Anything else
// (threadIdx, memory reads, other calls) may differ between threads.
bool translator::uniform(const clang::Expr* e) const {
  e = e->IgnoreParenImpCasts();
  if (llvm::isa<clang::IntegerLiteral>(e) || llvm::isa<clang::FloatingLiteral>(e) ||
      llvm::isa<clang::CXXBoolLiteralExpr>(e) || llvm::isa<clang::CharacterLiteral>(e) ||
      llvm::isa<clang::UnaryExprOrTypeTraitExpr>(e) || llvm::isa<clang::CXXNullPtrLiteralExpr>(e))
    return true;
  if (!e->isValueDependent() && !e->HasSideEffects(ctx_) && e->isIntegerConstantExpr(ctx_)) return true;
  if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
    const clang::ValueDecl* v = d->getDecl();
    if (llvm::isa<clang::EnumConstantDecl>(v) || llvm::isa<clang::NonTypeTemplateParmDecl>(v)) return true;
    if (const auto* p = llvm::dyn_cast<clang::ParmVarDecl>(v))
      return std::find(params_.begin(), params_.end(), p) == params_.end();
    if (const auto* var = llvm::dyn_cast<clang::VarDecl>(v)) {
      if (var->getName() == "blockIdx" || var->getName() == "blockDim" || var->getName() == "gridDim" ||
          var->getName() == "warpSize")
        return var->getDeclContext()->getRedeclContext()->isFileContext() ||
               var->getDeclContext()->isNamespace();
      if (var->isConstexpr()) return true;
      if (var->getType().isConstQualified() && var->hasInit() && !var->getInit()->isValueDependent() &&
          var->isUsableInConstantExpressions(ctx_))
        return true;
      return uniform_.count(var) != 0;
    }
    return false;
  }
  if (const auto* m = llvm::dyn_cast<clang::MemberExpr>(e))
    return !m->isArrow() && uniform(m->getBase());
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e))
    return !b->isAssignmentOp() && uniform(b->getLHS()) && uniform(b->getRHS());
  if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e))
    return !u->isIncrementDecrementOp() && u->getOpcode() != clang::UO_Deref &&
           u->getOpcode() != clang::UO_AddrOf && uniform(u->getSubExpr());
  if (const auto* c = llvm::dyn_cast<clang::ConditionalOperator>(e))
    return uniform(c->getCond()) && uniform(c->getTrueExpr()) && uniform(c->getFalseExpr());
  if (const auto* c = llvm::dyn_cast<clang::ExplicitCastExpr>(e)) return uniform(c->getSubExpr());
  if (const auto* c = llvm::dyn_cast<clang::CallExpr>(e)) {
    if (sync_calls::is_block_shape_call(c)) return true;
    const clang::FunctionDecl* fn = c->getDirectCallee();
    if (!fn || (fn->hasBody() && !fn->isConstexpr())) return false;
    if (llvm::isa<clang::CXXMemberCallExpr>(c)) return false;
    for (const clang::Expr* a : c->arguments())
      if (!uniform(a)) return false;
    return true;
  }
  return false;
}

// A shuffle's lane or delta that one thread can evaluate for all before its statement runs:
// uniform, without side effects, reading no variable that the statement declares or writes (a
// uniform variable's writes are whole statements: `k = 3, v += __shfl_down_sync(m, v, k)`).
bool translator::uniform_once(const clang::Expr* arg, const clang::Stmt* st) const {
  if (!uniform(arg) || arg->HasSideEffects(ctx_)) return false;
  variable_refs r;
  r.TraverseStmt(const_cast<clang::Expr*>(arg));
  const clang::SourceLocation b = sm_.getExpansionLoc(st->getBeginLoc());
  const clang::SourceLocation e = sm_.getExpansionLoc(st->getEndLoc());
  const auto inside = [&](clang::SourceLocation l) {
    l = sm_.getExpansionLoc(l);
    return !sm_.isBeforeInTranslationUnit(l, b) && !sm_.isBeforeInTranslationUnit(e, l);
  };
  for (const clang::VarDecl* v : r.vars)
    if (inside(v->getLocation())) return false;
  for (const auto& [v, whole] : writes_)
    if (r.vars.count(v) && inside(whole->getBeginLoc())) return false;
  return true;
}

// Block-level variables equal in every thread: a uniform initialiser, and written only by
// uniform assignments that every thread makes (a for loop's increment, or a statement of a
// region not nested in anything). Starts from all of them and drops the ones that break it.
void translator::find_uniform() {
  struct write_finder : clang::RecursiveASTVisitor<write_finder> {
    clang::ASTContext* ctx = nullptr;
    std::vector<std::pair<const clang::VarDecl*, const clang::Expr*>> writes;  // (var, whole write)
    std::set<const clang::DeclRefExpr*> targets;  // the operands of the writes above
    void add(const clang::Expr* target, const clang::Expr* whole) {
      if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(target->IgnoreParenImpCasts()))
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl())) {
          writes.push_back({v, whole});
          targets.insert(d);
        }
    }
    // Any other use that does not only read it (a non-const reference or pointer to it handed to
    // a function, bound, its member written, ...) may write it: a write no thread proves uniform.
    bool VisitDeclRefExpr(clang::DeclRefExpr* d) {
      const auto* v = llvm::dyn_cast<clang::VarDecl>(d->getDecl());
      if (!v || targets.count(d)) return true;
      const clang::Stmt* child = d;
      for (;;) {
        auto parents = ctx->getParents(*child);
        const clang::Stmt* p = parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
        if (p && llvm::isa<clang::ParenExpr>(p)) {
          child = p;
          continue;
        }
        if (const auto* c = llvm::dyn_cast_or_null<clang::ImplicitCastExpr>(p))
          if (c->getCastKind() == clang::CK_LValueToRValue) return true;
        break;
      }
      writes.push_back({v, d});
      return true;
    }
    bool VisitBinaryOperator(clang::BinaryOperator* b) {
      if (b->isAssignmentOp()) add(b->getLHS(), b);
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator* u) {
      if (u->isIncrementDecrementOp() || u->getOpcode() == clang::UO_AddrOf) add(u->getSubExpr(), u);
      return true;
    }
    bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* c) {
      if (c->getNumArgs() > 0) add(c->getArg(0), c);
      return true;
    }
  } w;
  w.ctx = &ctx_;
  w.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
  writes_ = w.writes;
  // The writes every thread makes as one statement at block level.
  std::set<const clang::Expr*> top_level;
  for (const segment& g : segs_) {
    std::vector<const clang::Expr*> parts;
    if (g.expr && g.offers < 0) comma_operands(g.expr, parts);
    for (const clang::Stmt* st : g.stmts)
      if (const auto* e = llvm::dyn_cast<clang::Expr>(st)) comma_operands(e, parts);
    top_level.insert(parts.begin(), parts.end());
  }
  for (const auto& [v, seg] : declared_in_) {
    if (v->getType()->isReferenceType() || v->getType().isVolatileQualified()) continue;
    if (!v->getType()->isDependentType() && !v->getType().isTriviallyCopyableType(ctx_)) continue;
    const clang::Expr* init = v->getInit();
    if (init && !llvm::isa<clang::CXXConstructExpr>(init)) uniform_.insert(v);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const clang::VarDecl* v : std::set<const clang::VarDecl*>(uniform_)) {
      bool ok = uniform(v->getInit());
      for (const auto& [wv, whole] : w.writes) {
        if (wv != v || !ok) continue;
        if (!top_level.count(whole)) {
          ok = false;
        } else if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(whole)) {
          ok = uniform(b->getRHS());
        } else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(whole)) {
          ok = u->isIncrementDecrementOp();
        } else {
          ok = false;
        }
      }
      if (!ok) {
        uniform_.erase(v);
        changed = true;
      }
    }
  }
}

void translator::require_uniform() {
  find_uniform();
  for (const clang::Expr* c : conditions_)
    if (!uniform(c)) {
      refusal r{"a barrier under a condition that may differ between the threads of the block (line " +
                    std::to_string(line_of(c->getBeginLoc())) + ")",
                fallback_for(condition_of_.at(c))};
      throw r;
    }
  for (const clang::VarDecl* v : uniform_) {
    if (!slot_of_.count(v)) continue;
    bool once = true;
    for (const auto& [wv, whole] : writes_)
      if (wv == v && !for_parts_.count(whole->IgnoreParens())) once = false;
    if (once) single_.insert(v);
  }
}

bool translator::plain_destructor(const clang::CXXRecordDecl* r) {
  if (!r || !r->hasDefinition()) return false;
  r = r->getDefinition();
  if (!r->hasNonTrivialDestructor()) return true;
  const clang::CXXDestructorDecl* d = r->getDestructor();
  if (!d) return false;
  if (d->isUserProvided()) {
    const clang::FunctionDecl* def = d->getDefinition();
    if (!def) return false;
    const sync_summary& s = calls_.of(def);
    if (s.barrier || s.shuffle || s.barrier_below || s.polls || s.thread_index || s.dependent ||
        !s.forbidden.empty())
      return false;
  }
  // What it destroys after its body: the members and bases.
  for (const clang::FieldDecl* f : r->fields()) {
    clang::QualType ft = ctx_.getBaseElementType(f->getType());
    if (const clang::CXXRecordDecl* fr = ft->getAsCXXRecordDecl())
      if (!plain_destructor(fr)) return false;
  }
  for (const clang::CXXBaseSpecifier& b : r->bases())
    if (!plain_destructor(b.getType()->getAsCXXRecordDecl())) return false;
  return true;
}

std::string translator::type_of(const clang::VarDecl* v) {
  // A thread's copy needs no __restrict__ of its own (g++ refuses it on region_var's storage).
  clang::QualType t = v->getType();
  t.removeLocalRestrict();
  if (t->isReferenceType()) refuse("a reference variable live across a barrier", nullptr);
  if (const clang::AutoType* a = t->getContainedAutoType())
    if (!a->isDeduced() || t->isDependentType())
      refuse("an 'auto' variable of a type that depends on template parameters live across a barrier",
             nullptr);
  if (const auto* r = t->getAsCXXRecordDecl())
    if (r->isLambda()) refuse("a lambda live across a barrier", nullptr);
  clang::PrintingPolicy pp(ctx_.getLangOpts());
  pp.SuppressTagKeyword = true;
  pp.FullyQualifiedName = true;
  std::string s = t.getAsString(pp);
  if (s.find("(anonymous") != std::string::npos || s.find("(unnamed") != std::string::npos ||
      s.find("(lambda") != std::string::npos)
    refuse("a variable of an unnamed type live across a barrier", nullptr);
  if (t->isDependentType()) {
    dependent_types_.push_back(s);
  } else if (!t.isTriviallyCopyableType(ctx_)) {
    // An object (cuda::pipeline): constructed in place per thread, destroyed with the block's
    // region form, which is where its scope ends only at the kernel's top level.
    if (llvm::isa<clang::ParmVarDecl>(v) || t->isArrayType() || nested_.count(v))
      refuse("a variable of a type that is not trivially copyable live across a barrier, declared "
             "inside a block-level statement",
             nullptr);
    // Its destructor runs when the block's region form ends, outside any thread: it must not
    // synchronise, poll or ask which thread runs it.
    if (!plain_destructor(t->getAsCXXRecordDecl()))
      refuse("a variable live across a barrier whose destructor synchronises, polls or reads "
             "threadIdx",
             nullptr);
    objects_.insert(v);
  }
  return s;
}

std::string translator::text(const clang::Stmt* s) {
  clang::CharSourceRange r = sm_.getExpansionRange(s->getSourceRange());
  if (llvm::isa<clang::CompoundStmt>(s) || llvm::isa<clang::DeclStmt>(s))
    return scratch_.getRewrittenText(r);
  // A statement's range stops before its closing ';' (x = 1;  if (c) return;  do ... while (c);):
  // read up to and with it, so that an edit at the range's last token is inside.
  if (auto next = clang::Lexer::findNextToken(r.getEnd(), sm_, ctx_.getLangOpts()))
    if (next->is(clang::tok::semi))
      r = clang::CharSourceRange::getCharRange(r.getBegin(), next->getEndLoc());
  return scratch_.getRewrittenText(r);
}

// The expressions of a comma list (a, b, c), each without parentheses.
void comma_operands(const clang::Expr* e, std::vector<const clang::Expr*>& out) {
  e = e->IgnoreParens();
  if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->getOpcode() == clang::BO_Comma) {
    comma_operands(b->getLHS(), out);
    comma_operands(b->getRHS(), out);
    return;
  }
  out.push_back(e);
}


std::string translator::line_directive(const clang::Stmt* s) const {
  return "\n#line " + std::to_string(line_of(s->getBeginLoc())) + " " + quote(file_of(s->getBeginLoc())) + "\n";
}

// The edits inside statements: return ends the thread; a hoisted declaration stores its value in
// the thread's copy.
void translator::prepare_edits() {
  const clang::LangOptions& lo = ctx_.getLangOpts();
  // A kernel launched from the kernel (a statement run as coroutines): clang parsed the call with
  // its launch configuration blanked; the region form gets it back from the file as written.
  struct calls_in : clang::RecursiveASTVisitor<calls_in> {
    std::vector<const clang::CallExpr*> found;
    bool VisitCallExpr(clang::CallExpr* c) {
      found.push_back(c);
      return true;
    }
  } ci;
  ci.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
  const clang::FileID main = sm_.getMainFileID();
  const llvm::StringRef parsed = sm_.getBufferData(main);
  for (const clang::CallExpr* c : ci.found) {
    const clang::SourceLocation end = c->getCallee()->getEndLoc();
    if (end.isInvalid() || end.isMacroID() || sm_.getFileID(end) != main) continue;
    const clang::SourceLocation after = clang::Lexer::getLocForEndOfToken(end, 0, sm_, lo);
    if (after.isInvalid()) continue;
    const unsigned from = sm_.getFileOffset(after);
    unsigned to = from;
    while (to < parsed.size() && to < original_.size() &&
           std::isspace(static_cast<unsigned char>(parsed[to])))
      ++to;
    if (to == from || to > original_.size()) continue;
    const std::string written = original_.substr(from, to - from);
    if (written.find("<<<") == std::string::npos) continue;
    if (scratch_.ReplaceText(after, to - from, written)) refuse("a kernel launch inside a macro", c);
  }
  // A shuffle's call becomes its result, read from the values every thread offered.
  for (std::size_t i = 0; i < shuffles_.size(); ++i) {
    const shuffle_point& sp = shuffles_[i];
    const clang::CharSourceRange r = sm_.getExpansionRange(sp.call->getSourceRange());
    if (sp.vote) {
      offered_.push_back("(" + expr_text(sp.call->getArg(0)) + ") ? 1 : 0");
      if (sp.call->getBeginLoc().isMacroID() ||
          scratch_.ReplaceText(r, "__cuemu_rb->vote(::cuemu::detail::barrier_op::" + std::string(sp.op) +
                                      ", __cuemu_x" + std::to_string(i) + ")"))
        refuse("a barrier inside a macro", sp.call);
      continue;
    }
    if (sp.fold) {
      const std::string value = expr_text(sp.call->getArg(1));
      offered_.push_back(sp.op[0] == 'r' ? value : "(" + value + ") != 0");
      if (sp.call->getBeginLoc().isMacroID() ||
          scratch_.ReplaceText(r, "static_cast<" + sp.result + ">(__cuemu_w.fold(::cuemu::detail::warp_op::" +
                                      std::string(sp.op) + ", __cuemu_x" + std::to_string(i) + ", __cuemu_s))"))
        refuse("a warp vote inside a macro", sp.call);
      continue;
    }
    offered_.push_back(expr_text(sp.call->getArg(sp.value_arg)));
    const std::string arg = "static_cast<int>(" + expr_text(sp.call->getArg(sp.value_arg + 1)) + ")";
    shuffles_[i].uniform_arg = uniform_once(sp.call->getArg(sp.value_arg + 1), sp.stmt);
    shuffles_[i].arg_text = arg;
    const std::string result =
        shuffles_[i].uniform_arg
            ? "__cuemu_y" + std::to_string(i) + ".get(__cuemu_s)"
            : "__cuemu_w.shuffle(::cuemu::detail::warp_op::" + std::string(sp.op) + ", __cuemu_x" +
                  std::to_string(i) + ", __cuemu_s, (" + arg + "), " + sp.width + ")";
    if (sp.call->getBeginLoc().isMacroID() || scratch_.ReplaceText(r, result))
      refuse("a warp shuffle inside a macro", sp.call);
  }
  struct returns : clang::RecursiveASTVisitor<returns> {
    std::vector<const clang::ReturnStmt*> found;
    bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
    bool TraverseCXXRecordDecl(clang::CXXRecordDecl*) { return true; }
    bool VisitReturnStmt(clang::ReturnStmt* r) {
      found.push_back(r);
      return true;
    }
  } rv;
  rv.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
  for (const clang::ReturnStmt* r : rv.found) {
    const clang::SourceLocation l = r->getReturnLoc();
    if (l.isMacroID() || scratch_.ReplaceText(l, 6, "return false"))
      refuse("a return inside a macro", r);
  }
  // Declarations of hoisted variables.
  std::set<const clang::DeclStmt*> done;
  for (const segment& g : segs_)
    for (const clang::Stmt* s : g.stmts) {
      const auto* d = llvm::dyn_cast<clang::DeclStmt>(s);
      if (!d || done.count(d)) continue;
      bool any = false, all = true;
      for (const clang::Decl* x : d->decls()) {
        const auto* v = llvm::dyn_cast<clang::VarDecl>(x);
        const bool h = v && slot_of_.count(v);
        any = any || h;
        all = all && h;
      }
      if (!any) continue;
      if (!all) refuse("a declaration of variables both live and not live across a barrier", d);
      done.insert(d);
      std::string repl;
      for (const clang::Decl* x : d->decls()) {
        const auto* v = llvm::cast<clang::VarDecl>(x);
        const std::string name = v->getNameAsString();
        std::string init;
        if (v->hasInit()) {
          if (v->getLocation().isMacroID()) refuse("a declaration inside a macro", d);
          const clang::SourceLocation after = clang::Lexer::getLocForEndOfToken(v->getLocation(), 0, sm_, lo);
          // An initialiser may end in a macro (N * WARP_SIZE): where it expands.
          const clang::SourceLocation end = sm_.getExpansionRange(v->getEndLoc()).getEnd();
          if (after.isInvalid() || end.isMacroID()) refuse("a declaration inside a macro", d);
          init = scratch_.getRewrittenText(clang::CharSourceRange::getCharRange(
              after, clang::Lexer::getLocForEndOfToken(end, 0, sm_, lo)));
          // Array bounds stay with the type.
          std::size_t i = 0;
          for (;;) {
            while (i < init.size() && std::isspace(static_cast<unsigned char>(init[i]))) ++i;
            if (i < init.size() && init[i] == '[') {
              int depth = 0;
              for (; i < init.size(); ++i) {
                if (init[i] == '[') ++depth;
                if (init[i] == ']' && --depth == 0) {
                  ++i;
                  break;
                }
              }
              continue;
            }
            break;
          }
          init = init.substr(i);
        }
        const bool record = v->getType()->isRecordType() || v->getType()->isDependentType();
        if (objects_.count(v)) {
          // Constructed in place: `= x` as (x), `(args)` and `{args}` as written, none: default.
          std::size_t i = 0;
          while (i < init.size() && std::isspace(static_cast<unsigned char>(init[i]))) ++i;
          std::string ctor = init.substr(i);
          if (!ctor.empty() && ctor[0] == '=') {
            ctor = ctor.substr(1);
            std::size_t j = 0;
            while (j < ctor.size() && std::isspace(static_cast<unsigned char>(ctor[j]))) ++j;
            if (j >= ctor.size() || ctor[j] != '{') ctor = "(" + ctor + ")";
          }
          repl += "::new (__cuemu_v" + std::to_string(slot_of_.at(v)) +
                  ".place(__cuemu_s)) ::cuemu::detail::region_type<decltype(" + name + ")>" + ctor + "; ";
          continue;
        }
        if (init.empty() && !record) continue;
        repl += "{ ::cuemu::detail::region_type<decltype(" + name + ")> __cuemu_t " + init +
                "; __cuemu_v" + std::to_string(slot_of_.at(v)) + ".set(__cuemu_s, __cuemu_t); } ";
      }
      const clang::CharSourceRange r = sm_.getExpansionRange(d->getSourceRange());
      if (d->getBeginLoc().isMacroID() || scratch_.ReplaceText(r, repl.empty() ? ";" : repl))
        refuse("a declaration inside a macro", d);
    }
}

std::string translator::bindings(int seg) {
  std::string out;
  std::set<std::string> names;
  std::vector<const clang::VarDecl*> vars;
  for (const clang::VarDecl* v : segs_[seg].uses)
    if (slot_of_.count(v)) vars.push_back(v);
  std::sort(vars.begin(), vars.end(), [&](auto* a, auto* b) { return slot_of_[a] < slot_of_[b]; });
  for (const clang::VarDecl* v : vars) {
    if (!names.insert(v->getNameAsString()).second)
      refuse("two variables named '" + v->getNameAsString() + "' live across a barrier", nullptr);
    // maybe_unused: a segment binds what its statements may use (-Wunused-variable in a user's
    // -Wall build would point at their line).
    out += "[[maybe_unused]] auto& " + v->getNameAsString() + " = __cuemu_v" + std::to_string(slot_of_[v]) +
           "[__cuemu_s]; ";
  }
  // Parameters a thread writes: its own copy.
  variable_refs r;
  for (const clang::Stmt* s : segs_[seg].stmts) r.TraverseStmt(const_cast<clang::Stmt*>(s));
  if (segs_[seg].expr) r.TraverseStmt(const_cast<clang::Expr*>(segs_[seg].expr));
  const std::set<const clang::VarDecl*>& used = r.vars;
  for (std::size_t i = 0; i < params_.size(); ++i)
    if (used.count(params_[i])) {
      if (!names.insert(params_[i]->getNameAsString()).second)
        refuse("a parameter and a variable with one name", nullptr);
      out += "[[maybe_unused]] auto& " + params_[i]->getNameAsString() + " = __cuemu_p" + std::to_string(i) +
             "[__cuemu_s]; ";
    }
  // A region's own declarations must not collide with the names bound here.
  for (const clang::Stmt* s : segs_[seg].stmts)
    if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(s))
      for (const clang::Decl* x : d->decls())
        if (const auto* v = llvm::dyn_cast<clang::VarDecl>(x))
          if (!slot_of_.count(v) && names.count(v->getNameAsString()))
            refuse("a variable named like one live across a barrier", d);
  // A thread's copy of a parameter is named like the parameter, which the lambda can see: the
  // user's -Wshadow must not see the emulator's bindings (and only them).
  if (!out.empty())
    out = "_Pragma(\"GCC diagnostic push\") _Pragma(\"GCC diagnostic ignored \\\"-Wshadow\\\"\") " + out +
          "_Pragma(\"GCC diagnostic pop\") ";
  return out;
}

std::string translator::lambda(int seg, bool condition, const char* attributes, bool any_slot) {
  const segment& g = segs_[seg];
  std::string out = std::string(any_slot ? "[&](auto __cuemu_s) " : "[&](unsigned __cuemu_s) ") + attributes +
                    "-> bool { (void)__cuemu_s; " + bindings(seg);
  if (g.offers >= 0) {
    const std::string x = "__cuemu_x" + std::to_string(g.offers);
    return out + line_directive(g.expr) + x + ".set(__cuemu_s, static_cast<" +
           shuffles_[g.offers].type + ">(" + offered_[g.offers] + "));\nreturn true; }";
  }
  if (condition) {
    out += "return static_cast<bool>(" + line_directive(g.expr) + expr_text(g.expr) + "); }";
    return out;
  }
  for (const clang::Stmt* s : g.stmts) out += line_directive(s) + text(s);
  // A for loop's increment (an expression, not a statement: no ';' of its own).
  if (g.expr) out += line_directive(g.expr) + expr_text(g.expr) + ";";
  out += "\nreturn true; }";
  return out;
}

// A for loop's initialisation or increment that only writes uniform variables with uniform
// values: one thread's run is every thread's.
bool translator::runs_once(int seg) const {
  const segment& g = segs_[seg];
  std::function<bool(const clang::Expr*)> writes_only_uniform = [&](const clang::Expr* e) -> bool {
    e = e->IgnoreParens();
    if (const auto* c = llvm::dyn_cast<clang::BinaryOperator>(e); c && c->getOpcode() == clang::BO_Comma)
      return writes_only_uniform(c->getLHS()) && writes_only_uniform(c->getRHS());
    const clang::Expr* target = nullptr;
    if (const auto* b = llvm::dyn_cast<clang::BinaryOperator>(e); b && b->isAssignmentOp()) {
      if (!uniform(b->getRHS())) return false;
      target = b->getLHS();
    } else if (const auto* u = llvm::dyn_cast<clang::UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
      target = u->getSubExpr();
    } else {
      return false;
    }
    const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(target->IgnoreParenImpCasts());
    const auto* v = d ? llvm::dyn_cast<clang::VarDecl>(d->getDecl()) : nullptr;
    return v && single_.count(v);
  };
  if (g.expr) return g.stmts.empty() && writes_only_uniform(g.expr);
  if (g.stmts.size() != 1) return false;
  if (const auto* d = llvm::dyn_cast<clang::DeclStmt>(g.stmts[0])) {
    for (const clang::Decl* x : d->decls()) {
      const auto* v = llvm::dyn_cast<clang::VarDecl>(x);
      if (!v || !single_.count(v)) return false;
    }
    return true;
  }
  if (const auto* e = llvm::dyn_cast<clang::Expr>(g.stmts[0])) return writes_only_uniform(e);
  return false;
}

// The loop over the threads for a segment: without setting threadIdx per thread where nothing
// it runs reads it (through every call; an unknown call counts as reading it).
std::string translator::each(int seg) {
  const segment& g = segs_[seg];
  bool reads = false;
  for (const clang::Stmt* s : g.stmts) reads = reads || calls_.of_stmt(s, 0).thread_index;
  if (g.expr) reads = reads || calls_.of_stmt(g.expr, 0).thread_index;
  if (reads) return "__cuemu_rb->each(";
  return may_fault(seg) ? "__cuemu_rb->each<false>(" : "__cuemu_rb->each<false, false>(";
}

// Whether the kernel never changes a variable: it is const, or every use of it reads its value
// or indexes a pointer or array (no assignment, increment, address or reference taken:
// `unsigned tid = threadIdx.x;`).
bool translator::only_read(const clang::VarDecl* v) const {
  if (v->getType().isConstQualified()) return true;
  struct uses : clang::RecursiveASTVisitor<uses> {
    const clang::VarDecl* v;
    std::set<const clang::DeclRefExpr*> read;
    bool other = false;
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitImplicitCastExpr(clang::ImplicitCastExpr* c) {
      if (c->getCastKind() == clang::CK_LValueToRValue)
        if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(c->getSubExpr()->IgnoreParens())) read.insert(d);
      return true;
    }
    // The index of a pointer's or array's subscript (in a template, `sdata[tid]` with sdata a
    // T*, the index has no conversion around it yet).
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr* a) {
      const clang::QualType base = a->getBase()->IgnoreParenImpCasts()->getType();
      if (base->isAnyPointerType() || base->isArrayType())
        if (const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(a->getIdx()->IgnoreParens())) read.insert(d);
      return true;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr* d) {
      if (d->getDecl() == v && !read.count(d)) other = true;
      return !other;
    }
  } u;
  u.v = v;
  u.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
  return !u.other;
}

// For a region that is one `if (t < L) ...` without else, t an integer copy of threadIdx.x that
// the kernel only reads, stored per thread, and L uniform, free of side effects, calls and division: the
// test for threadIdx.x = __cuemu_i, which region_block::each_below uses to run only the threads
// it can hold for (a tree reduction's `if (t < stride)`). Empty for any other region.
std::string translator::below_test(int seg) {
  const segment& g = segs_[seg];
  if (g.expr || g.offers >= 0 || g.stmts.size() != 1) return "";
  const auto* is = llvm::dyn_cast<clang::IfStmt>(g.stmts[0]);
  if (!is || is->getElse() || is->getInit() || is->getConditionVariable() || is->isConstexpr()) return "";
  const auto* lt = llvm::dyn_cast<clang::BinaryOperator>(is->getCond()->IgnoreParenImpCasts());
  if (!lt || lt->getOpcode() != clang::BO_LT) return "";
  const auto* d = llvm::dyn_cast<clang::DeclRefExpr>(lt->getLHS()->IgnoreParenImpCasts());
  const auto* v = d ? llvm::dyn_cast<clang::VarDecl>(d->getDecl()) : nullptr;
  if (!v || !slot_of_.count(v) || !only_read(v) || !v->hasInit() ||
      !v->getType()->isIntegerType() || v->getType()->isBooleanType() || ctx_.getTypeSize(v->getType()) < 16)
    return "";
  const auto* m = llvm::dyn_cast<clang::MemberExpr>(v->getInit()->IgnoreParenImpCasts());
  if (!m || m->isArrow() || m->getMemberDecl()->getName() != "x") return "";
  const auto* base = llvm::dyn_cast<clang::DeclRefExpr>(m->getBase()->IgnoreParenImpCasts());
  const auto* tid = base ? llvm::dyn_cast<clang::VarDecl>(base->getDecl()) : nullptr;
  if (!tid || tid->getName() != "threadIdx" ||
      !(tid->getDeclContext()->getRedeclContext()->isFileContext() || tid->getDeclContext()->isNamespace()))
    return "";
  const clang::Expr* limit = lt->getRHS();
  if (!uniform(limit) || limit->HasSideEffects(ctx_)) return "";
  struct plain : clang::RecursiveASTVisitor<plain> {
    bool ok = true;
    bool VisitCallExpr(clang::CallExpr*) { return ok = false; }
    bool VisitBinaryOperator(clang::BinaryOperator* b) {
      const auto op = b->getOpcode();
      if (op == clang::BO_Div || op == clang::BO_Rem) ok = false;
      return ok;
    }
  } p;
  p.TraverseStmt(const_cast<clang::Expr*>(limit));
  if (!p.ok) return "";
  return "[&](unsigned __cuemu_s, unsigned __cuemu_i) -> bool { (void)__cuemu_s; " + bindings(seg) +
         "return static_cast<std::remove_cv_t<std::remove_reference_t<decltype(" + v->getNameAsString() +
         ")>>>(__cuemu_i) < (" + expr_text(limit) + "); }, ";
}

// Whether running a segment can fault or reach the runtime (which asks which thread runs): any
// call but its own shuffle point's (replaced by a read of the values offered), a memory access
// through a pointer or reference (a dereference, a subscript, `->`, a reference variable),
// integer division, a constructor, destructor, new, delete, throw or inline assembly. Else its
// loop needs no record of the running thread.
bool translator::may_fault(int seg) const {
  struct finder : clang::RecursiveASTVisitor<finder> {
    const std::vector<shuffle_point>* points = nullptr;
    bool found = false;
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitCallExpr(clang::CallExpr* c) {
      for (const shuffle_point& p : *points)
        if (p.call == c) return true;
      found = true;
      return false;
    }
    bool VisitUnaryOperator(clang::UnaryOperator* u) {
      if (u->getOpcode() == clang::UO_Deref) found = true;
      return !found;
    }
    bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr*) { return !(found = true); }
    bool VisitMemberExpr(clang::MemberExpr* m) {
      if (m->isArrow()) found = true;
      return !found;
    }
    bool VisitDeclRefExpr(clang::DeclRefExpr* d) {
      if (d->getType()->isReferenceType() ||
          (llvm::isa<clang::VarDecl>(d->getDecl()) &&
           llvm::cast<clang::VarDecl>(d->getDecl())->getType()->isReferenceType()))
        found = true;
      return !found;
    }
    bool VisitBinaryOperator(clang::BinaryOperator* b) {
      const auto op = b->getOpcode();
      if ((op == clang::BO_Div || op == clang::BO_Rem || op == clang::BO_DivAssign ||
           op == clang::BO_RemAssign) && !b->getType()->isRealFloatingType())
        found = true;
      return !found;
    }
    bool VisitCXXConstructExpr(clang::CXXConstructExpr* c) {
      if (!c->getConstructor()->isTrivial()) found = true;
      return !found;
    }
    bool VisitVarDecl(clang::VarDecl* v) {
      const clang::CXXRecordDecl* r = v->getType()->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
      if (v->getType()->isReferenceType() || (r && r->hasDefinition() && !r->hasTrivialDestructor()))
        found = true;
      return !found;
    }
    bool VisitCXXNewExpr(clang::CXXNewExpr*) { return !(found = true); }
    bool VisitCXXDeleteExpr(clang::CXXDeleteExpr*) { return !(found = true); }
    bool VisitCXXThrowExpr(clang::CXXThrowExpr*) { return !(found = true); }
    bool VisitCXXBindTemporaryExpr(clang::CXXBindTemporaryExpr*) { return !(found = true); }
    bool VisitAsmStmt(clang::AsmStmt*) { return !(found = true); }
    bool VisitLambdaExpr(clang::LambdaExpr*) { return !(found = true); }
  } f;
  f.points = &shuffles_;
  const segment& g = segs_[seg];
  for (const clang::Stmt* s : g.stmts)
    if (!f.found) f.TraverseStmt(const_cast<clang::Stmt*>(s));
  if (g.expr && !f.found) f.TraverseStmt(const_cast<clang::Expr*>(g.expr));
  return f.found;
}

void translator::emit(const std::vector<item>& items, std::string& out, int depth) {
  for (const item& it : items) {
    switch (it.kind) {
      case item::region: {
        const std::string below = below_test(it.seg);
        std::string loop = each(it.seg);
        if (!below.empty()) {
          loop.replace(loop.find("each"), 4, "each_below");
          ++bounded_;
        }
        out += loop + below + lambda(it.seg, false) + ");\n";
        break;
      }
      case item::shuffle: {
        const std::string no = std::to_string(it.shuffle_no);
        const std::string x = "__cuemu_x" + no;
        const shuffle_point& sp = shuffles_[it.shuffle_no];
        // A variable stored per thread offered as it is: its values copied at once (or, for a
        // shuffle with one lane or delta, read where they are).
        const auto* ref = sp.fold || sp.vote ? nullptr
                          : llvm::dyn_cast<clang::DeclRefExpr>(sp.call->getArg(sp.value_arg)->IgnoreParenImpCasts());
        const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
        const bool as_is = var && slot_of_.count(var) && !single_.count(var) &&
                           ctx_.hasSameUnqualifiedType(var->getType(), sp.call->getArg(sp.value_arg)->getType());
        if (sp.uniform_arg) {
          // Every thread's result before the pass that reads it: the lane or delta evaluated
          // once (as the first thread that has not returned), the values offered shuffled as a
          // whole, and the pass reads an array.
          out += "{\n";
          std::string from = as_is ? "__cuemu_v" + std::to_string(slot_of_[var]) : x;
          if (!as_is)
            out += "::cuemu::detail::region_var<" + sp.type + "> " + x + "(*__cuemu_rb);\n" +
                   each(it.value_seg) + lambda(it.value_seg, false) + ");\n";
          const clang::Expr* a = sp.call->getArg(sp.value_arg + 1);
          out += "int __cuemu_a" + no + " = 0;\n__cuemu_rb->once([&](unsigned __cuemu_s) -> bool { (void)__cuemu_s; " +
                 bindings(it.seg) + line_directive(a) + "__cuemu_a" + no + " = " + sp.arg_text +
                 ";\nreturn true; });\n";
          out += "::cuemu::detail::region_var<" + sp.type + "> __cuemu_y" + no + "(*__cuemu_rb);\n" +
                 "::cuemu::detail::region_shuffled(__cuemu_y" + no + ", ::cuemu::detail::warp_op::" +
                 std::string(sp.op) + ", " + from + ", __cuemu_a" + no + ", " + sp.width + ", *__cuemu_rb);\n";
          out += each(it.seg) + lambda(it.seg, false) + ");\n}\n";
          break;
        }
        out += "{\n::cuemu::detail::region_var<" + sp.type + "> " + x + "(*__cuemu_rb);\n";
        if (!sp.vote)
          out += "const ::cuemu::detail::region_block::warps_view __cuemu_w = __cuemu_rb->warps();\n";
        if (as_is)
          out += x + ".copy(__cuemu_v" + std::to_string(slot_of_[var]) + ", *__cuemu_rb);\n";
        else
          out += each(it.value_seg) + lambda(it.value_seg, false) + ");\n";
        if (sp.fold || sp.vote) {
          out += each(it.seg) + lambda(it.seg, false) + ");\n}\n";
        } else {
          // The pass that reads the shuffled values: in a block of whole warps its slots come
          // as warp_slot (the lambda takes `auto`), which finds the source lane in a few steps.
          std::string e = each(it.seg);
          e.replace(e.find("->each"), 6, "->each_warp");
          out += e + lambda(it.seg, false, "", true) + ");\n}\n";
        }
        break;
      }
      case item::jump:
        out += llvm::isa<clang::BreakStmt>(it.s) ? "break;\n" : "continue;\n";
        break;
      case item::fibers:
        out += "__cuemu_rb->fibers(" + quote(file_of(it.s->getBeginLoc())) + ", " + std::to_string(line_of(it.s->getBeginLoc())) + ", " +
               (nothing_syncs_after(it.s) ? "true" : "false") + ", " +
               lambda(it.seg, false, "CUEMU_FIBER_STATEMENT ") + ");\n";
        break;
      case item::compound:
        out += "{\n";
        emit(it.body, out, depth + 1);
        out += "}\n";
        break;
      case item::if_: {
        const auto* f = llvm::cast<clang::IfStmt>(it.s);
        if (f->isConstexpr())
          out += "if constexpr (" + expr_text(f->getCond()) + ") {\n";
        else
          out += "if (__cuemu_rb->uniform(" + lambda(it.cond_seg, true) + ")) {\n";
        emit(it.body, out, depth + 1);
        out += "} else {\n";
        emit(it.other, out, depth + 1);
        out += "}\n";
        break;
      }
      case item::for_: {
        out += "{\n";
        if (it.init_seg >= 0)
          out += (runs_once(it.init_seg) ? std::string("__cuemu_rb->once(") : each(it.init_seg)) +
                 lambda(it.init_seg, false) + ");\n";
        // for (; cond; inc): a continue runs the increment.
        out += "for (; ";
        out += it.cond_seg >= 0 ? "__cuemu_rb->uniform(" + lambda(it.cond_seg, true) + ")"
                                : std::string("__cuemu_rb->live != 0");
        out += "; ";
        if (it.inc_seg >= 0)
          out += (runs_once(it.inc_seg) ? std::string("__cuemu_rb->once(") : each(it.inc_seg)) +
                 lambda(it.inc_seg, false) + ")";
        out += ") {\n";
        emit(it.body, out, depth + 1);
        out += "}\n}\n";
        break;
      }
      case item::while_:
        out += "while (__cuemu_rb->uniform(" + lambda(it.cond_seg, true) + ")) {\n";
        emit(it.body, out, depth + 1);
        out += "}\n";
        break;
      case item::do_:
        out += "do {\n";
        emit(it.body, out, depth + 1);
        out += "} while (__cuemu_rb->uniform(" + lambda(it.cond_seg, true) + "));\n";
        break;
    }
  }
}

kernel_result translator::run() {
  kernel_result r;
  r.name = k_->getNameAsString();
  r.line = line_of(k_->getLocation());
  try {
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(k_->getBody());
    if (!body) refuse("no body", nullptr);
    if (k_->isInvalidDecl()) refuse("clang could not parse it", nullptr);
    if (body->getLBracLoc().isMacroID()) refuse("its body comes from a macro", nullptr);
    const sync_summary& s = calls_.of(k_);
    const std::string forbidden =
        s.forbidden + (s.forbidden_line ? " (line " + std::to_string(s.forbidden_line) + ")" : "");
    // A goto of the kernel's own may cross from one region to another.
    struct gotos : clang::RecursiveASTVisitor<gotos> {
      bool any = false;
      bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
      bool VisitGotoStmt(clang::GotoStmt*) { return !(any = true); }
      bool VisitIndirectGotoStmt(clang::IndirectGotoStmt*) { return !(any = true); }
    } g;
    g.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
    if (g.any) refuse(forbidden, nullptr);
    if (!s.barrier && !s.shuffle && !s.barrier_below) {
      if (!s.forbidden.empty()) refuse(forbidden, nullptr);
      r.why = "no __syncthreads() or warp shuffle: its threads run as plain calls already";
      return r;
    }
    check_parsed();
    if (s.polls_in_loop)
      refuse("a loop that polls memory (atomics, volatile, fences, clock) and may wait for another "
             "thread",
             nullptr);
    if (s.dependent) {
      // What those calls reach is known per instantiation: every one in this file (the kernel
      // is defined here, so no other file instantiates it) must be safe.
      const clang::FunctionTemplateDecl* ft = k_->getDescribedFunctionTemplate();
      const std::string at = " (line " + std::to_string(s.dependent_line) + ")";
      if (!ft) refuse("a call that depends on template parameters" + at, nullptr);
      unsigned seen = 0;
      for (const clang::FunctionDecl* spec : ft->specializations()) {
        ++seen;
        const sync_summary& ss = calls_.of(spec);
        std::string args;
        if (const clang::TemplateArgumentList* ta = spec->getTemplateSpecializationArgs()) {
          llvm::raw_string_ostream os(args);
          for (unsigned i = 0; i < ta->size(); ++i) {
            if (i) os << ", ";
            ta->get(i).print(ctx_.getPrintingPolicy(), os, true);
          }
        }
        const std::string who = "in " + r.name + "<" + args + ">: ";
        if (ss.polls_in_loop) refuse(who + "a loop that polls memory and may wait for another thread", nullptr);
        // What an instantiation reaches through a call the pattern does not resolve (a barrier
        // or warp collective, or what cannot be seen into; a call on a value of a dependent type
        // may itself be one): the statements with such calls run as coroutines.
        if (!ss.forbidden.empty() || ss.barrier_below || ss.dependent || ss.points > s.points)
          dependent_sync_ = true;
      }
      if (seen == 0) refuse("a call that depends on template parameters, and no instantiation" + at, nullptr);
    }
    std::vector<item> items =
        sequence(std::vector<const clang::Stmt*>(body->body_begin(), body->body_end()));
    for (const segment& g : segs_) {
      for (const clang::Stmt* st : g.stmts) check_jumps(st);
      if (g.expr) check_jumps(g.expr);
    }
    collect_uses();
    require_uniform();
    if (has_warp_shuffle_) {
      // A thread that returned is missing from its warp's later shuffles (a GPU's undefined case).
      struct returns : clang::RecursiveASTVisitor<returns> {
        bool any = false;
        bool TraverseLambdaExpr(clang::LambdaExpr*) { return true; }
        bool VisitReturnStmt(clang::ReturnStmt*) { return !(any = true); }
      } rv;
      rv.TraverseStmt(const_cast<clang::Stmt*>(k_->getBody()));
      if (rv.any) refuse("a return in a kernel with warp shuffles", nullptr);
    }
    std::vector<std::string> types;
    for (const clang::VarDecl* v : hoisted_) types.push_back(type_of(v));
    std::vector<std::string> ptypes;
    for (const clang::ParmVarDecl* p : params_) ptypes.push_back(type_of(p));
    std::set<std::string> top_names;
    for (const clang::DeclStmt* d : moved_)
      for (const clang::Decl* x : d->decls())
        if (const auto* n = llvm::dyn_cast<clang::NamedDecl>(x))
          if (!top_names.insert(n->getNameAsString()).second)
            refuse("two block-level declarations named '" + n->getNameAsString() + "'", d);
    prepare_edits();

    std::string ok = "true";
    if (!dependent_types_.empty()) {
      ok = "::cuemu::detail::regions_ok<";
      for (std::size_t i = 0; i < dependent_types_.size(); ++i)
        ok += (i ? ", " : "") + dependent_types_[i];
      ok += ">";
    }
    // A kernel without floating-point arithmetic (through every function it calls) is marked:
    // the translation of the file lets g++ vectorise it (translate/kernel.cpp).
    std::string code = "__cuemu_regions(" + ok + ") " + (calls_.of(k_).floating ? "" : "__cuemu_vectorise ") +
                       "if constexpr (" + ok +
                       ") { if (::cuemu::detail::region_block* const __cuemu_rb = "
                       "::cuemu::detail::t_regions) {\n";
    for (const clang::DeclStmt* d : moved_) code += line_directive(d) + text(d) + "\n";
    for (std::size_t i = 0; i < hoisted_.size(); ++i)
      code += std::string(objects_.count(hoisted_[i])  ? "::cuemu::detail::region_object<"
                          : single_.count(hoisted_[i]) ? "::cuemu::detail::region_uniform<"
                                                       : "::cuemu::detail::region_var<") +
              types[i] + "> __cuemu_v" + std::to_string(i) + "(*__cuemu_rb);\n";
    for (std::size_t i = 0; i < params_.size(); ++i)
      code += "::cuemu::detail::region_var<" + ptypes[i] + "> __cuemu_p" + std::to_string(i) +
              "(*__cuemu_rb);\n";
    if (!params_.empty()) {
      code += "__cuemu_rb->each<false>([&](unsigned __cuemu_s) -> bool { ";
      for (std::size_t i = 0; i < params_.size(); ++i)
        code += "__cuemu_p" + std::to_string(i) + ".set(__cuemu_s, " + params_[i]->getNameAsString() + "); ";
      code += "return true; });\n";
    }
    emit(items, code, 0);
    code += "return; } }\n#line " + std::to_string(line_of(body->getLBracLoc())) + " " + quote(file_) + "\n";
    r.code = std::move(code);
    r.regions = true;
    r.bounded = bounded_;
    r.fibers = fiber_notes_;
  } catch (const refusal& f) {
    r.why = f.why;
    fallback_ = f.fallback;
    fallback_why_ = f.why;
  }
  return r;
}

}  // namespace

kernel_result translate_kernel(clang::ASTContext& ctx, sync_calls& calls,
                               const clang::FunctionDecl* kernel, const std::string& file,
                               const std::string& original) {
  // Each try that is refused inside a block-level statement runs that statement as coroutines
  // on the next (the smallest statement around what was refused), until the kernel translates or
  // a refusal has no such statement.
  std::map<const clang::Stmt*, std::string> forced;
  for (;;) {
    translator t(ctx, calls, kernel, file, original, forced);
    kernel_result r = t.run();
    if (r.regions || !t.fallback() || forced.count(t.fallback()) || forced.size() >= 64) return r;
    forced[t.fallback()] = t.fallback_why();
  }
}

}  // namespace cuemu::regions
