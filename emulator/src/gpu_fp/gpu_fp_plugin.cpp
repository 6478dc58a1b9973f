// cuemu's g++ plugin: the NaN results of a GPU's arithmetic in device code (issue 14); its
// integer results where C++ leaves them undefined are gpu_int.cpp's.
//
// An H200 returns the canonical NaN 0x7fffffff from every single-precision operation whose
// result is a NaN (add, subtract, multiply, divide, fused multiply-add, negation, absolute value,
// square root, rounding to an integer), whatever NaN went in; x86 returns the input's payload or
// its own default NaN 0xffc00000. In double precision both propagate the input's payload, but the
// GPU's add, subtract, multiply and divide return the first operand where both are NaNs (x86: the
// one g++ happened to make the destination register), and its negation, absolute value and
// rounding of a NaN give the NaN quieted with its sign kept, where x86 flips or clears the sign. This pass rewrites those operations in every function
// marked __attribute__((cuemu_gpu_fp)) (the translator marks kernels, and the emulator's batch
// loop that inlines them): after each such statement, `r = isnan(r) ? 0x7fffffff : r` (single)
// or `r = isnan(x) ? x + x : r` with x the first operand (double; x + x quiets x). It runs late (after the pass that forms fused
// multiply-adds, at every optimisation level), so it sees the operations the program computes.
// A double fused multiply-add a * b + c with NaN operands returns the first of a, c, b that is a
// NaN, quieted (x86 takes them in the order of the instruction form g++ picked).
// A second pass, before g++ contracts, picks which product of p * q + r * s (and p * q - r * s)
// is fused as nvcc does (fma_choice_pass); a third, just before, computes again in the adding
// block the products nvcc fuses across blocks (remat_pass); and device code's call arguments are
// gimplified left to right, as nvcc orders them (order_arguments).
// In a unit compiled with nvcc's floating-point flags (-fplugin-arg-cuemu_gpu_fp-mode=N, the
// driver's fp_mode), the first pass also makes the float arithmetic that mode's: -ftz=true
// flushes subnormal operands and results (add, subtract, multiply, divide and fma become calls
// of libdevice's shims, which flush a result below 2^-126 before rounding, as the GPU does),
// -prec-div=false divides as div.full, --use_fast_math as div.approx, -prec-sqrt=false takes
// sqrt.approx.
//
//   g++ -fplugin=cuemu_gpu_fp.so [-fplugin-arg-cuemu_gpu_fp-mode=N] ...
#include "gcc-plugin.h"
#include "plugin-version.h"

#include "tree.h"
#include "tree-pass.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "ssa.h"
#include "tree-ssa-operands.h"
#include "gimple-ssa.h"
#include "attribs.h"
#include "fold-const.h"
#include "internal-fn.h"
#include "tree-ssa.h"
#include "cfgloop.h"

#include "gpu_int.h"

int plugin_is_GPL_compatible;

namespace {

const char* const kAttribute = "cuemu_gpu_fp";
// Marks a __host__ __device__ function: its calls' arguments are evaluated as in device code.
const char* const kDeviceAttribute = "cuemu_device_code";

tree handle_attribute(tree*, tree, tree, int, bool*) { return NULL_TREE; }

const attribute_spec kAttributeSpec = {kAttribute, 0, 0, false, false, false, false, handle_attribute, nullptr};
const attribute_spec kDeviceAttributeSpec = {kDeviceAttribute, 0, 0, false, false, false, false, handle_attribute,
                                             nullptr};

void register_attributes(void*, void*) {
  register_attribute(&kAttributeSpec);
  register_attribute(&kDeviceAttributeSpec);
}

// nvcc's front end evaluates a call's arguments from left to right; g++ on x86-64 from right to
// left. The order does not change what any argument computes, but it orders the statements, and
// which product of p * q + r * s nvcc fuses depends on which was computed first
// (fma_choice_pass): `a * a * k + b * b * m` with CUDA's vector operators (calls of operator*
// and operator+) computed b * b first under g++ and fused the other product than nvcc. Device
// code (kernels, device functions, __host__ __device__ functions and the lambdas inside them) is
// gimplified with its calls' arguments in order (CALL_EXPR_ORDERED_ARGS, what g++ uses for
// C++17's ordered operators); host code keeps g++'s order, as nvcc's host compiler has it.
bool device_code(tree fn) {
  for (tree f = fn; f; f = decl_function_context(f))
    if (lookup_attribute(kAttribute, DECL_ATTRIBUTES(f)) || lookup_attribute(kDeviceAttribute, DECL_ATTRIBUTES(f)))
      return true;
  return false;
}

tree order_call(tree* tp, int*, void*) {
  const tree t = *tp;
  // TREE_LANG_FLAG_3 is CALL_EXPR_ORDERED_ARGS, TREE_LANG_FLAG_5 CALL_EXPR_REVERSE_ARGS (an
  // assignment operator: its right operand first, which stays).
  if (TREE_CODE(t) == CALL_EXPR && CALL_EXPR_FN(t) && !TREE_LANG_FLAG_5(t) && call_expr_nargs(t) > 1)
    TREE_LANG_FLAG_3(t) = 1;
  return NULL_TREE;
}

void order_arguments(void* gcc_data, void*) {
  const tree fn = static_cast<tree>(gcc_data);
  if (!fn || TREE_CODE(fn) != FUNCTION_DECL || !DECL_SAVED_TREE(fn) || !device_code(fn)) return;
  walk_tree_without_duplicates(&DECL_SAVED_TREE(fn), order_call, nullptr);
  gpu_integer_abs(&DECL_SAVED_TREE(fn));  // abs(INT_MIN) wraps, as on the GPU (gpu_int.cpp)
}

enum class rule { none, canonical, keep_input, fma_operands };

// What the GPU does with a NaN from this statement.
rule rule_of(const gimple* stmt, machine_mode mode) {
  if (mode != SFmode && mode != DFmode) return rule::none;
  if (is_gimple_assign(stmt)) {
    switch (gimple_assign_rhs_code(stmt)) {
      case PLUS_EXPR:
      case MINUS_EXPR:
      case MULT_EXPR:
      case RDIV_EXPR:  // double: a NaN first operand wins (x86: whichever g++ made the destination)
        return mode == SFmode ? rule::canonical : rule::keep_input;
      case NEGATE_EXPR:
      case ABS_EXPR:
        return mode == SFmode ? rule::canonical : rule::keep_input;
      default:
        return rule::none;
    }
  }
  if (is_gimple_call(stmt)) {
    switch (gimple_call_combined_fn(stmt)) {
      case CFN_FMA: case CFN_FMS: case CFN_FNMA: case CFN_FNMS:
      case CFN_BUILT_IN_FMAF: case CFN_BUILT_IN_FMA:
        return mode == SFmode ? rule::canonical : rule::fma_operands;
      case CFN_SQRT: case CFN_BUILT_IN_SQRTF: case CFN_BUILT_IN_SQRT:
        return mode == SFmode ? rule::canonical : rule::none;
      case CFN_FLOOR: case CFN_BUILT_IN_FLOORF: case CFN_BUILT_IN_FLOOR:
      case CFN_CEIL: case CFN_BUILT_IN_CEILF: case CFN_BUILT_IN_CEIL:
      case CFN_TRUNC: case CFN_BUILT_IN_TRUNCF: case CFN_BUILT_IN_TRUNC:
      case CFN_RINT: case CFN_BUILT_IN_RINTF: case CFN_BUILT_IN_RINT:
      case CFN_NEARBYINT: case CFN_BUILT_IN_NEARBYINTF: case CFN_BUILT_IN_NEARBYINT:
      case CFN_BUILT_IN_FABSF: case CFN_BUILT_IN_FABS:
        return mode == SFmode ? rule::canonical : rule::keep_input;
      default:
        return rule::none;
    }
  }
  return rule::none;
}

tree canonical_nan(tree type) {
  static const unsigned char bytes[4] = {0xff, 0xff, 0xff, 0x7f};  // 0x7fffffff, little-endian
  return native_interpret_expr(type, bytes, 4);
}

// Rewrites the statement at GSI (its result R of TYPE) by RULE; GSI ends at the last new
// statement.
void rewrite(gimple_stmt_iterator* gsi, tree type, rule r) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree lhs = gimple_get_lhs(stmt);
  const tree result = make_ssa_name(type);
  if (is_gimple_assign(stmt)) gimple_assign_set_lhs(stmt, result);
  else gimple_call_set_lhs(stmt, result);
  update_stmt(stmt);
  if (r == rule::fma_operands) {
    // From the last choice to the first: r, then b, c, a where they are NaNs.
    tree value = result;
    for (const unsigned arg : {1u, 2u, 0u}) {
      const tree x = gimple_call_arg(stmt, arg);
      const tree x_nan = make_ssa_name(boolean_type_node);
      const tree quiet = make_ssa_name(type), next = make_ssa_name(type);
      gsi_insert_after(gsi, gimple_build_assign(x_nan, UNORDERED_EXPR, x, x), GSI_NEW_STMT);
      gsi_insert_after(gsi, gimple_build_assign(quiet, PLUS_EXPR, x, x), GSI_NEW_STMT);
      gsi_insert_after(gsi, gimple_build_assign(next, COND_EXPR, x_nan, quiet, value), GSI_NEW_STMT);
      value = next;
    }
    gsi_insert_after(gsi, gimple_build_assign(lhs, value), GSI_NEW_STMT);
    return;
  }
  // keep_input: the operand decides, and its quieted self is the result.
  const tree tested = r == rule::canonical ? result
                      : is_gimple_assign(stmt) ? gimple_assign_rhs1(stmt) : gimple_call_arg(stmt, 0);
  const tree is_nan = make_ssa_name(boolean_type_node);
  gsi_insert_after(gsi, gimple_build_assign(is_nan, UNORDERED_EXPR, tested, tested), GSI_NEW_STMT);
  tree nan;
  if (r == rule::canonical) {
    nan = canonical_nan(type);
  } else {
    nan = make_ssa_name(type);
    gsi_insert_after(gsi, gimple_build_assign(nan, PLUS_EXPR, tested, tested), GSI_NEW_STMT);
  }
  gsi_insert_after(gsi, gimple_build_assign(lhs, COND_EXPR, is_nan, nan, result), GSI_NEW_STMT);
}

// Whether DEF loads a field of a CUDA vector (float2, float4, double2, ...: a struct as aligned as
// it is large, up to 16 bytes), which nvcc loads whole and whose fields are then all available at
// once; *OBJECT: the vector.
bool vector_field(const gimple* def, tree* object) {
  if (!gimple_assign_load_p(def)) return false;
  const tree ref = gimple_assign_rhs1(def);
  if (TREE_CODE(ref) != COMPONENT_REF) return false;
  *object = TREE_OPERAND(ref, 0);
  const tree type = TREE_TYPE(*object);
  const HOST_WIDE_INT size = int_size_in_bytes(type);
  return RECORD_OR_UNION_TYPE_P(type) && size > 0 && size <= 16 && (HOST_WIDE_INT)TYPE_ALIGN_UNIT(type) == size;
}

// Where in block BB the value OP is available: -1 for a parameter or another block's value; a
// CUDA vector's field counts from the first load of that vector.
int position(tree op, basic_block bb) {
  if (TREE_CODE(op) != SSA_NAME || SSA_NAME_IS_DEFAULT_DEF(op)) return -1;
  gimple* def = SSA_NAME_DEF_STMT(op);
  if (gimple_bb(def) != bb || gimple_code(def) == GIMPLE_PHI) return -1;
  int pos = (int)gimple_uid(def);
  tree object;
  if (!vector_field(def, &object)) return pos;
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi) && gsi_stmt(gsi) != def; gsi_next(&gsi)) {
    tree other;
    if (vector_field(gsi_stmt(gsi), &other) && operand_equal_p(other, object, 0)) return (int)gimple_uid(gsi_stmt(gsi));
  }
  return pos;
}

int age(const gimple* mult, basic_block bb) {
  return MAX(position(gimple_op(mult, 1), bb), position(gimple_op(mult, 2), bb));
}

gimple* single_use_mult(tree t, basic_block bb) {
  if (TREE_CODE(t) != SSA_NAME || !has_single_use(t)) return nullptr;
  gimple* def = SSA_NAME_DEF_STMT(t);
  if (!is_gimple_assign(def) || gimple_assign_rhs_code(def) != MULT_EXPR || gimple_bb(def) != bb) return nullptr;
  return def;
}

// Which product of p * q + r * s nvcc fuses (measured on the H200, tests/math/contraction): the
// one whose operands are all defined earlier ("older": its latest operand comes first in the
// block; a parameter or a value from another block is oldest), the left one on a tie. g++ fuses
// the product computed first. Where they differ, this pass (before g++'s own contraction, in
// contracted functions) writes nvcc's fused multiply-add itself and leaves the other product to
// g++, which then has nothing to fuse it with. It runs after g++'s scalar replacement of
// aggregates (a struct copied from memory is then its fields' loads, in field order) and before
// partial redundancy elimination and the loop optimisations: those carry a loaded value from one
// iteration into the next, where it would look older than it is in nvcc's code (a rolled loop's
// p * c[j + 1] + q * c[j] fused the other product: tests/math/contraction/rolled_loop.cu).
const pass_data kFmaPassData = {GIMPLE_PASS, "cuemu_gpu_fma", OPTGROUP_NONE, TV_NONE, PROP_ssa | PROP_cfg, 0, 0, 0,
                                TODO_update_ssa};

struct fma_choice_pass : gimple_opt_pass {
  explicit fma_choice_pass(gcc::context* ctx) : gimple_opt_pass(kFmaPassData, ctx) {}
  bool gate(function* fn) override {
    return flag_fp_contract_mode == FP_CONTRACT_FAST && optimize &&
           lookup_attribute(kAttribute, DECL_ATTRIBUTES(fn->decl)) != NULL_TREE;
  }
  unsigned int execute(function* fn) override {
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn) {
      unsigned uid = 1;
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi))
        gimple_set_uid(gsi_stmt(gsi), uid++);
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple* stmt = gsi_stmt(gsi);
        if (!is_gimple_assign(stmt) ||
            (gimple_assign_rhs_code(stmt) != PLUS_EXPR && gimple_assign_rhs_code(stmt) != MINUS_EXPR))
          continue;
        const tree type = TREE_TYPE(gimple_assign_lhs(stmt));
        if (TREE_CODE(type) != REAL_TYPE || (TYPE_MODE(type) != SFmode && TYPE_MODE(type) != DFmode)) continue;
        gimple* m0 = single_use_mult(gimple_assign_rhs1(stmt), bb);
        gimple* m1 = single_use_mult(gimple_assign_rhs2(stmt), bb);
        if (!m0 || !m1) continue;
        // A difference of two products: NVVM leaves it to ptxas, which fuses the left one.
        const bool minus = gimple_assign_rhs_code(stmt) == MINUS_EXPR;
        gimple* const nv = minus ? m0 : age(m1, bb) < age(m0, bb) ? m1 : m0;
        gimple* const gcc = gimple_uid(m0) < gimple_uid(m1) ? m0 : m1;
        if (nv == gcc || !direct_internal_fn_supported_p(IFN_FMA, type, OPTIMIZE_FOR_BOTH)) continue;
        tree addend = nv == m0 ? gimple_assign_rhs2(stmt) : gimple_assign_rhs1(stmt);
        if (minus) {
          const tree negated = make_ssa_name(type);
          gsi_insert_before(&gsi, gimple_build_assign(negated, NEGATE_EXPR, addend), GSI_SAME_STMT);
          addend = negated;
        }
        gcall* fma = gimple_build_call_internal(IFN_FMA, 3, gimple_assign_rhs1(nv), gimple_assign_rhs2(nv), addend);
        gimple_call_set_lhs(fma, gimple_assign_lhs(stmt));
        gimple_set_uid(fma, gimple_uid(stmt));
        gsi_replace(&gsi, fma, true);
        gimple_stmt_iterator at = gsi_for_stmt(nv);
        gsi_remove(&at, true);
        release_defs(nv);
      }
    }
    return 0;
  }
  opt_pass* clone() override { return new fma_choice_pass(m_ctxt); }
};

// What nvcc fuses across blocks (read from its SASS: tests/math/contraction/ptxas_fusion.cu):
// - ptxas computes a product again in each block that adds it (a loop-invariant product hoisted
//   out of its loop becomes one FFMA per element: `x[i] - 9.0f * s` in a loop) where that costs
//   no register: one operand an immediate (or a kernel parameter, read from the constant bank),
//   or the product a square;
// - a product with one use, an addition in a later block no deeper in loops (after a branch, a
//   select, a loop), is fused there (NVVM sinks or speculates it to the addition);
// - a product of two other values added in a loop it is invariant in, or added in two blocks
//   (MathContraction's branch_between), stays one FMUL added by FADDs, as does one with any use
//   that is not an addition or subtraction.
// g++ fuses a product only into additions of its own block, so this pass, just before g++ forms
// its fused multiply-adds (after the loop optimisations), computes the products of the first two
// kinds again in each block that adds them. A kernel parameter is a parameter of the kernel's own
// function, or, once the kernel is inlined into the executor's lane loop (run_lane_batch), a
// value that loop reads from its parameter block (a `const void*` parameter).
const pass_data kRematPassData = {GIMPLE_PASS, "cuemu_gpu_remat", OPTGROUP_NONE, TV_NONE, PROP_ssa | PROP_cfg, 0, 0,
                                  0, TODO_update_ssa};

struct remat_pass : gimple_opt_pass {
  explicit remat_pass(gcc::context* ctx) : gimple_opt_pass(kRematPassData, ctx) {}
  bool gate(function* fn) override {
    return flag_fp_contract_mode == FP_CONTRACT_FAST && optimize &&
           lookup_attribute(kAttribute, DECL_ATTRIBUTES(fn->decl)) != NULL_TREE;
  }
  // X is a kernel parameter's value, as read where the kernel runs (above).
  static bool kernel_parameter(tree x, bool lane_loop) {
    if (TREE_CODE(x) != SSA_NAME) return false;
    auto parameter = [](tree name) {
      return SSA_NAME_IS_DEFAULT_DEF(name) && SSA_NAME_VAR(name) &&
             TREE_CODE(SSA_NAME_VAR(name)) == PARM_DECL;
    };
    if (parameter(x)) return true;
    if (!lane_loop) return false;
    gimple* def = SSA_NAME_DEF_STMT(x);
    if (!def || !gimple_assign_single_p(def)) return false;
    const tree rhs = gimple_assign_rhs1(def);
    if (TREE_CODE(rhs) != MEM_REF) return false;
    const tree base = TREE_OPERAND(rhs, 0);
    return TREE_CODE(base) == SSA_NAME && parameter(base) && POINTER_TYPE_P(TREE_TYPE(base)) &&
           VOID_TYPE_P(TREE_TYPE(TREE_TYPE(base)));
  }
  static bool fusable_use(gimple* use, tree m) {
    if (!is_gimple_assign(use)) return false;
    const tree_code code = gimple_assign_rhs_code(use);
    if (code != PLUS_EXPR && code != MINUS_EXPR) return false;
    // x + x and x - x are not a product plus something.
    return !(gimple_assign_rhs1(use) == m && gimple_assign_rhs2(use) == m);
  }
  unsigned int execute(function* fn) override {
    if (!direct_internal_fn_supported_p(IFN_FMA, float_type_node, OPTIMIZE_FOR_BOTH)) return 0;
    auto_vec<gimple*> mults;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fn) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple* stmt = gsi_stmt(gsi);
        if (!is_gimple_assign(stmt) || gimple_assign_rhs_code(stmt) != MULT_EXPR) continue;
        const tree lhs = gimple_assign_lhs(stmt);
        if (TREE_CODE(lhs) != SSA_NAME || TREE_CODE(TREE_TYPE(lhs)) != REAL_TYPE) continue;
        const machine_mode mode = TYPE_MODE(TREE_TYPE(lhs));
        if (mode != SFmode && mode != DFmode) continue;
        mults.safe_push(stmt);
      }
    }
    const bool lane_loop =
        strstr(IDENTIFIER_POINTER(DECL_ASSEMBLER_NAME(fn->decl)), "run_lane_batch") != nullptr;
    for (gimple* mult : mults) {
      const tree m = gimple_assign_lhs(mult);
      const tree p = gimple_assign_rhs1(mult), q = gimple_assign_rhs2(mult);
      const bool cheap = TREE_CODE(p) == REAL_CST || TREE_CODE(q) == REAL_CST || p == q ||
                         kernel_parameter(p, lane_loop) || kernel_parameter(q, lane_loop);
      bool all = true, elsewhere = false;
      int count = 0;
      gimple* only = nullptr;
      imm_use_iterator it;
      gimple* use;
      FOR_EACH_IMM_USE_STMT(use, it, m) {
        if (is_gimple_debug(use)) continue;
        ++count;
        only = use;
        if (!fusable_use(use, m)) all = false;
        else if (gimple_bb(use) != gimple_bb(mult)) elsewhere = true;
      }
      if (!all || !elsewhere) continue;
      const bool single = count == 1 && current_loops &&
                          bb_loop_depth(gimple_bb(only)) <= bb_loop_depth(gimple_bb(mult));
      if (!cheap && !single) continue;
      auto_vec<gimple*> uses;
      FOR_EACH_IMM_USE_STMT(use, it, m)
        if (!is_gimple_debug(use) && gimple_bb(use) != gimple_bb(mult)) uses.safe_push(use);
      for (gimple* u : uses) {
        const tree copy = make_ssa_name(TREE_TYPE(m));
        gimple* again = gimple_build_assign(copy, MULT_EXPR, gimple_assign_rhs1(mult), gimple_assign_rhs2(mult));
        gimple_stmt_iterator at = gsi_for_stmt(u);
        gsi_insert_before(&at, again, GSI_SAME_STMT);
        if (gimple_assign_rhs1(u) == m) gimple_assign_set_rhs1(u, copy);
        if (gimple_assign_rhs2(u) == m) gimple_assign_set_rhs2(u, copy);
        update_stmt(u);
      }
      if (has_zero_uses(m)) {
        gimple_stmt_iterator at = gsi_for_stmt(mult);
        gsi_remove(&at, true);
        release_defs(mult);
      }
    }
    return 0;
  }
  opt_pass* clone() override { return new remat_pass(m_ctxt); }
};

// The floating-point mode of the unit (-fplugin-arg-cuemu_gpu_fp-mode=N, the driver's fp_mode):
// bit 0 -ftz=true, bit 1 -prec-div=false, bit 2 -prec-sqrt=false; 15 --use_fast_math.
int g_mode = 0;
bool ftz() { return (g_mode & 1) != 0; }

bool is_float(tree t) { return t && TREE_CODE(TREE_TYPE(t)) == REAL_TYPE && TYPE_MODE(TREE_TYPE(t)) == SFmode; }

// The statements of ftz(X) (a subnormal float becomes a zero of its sign), each passed to EMIT;
// returns the flushed value.
template <class Emit>
tree build_flush(tree x, Emit emit, bool canonical = false) {
  const tree ftype = TREE_TYPE(x), utype = unsigned_type_node;
  const tree u = make_ssa_name(utype), e = make_ssa_name(utype), sign = make_ssa_name(utype),
             kept = make_ssa_name(utype), y = make_ssa_name(ftype);
  const tree tiny = make_ssa_name(boolean_type_node);
  emit(gimple_build_assign(u, build1(VIEW_CONVERT_EXPR, utype, x)));
  emit(gimple_build_assign(e, BIT_AND_EXPR, u, build_int_cst(utype, 0x7f800000)));
  emit(gimple_build_assign(tiny, EQ_EXPR, e, build_int_cst(utype, 0)));
  emit(gimple_build_assign(sign, BIT_AND_EXPR, u, build_int_cst(utype, 0x80000000u)));
  emit(gimple_build_assign(kept, COND_EXPR, tiny, sign, u));
  emit(gimple_build_assign(y, build1(VIEW_CONVERT_EXPR, ftype, kept)));
  if (!canonical) return y;
  const tree nan = make_ssa_name(boolean_type_node), z = make_ssa_name(ftype);
  emit(gimple_build_assign(nan, UNORDERED_EXPR, x, x));
  emit(gimple_build_assign(z, COND_EXPR, nan, canonical_nan(ftype), y));
  return z;
}

// An operand flushed by statements before GSI (constants stay); CANONICAL_NAN: a NaN becomes the
// canonical one (cvt.ftz.f64.f32).
tree flushed_operand(gimple_stmt_iterator* gsi, tree x, bool canonical_nan = false) {
  if (TREE_CODE(x) != SSA_NAME) return x;
  return build_flush(x, [gsi](gimple* g) { gsi_insert_before(gsi, g, GSI_SAME_STMT); }, canonical_nan);
}

// The statement at GSI defines a float: it now defines a new name, and its old name is that value
// flushed, by statements after it; GSI ends at the last of them.
void flush_result(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree lhs = gimple_get_lhs(stmt);
  const tree raw = make_ssa_name(TREE_TYPE(lhs));
  if (is_gimple_assign(stmt)) gimple_assign_set_lhs(stmt, raw);
  else gimple_call_set_lhs(stmt, raw);
  update_stmt(stmt);
  const tree y = build_flush(raw, [gsi](gimple* g) { gsi_insert_after(gsi, g, GSI_NEW_STMT); });
  gsi_insert_after(gsi, gimple_build_assign(lhs, y), GSI_NEW_STMT);
}

// In an -ftz unit, which float operands and results of a statement flush (as the GPU's .ftz
// instructions do): square root, rounding, min/max, absolute value and negation flush both;
// comparisons (setp.ftz) and widening to double their operands; narrowing a double to float its
// result. Add, subtract, multiply, divide and fma are the shims' by then (replace_arithmetic).
void flush_statement(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  bool operands = false, result = false;
  if (gimple_code(stmt) == GIMPLE_COND) {
    operands = is_float(gimple_cond_lhs(stmt));
  } else if (is_gimple_assign(stmt)) {
    const tree_code code = gimple_assign_rhs_code(stmt);
    const bool float_lhs = is_float(gimple_assign_lhs(stmt)), float_rhs = is_float(gimple_assign_rhs1(stmt));
    switch (code) {
      case NEGATE_EXPR: case ABS_EXPR: case MIN_EXPR: case MAX_EXPR:
        operands = result = float_lhs;
        break;
      case NOP_EXPR: case CONVERT_EXPR:
        operands = float_rhs && !float_lhs && TREE_CODE(TREE_TYPE(gimple_assign_lhs(stmt))) == REAL_TYPE;
        result = float_lhs && !float_rhs && TREE_CODE(TREE_TYPE(gimple_assign_rhs1(stmt))) == REAL_TYPE;
        break;
      default:
        operands = TREE_CODE_CLASS(code) == tcc_comparison && float_rhs;
    }
  } else if (is_gimple_call(stmt) && is_float(gimple_get_lhs(stmt))) {
    switch (gimple_call_combined_fn(stmt)) {
      case CFN_FMS: case CFN_FNMA: case CFN_FNMS:
      case CFN_SQRT: case CFN_BUILT_IN_SQRTF: case CFN_FLOOR: case CFN_BUILT_IN_FLOORF:
      case CFN_CEIL: case CFN_BUILT_IN_CEILF: case CFN_TRUNC: case CFN_BUILT_IN_TRUNCF:
      case CFN_RINT: case CFN_BUILT_IN_RINTF: case CFN_NEARBYINT: case CFN_BUILT_IN_NEARBYINTF:
      case CFN_ROUND: case CFN_BUILT_IN_ROUNDF: case CFN_BUILT_IN_FABSF: case CFN_FMIN:
      case CFN_BUILT_IN_FMINF: case CFN_FMAX: case CFN_BUILT_IN_FMAXF:
        operands = result = true;
        break;
      default:
        break;
    }
  }
  if (operands) {
    if (gimple_code(stmt) == GIMPLE_COND) {
      gcond* c = as_a<gcond*>(stmt);
      gimple_cond_set_lhs(c, flushed_operand(gsi, gimple_cond_lhs(c)));
      gimple_cond_set_rhs(c, flushed_operand(gsi, gimple_cond_rhs(c)));
    } else if (is_gimple_assign(stmt)) {
      const tree_code code = gimple_assign_rhs_code(stmt);
      const bool widening = code == NOP_EXPR || code == CONVERT_EXPR;
      for (unsigned k = 1; k < gimple_num_ops(stmt); ++k)
        if (is_float(gimple_op(stmt, k)))
          gimple_set_op(stmt, k, flushed_operand(gsi, gimple_op(stmt, k), widening));
    } else {
      for (unsigned k = 0; k < gimple_call_num_args(stmt); ++k)
        if (is_float(gimple_call_arg(stmt, k)))
          gimple_call_set_arg(stmt, k, flushed_operand(gsi, gimple_call_arg(stmt, k)));
    }
    update_stmt(stmt);
  }
  if (result) flush_result(gsi);
}

// The declaration of one of libdevice's float shims (its object defines them) taking ARGS floats.
tree shim(const char* name, int args) {
  static hash_map<const char*, tree>* decls = new hash_map<const char*, tree>;
  if (tree* d = decls->get(name)) return *d;
  const tree f = float_type_node;
  const tree type = args == 3   ? build_function_type_list(f, f, f, f, NULL_TREE)
                    : args == 2 ? build_function_type_list(f, f, f, NULL_TREE)
                                : build_function_type_list(f, f, NULL_TREE);
  tree decl = build_fn_decl(name, type);
  TREE_PUBLIC(decl) = 1;
  DECL_EXTERNAL(decl) = 1;
  TREE_NOTHROW(decl) = 1;
  DECL_PURE_P(decl) = 1;
  decls->put(name, decl);
  return decl;
}

// Float arithmetic that becomes a call of a shim: -prec-div=false and --use_fast_math make a
// division the GPU's div.full (or div.approx), -prec-sqrt=false a square root sqrt.approx; under
// -ftz=true add, subtract, multiply, divide and fma, whose flush depends on the exact result (one
// that rounds up to +-2^-126 is flushed too), which the shims compute.
void replace_arithmetic(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree lhs = gimple_get_lhs(stmt);
  if (!is_float(lhs)) return;
  const bool fast = g_mode == 15;
  gcall* call = nullptr;
  if (is_gimple_assign(stmt)) {
    const tree a = gimple_assign_rhs1(stmt), b = gimple_assign_rhs2(stmt);
    switch (gimple_assign_rhs_code(stmt)) {
      case RDIV_EXPR:
        if (g_mode & 2) {
          const char* name = fast ? "__nvvm_div_approx_ftz_f" : ftz() ? "__nvvm_div_full_ftz_f" : "__nvvm_div_full_f";
          call = gimple_build_call(shim(name, 2), 2, a, b);
        } else if (ftz()) {
          call = gimple_build_call(shim("__cuemu_fdiv_f_ftz", 2), 2, a, b);
        }
        break;
      case PLUS_EXPR: if (ftz()) call = gimple_build_call(shim("__cuemu_fadd_f_ftz", 2), 2, a, b); break;
      case MINUS_EXPR: if (ftz()) call = gimple_build_call(shim("__cuemu_fsub_f_ftz", 2), 2, a, b); break;
      case MULT_EXPR: if (ftz()) call = gimple_build_call(shim("__cuemu_fmul_f_ftz", 2), 2, a, b); break;
      default: break;
    }
  } else if (is_gimple_call(stmt)) {
    const combined_fn fn = gimple_call_combined_fn(stmt);
    if ((fn == CFN_SQRT || fn == CFN_BUILT_IN_SQRTF) && (g_mode & 4) && gimple_call_num_args(stmt) == 1)
      call = gimple_build_call(shim(ftz() ? "__nvvm_sqrt_approx_ftz_f" : "__nvvm_sqrt_approx_f", 1), 1,
                               gimple_call_arg(stmt, 0));
    else if ((fn == CFN_FMA || fn == CFN_BUILT_IN_FMAF) && ftz() && gimple_call_num_args(stmt) == 3)
      call = gimple_build_call(shim("__nvvm_fma_rn_ftz_f", 3), 3, gimple_call_arg(stmt, 0),
                               gimple_call_arg(stmt, 1), gimple_call_arg(stmt, 2));
  }
  if (!call) return;
  gimple_call_set_lhs(call, lhs);
  gsi_replace(gsi, call, true);
}

const pass_data kPassData = {GIMPLE_PASS, "cuemu_gpu_fp", OPTGROUP_NONE, TV_NONE, PROP_ssa | PROP_cfg, 0, 0, 0,
                             TODO_update_ssa};

struct gpu_fp_pass : gimple_opt_pass {
  explicit gpu_fp_pass(gcc::context* ctx) : gimple_opt_pass(kPassData, ctx) {}
  // Kernels and device-only functions, and the lambdas defined in them (a kernel's barrier
  // regions, which g++ does not inline at -O0).
  bool gate(function* fn) override {
    for (tree f = fn->decl; f; f = decl_function_context(f))
      if (lookup_attribute(kAttribute, DECL_ATTRIBUTES(f)) != NULL_TREE) return true;
    return false;
  }
  unsigned int execute(function* fn) override {
    basic_block bb;
    if (g_mode != 0) {
      FOR_EACH_BB_FN(bb, fn) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) replace_arithmetic(&gsi);
      }
    }
    // Integer results where C++ has none: conversions from floating point, division, shifts.
    FOR_EACH_BB_FN(bb, fn) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) gpu_integer_statement(&gsi);
    }
    FOR_EACH_BB_FN(bb, fn) {
      for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
        gimple* stmt = gsi_stmt(gsi);
        const tree lhs = gimple_get_lhs(stmt);
        if (!lhs || TREE_CODE(TREE_TYPE(lhs)) != REAL_TYPE) continue;
        if (is_gimple_call(stmt) && gimple_call_num_args(stmt) == 0) continue;
        const tree type = TREE_TYPE(lhs);
        const rule r = rule_of(stmt, TYPE_MODE(type));
        if (r == rule::none) continue;
        if (r == rule::fma_operands && (!is_gimple_call(stmt) || gimple_call_num_args(stmt) != 3)) continue;
        if (r == rule::keep_input) {
          const tree x = is_gimple_assign(stmt) ? gimple_assign_rhs1(stmt) : gimple_call_arg(stmt, 0);
          if (!types_compatible_p(TREE_TYPE(x), type)) continue;
        }
        rewrite(&gsi, type, r);
      }
    }
    if (ftz()) {
      FOR_EACH_BB_FN(bb, fn) {
        for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) flush_statement(&gsi);
      }
    }
    return 0;
  }
  opt_pass* clone() override { return new gpu_fp_pass(m_ctxt); }
};

}  // namespace

int plugin_init(plugin_name_args* info, plugin_gcc_version* version) {
  if (!plugin_default_version_check(version, &gcc_version)) {
    fprintf(stderr, "cuemu_gpu_fp: built for another g++ (%s)\n", gcc_version.basever);
    return 1;
  }
  for (int k = 0; k < info->argc; ++k)
    if (strcmp(info->argv[k].key, "mode") == 0 && info->argv[k].value) g_mode = atoi(info->argv[k].value);
  register_callback(info->base_name, PLUGIN_ATTRIBUTES, register_attributes, nullptr);
  register_callback(info->base_name, PLUGIN_PRE_GENERICIZE, order_arguments, nullptr);
  static register_pass_info pass = {new gpu_fp_pass(g), "optimized", 1, PASS_POS_INSERT_AFTER};
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &pass);
  static register_pass_info fma = {new fma_choice_pass(g), "sra", 1, PASS_POS_INSERT_AFTER};
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &fma);
  static register_pass_info remat = {new remat_pass(g), "widening_mul", 1, PASS_POS_INSERT_BEFORE};
  register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, nullptr, &remat);
  return 0;
}
