// cuemu's g++ plugin, the integer results of a GPU's arithmetic in device code (issue 14): what
// an H200 computes where C++ leaves the result undefined and x86 computes another value or traps.
// Measured with the math probe's op_* functions (tests/math/math_probe.cu, nvcc 13.0 -O2):
//
// - A conversion of a float or double to an integer (cvt.rzi) saturates: above the type's range
//   its maximum, below its minimum, and a NaN 0 (float to a 32-bit integer) or the pattern 1 << 31
//   / 1 << 63 (from double, or to 64 bits); x86 gives its "integer indefinite" 1 << 31 / 1 << 63,
//   or for unsigned targets the low bits of a wider conversion. A conversion to a type narrower
//   than 32 bits is the 32-bit one (signed or unsigned as the target), truncated.
// - Integer division and remainder by zero give all ones (the 32-bit routine's 0xffffffff for a
//   64-bit one whose dividend's upper half is zero), and MIN / -1 gives MIN (remainder 0); x86
//   traps on both. Also where g++ joined a quotient and remainder into one .DIVMOD.
// - A shift by the type's width or more gives 0 (a signed right shift: the sign), where x86 takes
//   the count modulo the width.
// - abs of the most negative integer is that integer (a wrapping negation): g++ treats it as
//   undefined and computed a 64-bit value for abs(INT_MIN) widened to 64 bits.
//
// The first three are rewritten in the late pass (gpu_fp_plugin.cpp) statement by statement, with
// selects (no branches); abs in device code's trees before g++ gimplifies them.
#include "gcc-plugin.h"

#include "tree.h"
#include "context.h"
#include "function.h"
#include "basic-block.h"
#include "gimple.h"
#include "gimple-iterator.h"
#include "ssa.h"
#include "stringpool.h"
#include "tree-ssanames.h"
#include "real.h"
#include "fold-const.h"
#include "builtins.h"
#include "internal-fn.h"
#include "ssa-iterators.h"
#include "value-range.h"
#include "value-query.h"

#include "gpu_int.h"

namespace {

tree boolean(gimple_stmt_iterator* gsi, tree_code code, tree a, tree b) {
  const tree t = make_ssa_name(boolean_type_node);
  gsi_insert_before(gsi, gimple_build_assign(t, code, a, b), GSI_SAME_STMT);
  return t;
}

tree select(gimple_stmt_iterator* gsi, tree cond, tree yes, tree no) {
  const tree t = make_ssa_name(TREE_TYPE(no));
  gsi_insert_before(gsi, gimple_build_assign(t, COND_EXPR, cond, yes, no), GSI_SAME_STMT);
  return t;
}

// +-2^N in floating-point TYPE (exact in float and double for N up to 64).
tree power_of_two(tree type, int n, bool negative) {
  REAL_VALUE_TYPE r;
  real_2expN(&r, n, TYPE_MODE(type));
  if (negative) r = real_value_negate(&r);
  return build_real(type, r);
}

// The statement at GSI now assigns a new name; returns it (its old left side is set later).
tree detach_result(gimple_stmt_iterator* gsi, tree type) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree raw = make_ssa_name(type);
  gimple_assign_set_lhs(stmt, raw);
  update_stmt(stmt);
  return raw;
}

// g++'s range of the SSA name X at STMT, when it knows one.
bool range_at(tree x, gimple* stmt, int_range_max& r) {
  if (TREE_CODE(x) != SSA_NAME || !INTEGRAL_TYPE_P(TREE_TYPE(x))) return false;
  return get_range_query(cfun)->range_of_expr(r, x, stmt) && !r.undefined_p() && !r.varying_p();
}

// Whether the value of X (an integer) at STMT is known to lie in [LO, HI] (g++'s ranges from its
// earlier passes): then a rule for values outside needs no statements (a shift by k & 15, a
// divisor known non-zero).

bool known_within(tree x, gimple* stmt, long long lo, long long hi) {
  const tree type = TREE_TYPE(x);
  if (TREE_CODE(x) == INTEGER_CST) {
    const wide_int v = wi::to_wide(x);
    const signop sign = TYPE_SIGN(type);
    return !wi::lt_p(v, wi::shwi(lo, TYPE_PRECISION(type)), sign) && !wi::gt_p(v, wi::shwi(hi, TYPE_PRECISION(type)), sign);
  }
  int_range_max r;
  if (!range_at(x, stmt, r)) return false;
  const signop sign = TYPE_SIGN(type);
  const unsigned prec = TYPE_PRECISION(type);
  if (sign == UNSIGNED && lo < 0) lo = 0;
  return !wi::lt_p(r.lower_bound(), wi::shwi(lo, prec), sign) && !wi::gt_p(r.upper_bound(), wi::shwi(hi, prec), sign);
}

// Whether X is known to be non-zero at STMT (and, for a signed type, not -1 when MINUS_ONE).
bool known_nonzero(tree x, gimple* stmt, bool minus_one) {
  const tree type = TREE_TYPE(x);
  if (TREE_CODE(x) == INTEGER_CST) return !integer_zerop(x) && !(minus_one && integer_minus_onep(x));
  int_range_max r;
  if (!range_at(x, stmt, r)) return false;
  if (r.contains_p(build_zero_cst(type))) return false;
  return !(minus_one && r.contains_p(build_minus_one_cst(type)));
}

bool scalar_integer(tree type, int max_precision) {
  return TREE_CODE(type) == INTEGER_TYPE && TYPE_PRECISION(type) <= (unsigned)max_precision;
}

// lhs = (T) x, x a float or double: cvt.rzi's saturation. GSI ends at the last new statement.
void saturate_conversion(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree lhs = gimple_assign_lhs(stmt), x = gimple_assign_rhs1(stmt);
  const tree type = TREE_TYPE(lhs), ftype = TREE_TYPE(x);
  const machine_mode fmode = TYPE_MODE(ftype);
  if (TREE_CODE(ftype) != REAL_TYPE || (fmode != SFmode && fmode != DFmode)) return;
  if (!scalar_integer(type, 64) || TREE_CODE(lhs) != SSA_NAME) return;
  const bool is_unsigned = TYPE_UNSIGNED(type);
  const int width = TYPE_PRECISION(type) < 32 ? 32 : (int)TYPE_PRECISION(type);
  const tree wide = width == (int)TYPE_PRECISION(type) ? type : build_nonstandard_integer_type(width, is_unsigned);
  // The conversion itself now makes the wide value (x86's, right inside the range).
  const tree raw = detach_result(gsi, wide);
  auto after = [gsi](tree_code code, tree t, tree a, tree b = NULL_TREE, tree c = NULL_TREE) {
    gsi_insert_after(gsi, gimple_build_assign(t, code, a, b, c), GSI_NEW_STMT);
    return t;
  };
  auto flag = [] { return make_ssa_name(boolean_type_node); };
  const tree above = after(GE_EXPR, flag(), x, power_of_two(ftype, is_unsigned ? width : width - 1, false));
  tree value = after(COND_EXPR, make_ssa_name(wide), above, TYPE_MAX_VALUE(wide), raw);
  const tree below = is_unsigned ? after(LT_EXPR, flag(), x, build_real(ftype, dconst0))
                                 : after(LT_EXPR, flag(), x, power_of_two(ftype, width - 1, true));
  value = after(COND_EXPR, make_ssa_name(wide), below, TYPE_MIN_VALUE(wide), value);
  const tree nan = after(UNORDERED_EXPR, flag(), x, x);
  const tree nan_value = fmode == SFmode && width == 32
                             ? build_zero_cst(wide)
                             : wide_int_to_tree(wide, wi::set_bit_in_zero(width - 1, width));
  value = after(COND_EXPR, make_ssa_name(wide), nan, nan_value, value);
  if (wide == type) gsi_insert_after(gsi, gimple_build_assign(lhs, value), GSI_NEW_STMT);
  else after(NOP_EXPR, lhs, value);
}

// For a division or remainder of A by D of integer TYPE at GSI: statements before it that make a
// divisor that cannot trap (1 where D is 0, and for MIN / -1, which then gives MIN, remainder 0,
// as on the GPU); *ZERO says whether D was 0.
tree safe_divisor(gimple_stmt_iterator* gsi, tree type, tree a, tree d, tree* zero) {
  *zero = boolean(gsi, EQ_EXPR, d, build_zero_cst(type));
  tree bad = *zero;
  if (!TYPE_UNSIGNED(type)) {
    const tree min = boolean(gsi, EQ_EXPR, a, TYPE_MIN_VALUE(type));
    const tree minus_one = boolean(gsi, EQ_EXPR, d, build_minus_one_cst(type));
    const tree overflow = boolean(gsi, BIT_AND_EXPR, min, minus_one);
    bad = boolean(gsi, BIT_IOR_EXPR, *zero, overflow);
  }
  return select(gsi, bad, build_one_cst(type), d);
}

// After the statement at GSI, which now defines RAW: LHS = ZERO ? the GPU's result of a division
// or remainder of A by zero : RAW. All ones; for 64 bits 0xffffffff where A's upper half is zero
// (the 32-bit routine). A remainder computed beside its quotient (REMAINDER_OF_PAIR) is
// a - q * 0 on the GPU: A. GSI ends at the last new statement.
void by_zero_result(gimple_stmt_iterator* gsi, tree lhs, tree raw, tree a, tree zero,
                    bool remainder_of_pair = false) {
  const tree type = TREE_TYPE(lhs);
  tree by_zero = build_all_ones_cst(type);
  if (remainder_of_pair) {
    by_zero = a;
  } else if (TYPE_PRECISION(type) == 64) {
    const tree u64 = build_nonstandard_integer_type(64, true);
    const tree bits = make_ssa_name(u64), upper = make_ssa_name(u64);
    const tree narrow = make_ssa_name(boolean_type_node);
    gsi_insert_after(gsi, gimple_build_assign(bits, NOP_EXPR, a), GSI_NEW_STMT);
    gsi_insert_after(gsi, gimple_build_assign(upper, RSHIFT_EXPR, bits, build_int_cst(integer_type_node, 32)),
                     GSI_NEW_STMT);
    gsi_insert_after(gsi, gimple_build_assign(narrow, EQ_EXPR, upper, build_zero_cst(u64)), GSI_NEW_STMT);
    const tree chosen = make_ssa_name(type);
    gsi_insert_after(gsi,
                     gimple_build_assign(chosen, COND_EXPR, narrow, build_int_cst(type, 0xffffffffll),
                                         build_all_ones_cst(type)),
                     GSI_NEW_STMT);
    by_zero = chosen;
  }
  gsi_insert_after(gsi, gimple_build_assign(lhs, COND_EXPR, zero, by_zero, raw), GSI_NEW_STMT);
}

// lhs = a / d or a % d on integers: no trap, the GPU's values.
void guard_division(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree lhs = gimple_assign_lhs(stmt), a = gimple_assign_rhs1(stmt), d = gimple_assign_rhs2(stmt);
  const tree type = TREE_TYPE(lhs);
  if (!scalar_integer(type, 64) || TREE_CODE(lhs) != SSA_NAME) return;
  if (known_nonzero(d, stmt, !TYPE_UNSIGNED(type))) return;
  tree zero;
  gimple_assign_set_rhs2(stmt, safe_divisor(gsi, type, a, d, &zero));
  const tree raw = detach_result(gsi, type);
  by_zero_result(gsi, lhs, raw, a, zero);
}

// c = .DIVMOD (a, d), a complex value whose real and imaginary parts the quotient and remainder
// (g++ forms it where a program computes both): the divisor guarded as above, and each part
// read from c by the GPU's rule. nvcc computes such a pair's remainder as a - q * d, so by zero
// it is the dividend (a separate a % 0 is all ones): tests/math/programs/integer_rules.cu.
void guard_divmod(gimple_stmt_iterator* gsi) {
  gcall* call = as_a<gcall*>(gsi_stmt(*gsi));
  const tree c = gimple_call_lhs(call), a = gimple_call_arg(call, 0), d = gimple_call_arg(call, 1);
  const tree type = TREE_TYPE(a);
  if (!c || TREE_CODE(c) != SSA_NAME || !scalar_integer(type, 64)) return;
  if (known_nonzero(d, call, !TYPE_UNSIGNED(type))) return;
  tree zero;
  gimple_call_set_arg(call, 1, safe_divisor(gsi, type, a, d, &zero));
  update_stmt(call);
  auto_vec<gimple*> parts;
  imm_use_iterator it;
  gimple* use;
  FOR_EACH_IMM_USE_STMT(use, it, c) {
    if (is_gimple_assign(use) && (gimple_assign_rhs_code(use) == REALPART_EXPR ||
                                  gimple_assign_rhs_code(use) == IMAGPART_EXPR))
      parts.safe_push(use);
  }
  for (gimple* part : parts) {
    const tree lhs = gimple_assign_lhs(part);
    if (TREE_CODE(lhs) != SSA_NAME || !types_compatible_p(TREE_TYPE(lhs), type)) continue;
    gimple_stmt_iterator at = gsi_for_stmt(part);
    const bool remainder = gimple_assign_rhs_code(part) == IMAGPART_EXPR;
    const tree raw = detach_result(&at, type);
    by_zero_result(&at, lhs, raw, a, zero, remainder);
  }
}

// lhs = x << n or x >> n, n not a constant: a count of the width or more gives 0 (or the sign).
void clamp_shift(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  const tree lhs = gimple_assign_lhs(stmt), n = gimple_assign_rhs2(stmt);
  const tree type = TREE_TYPE(lhs);
  if (TREE_CODE(type) != INTEGER_TYPE || TREE_CODE(n) == INTEGER_CST || TREE_CODE(lhs) != SSA_NAME) return;
  const unsigned width = TYPE_PRECISION(type);
  if (width != 32 && width != 64) return;
  if (known_within(n, stmt, 0, width - 1)) return;
  const tree ntype = TREE_TYPE(n);
  const tree count = make_ssa_name(unsigned_type_for(ntype));
  gsi_insert_before(gsi, gimple_build_assign(count, NOP_EXPR, n), GSI_SAME_STMT);
  const tree wide = boolean(gsi, GE_EXPR, count, build_int_cst(TREE_TYPE(count), width));
  if (gimple_assign_rhs_code(stmt) == RSHIFT_EXPR && !TYPE_UNSIGNED(type)) {
    gimple_assign_set_rhs2(stmt, select(gsi, wide, build_int_cst(ntype, width - 1), n));
    update_stmt(stmt);
    return;
  }
  const tree raw = detach_result(gsi, type);
  gsi_insert_after(gsi, gimple_build_assign(lhs, COND_EXPR, wide, build_zero_cst(type), raw), GSI_NEW_STMT);
}

// abs(x) / ABS_EXPR on a signed integer in device code's trees: (T) ABSU_EXPR (x), which wraps.
tree wrap_abs(tree* tp, int*, void*) {
  const tree t = *tp;
  tree operand = NULL_TREE;
  if (TREE_CODE(t) == ABS_EXPR) {
    operand = TREE_OPERAND(t, 0);
  } else if (TREE_CODE(t) == CALL_EXPR && call_expr_nargs(t) == 1) {
    const tree fn = get_callee_fndecl(t);
    if (fn && fndecl_built_in_p(fn, BUILT_IN_NORMAL)) {
      switch (DECL_FUNCTION_CODE(fn)) {
        case BUILT_IN_ABS: case BUILT_IN_LABS: case BUILT_IN_LLABS: case BUILT_IN_IMAXABS:
          operand = CALL_EXPR_ARG(t, 0);
          break;
        default:
          break;
      }
    }
  }
  if (!operand) return NULL_TREE;
  const tree type = TREE_TYPE(t);
  if (TREE_CODE(type) != INTEGER_TYPE || TYPE_UNSIGNED(type) || !INTEGRAL_TYPE_P(TREE_TYPE(operand))) return NULL_TREE;
  const tree utype = unsigned_type_for(type);
  *tp = build1(NOP_EXPR, type, build1(ABSU_EXPR, utype, fold_convert(type, operand)));
  return NULL_TREE;
}

}  // namespace

void gpu_integer_statement(gimple_stmt_iterator* gsi) {
  gimple* stmt = gsi_stmt(*gsi);
  if (is_gimple_call(stmt) && gimple_call_internal_p(stmt) && gimple_call_internal_fn(stmt) == IFN_DIVMOD &&
      gimple_call_num_args(stmt) == 2) {
    guard_divmod(gsi);
    return;
  }
  if (!is_gimple_assign(stmt)) return;
  switch (gimple_assign_rhs_code(stmt)) {
    case FIX_TRUNC_EXPR: saturate_conversion(gsi); break;
    case TRUNC_DIV_EXPR: case TRUNC_MOD_EXPR: guard_division(gsi); break;
    case LSHIFT_EXPR: case RSHIFT_EXPR: clamp_shift(gsi); break;
    default: break;
  }
}

void gpu_integer_abs(tree* body) { walk_tree_without_duplicates(body, wrap_abs, nullptr); }
