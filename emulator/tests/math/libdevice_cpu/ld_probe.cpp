// ld_probe: evaluates math_probe's functions with libdevice compiled for x86-64 (make.sh) and
// prints them in math_probe's format, for compare.py. It reads the inputs from a math_probe
// output (the GPU's record or the emulator's) on stdin, so it needs no input generator of its
// own; functions that it does not map are left out (compare.py --common skips them).
//
// usage: zcat h200.txt.gz | ./ld_probe > ld.txt
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

typedef unsigned long long u64;
typedef std::int32_t i32;
typedef std::int64_t i64;

static float bf(u64 b) { float f; std::uint32_t u = static_cast<std::uint32_t>(b); std::memcpy(&f, &u, 4); return f; }
static double bd(u64 b) { double d; std::memcpy(&d, &b, 8); return d; }
static u64 fb(float f) { std::uint32_t u; std::memcpy(&u, &f, 4); return u; }
static u64 db(double d) { u64 u; std::memcpy(&u, &d, 8); return u; }

#define A_f(j) bf(a[j])
#define A_d(j) bd(a[j])
#define A_i(j) static_cast<i32>(static_cast<std::uint32_t>(a[j]))
#define A_l(j) static_cast<i64>(a[j])
#define R_f(v) fb(v)
#define R_d(v) db(v)
#define R_i(v) static_cast<u64>(static_cast<std::uint32_t>(v))
#define R_l(v) static_cast<u64>(v)

extern "C" {
// Every libdevice function used below, and the shim's operations for plain arithmetic.
#define F_1(n) float __nv_##n(float);
#define F_2(n) float __nv_##n(float, float);
#define F_3(n) float __nv_##n(float, float, float);
#define D_1(n) double __nv_##n(double);
#define D_2(n) double __nv_##n(double, double);
#define D_3(n) double __nv_##n(double, double, double);
#define IF_1 F_1
#define IF_2 F_2
#define IF_3 F_3
#define ID_1 D_1
#define ID_2 D_2
#define ID_3 D_3
#include "ld_names.inc"
F_1(fast_sinf) F_1(fast_cosf) F_1(fast_tanf) F_1(fast_tanhf) F_1(fast_expf) F_1(fast_exp10f)
F_1(fast_logf) F_1(fast_log2f) F_1(fast_log10f) F_2(fast_powf) F_2(fast_fdividef)
#undef F_1
#undef F_2
#undef F_3
#undef D_1
#undef D_2
#undef D_3
float __nv_norm4df(float, float, float, float);
float __nv_rnorm4df(float, float, float, float);
double __nv_norm4d(double, double, double, double);
double __nv_rnorm4d(double, double, double, double);
i32 __nv_ilogbf(float);
i32 __nv_ilogb(double);
i64 __nv_llrintf(float);
i64 __nv_llroundf(float);
i64 __nv_llrint(double);
i64 __nv_llround(double);
void __nv_sincosf(float, float*, float*);
void __nv_fast_sincosf(float, float*, float*);
void __nv_sincospif(float, float*, float*);
void __nv_sincos(double, double*, double*);
void __nv_sincospi(double, double*, double*);
float __nv_modff(float, float*);
double __nv_modf(double, double*);
float __nv_frexpf(float, i32*);
double __nv_frexp(double, i32*);
float __nv_remquof(float, float, i32*);
double __nv_remquo(double, double, i32*);
float __nv_ldexpf(float, i32);
float __nv_scalbnf(float, i32);
double __nv_ldexp(double, i32);
double __nv_scalbn(double, i32);
float __nv_jnf(i32, float);
float __nv_ynf(i32, float);
double __nv_jn(i32, double);
double __nv_yn(i32, double);
i32 __nv_float2int_rn(float); i32 __nv_float2int_rz(float); i32 __nv_float2int_ru(float);
i32 __nv_float2int_rd(float); std::uint32_t __nv_float2uint_rn(float);
std::uint32_t __nv_float2uint_rz(float); i64 __nv_float2ll_rn(float); i64 __nv_float2ll_rz(float);
std::uint64_t __nv_float2ull_rz(float);
float __nv_int2float_rz(i32); float __nv_int2float_ru(i32); float __nv_int2float_rd(i32);
float __nv_uint2float_rn(std::uint32_t); float __nv_uint2float_rz(std::uint32_t);
float __nv_ll2float_rn(i64); float __nv_ll2float_rz(i64); float __nv_ll2float_ru(i64);
float __nv_ull2float_rd(std::uint64_t);
float __nv_double2float_rn(double); float __nv_double2float_rz(double);
float __nv_double2float_ru(double); float __nv_double2float_rd(double);
i32 __nv_double2int_rn(double); i32 __nv_double2int_rz(double);
std::uint32_t __nv_double2uint_ru(double); i64 __nv_double2ll_rd(double);
std::uint64_t __nv_double2ull_rn(double);
double __nv_ll2double_rz(i64); double __nv_ll2double_ru(i64); double __nv_ull2double_rd(std::uint64_t);
// The shim's plain operations (shim.c).
float __cuemu_fadd_f(float, float); float __cuemu_fsub_f(float, float);
float __cuemu_fmul_f(float, float); float __cuemu_fdiv_f(float, float);
double __cuemu_fadd_d(double, double); double __cuemu_fsub_d(double, double);
double __cuemu_fmul_d(double, double); double __cuemu_fdiv_d(double, double);
float __nvvm_fma_rn_f(float, float, float); double __nvvm_fma_rn_d(double, double, double);
float __nvvm_rcp_rn_f(float); double __nvvm_rcp_rn_d(double);
float __cuemu_fptrunc_d_float(double);
float __nvvm_i2f_rn(i32); double __nvvm_ll2d_rn(i64);
}

typedef void (*Fn)(const u64* a, u64* r);
static std::map<std::string, Fn> table() {
  std::map<std::string, Fn> t;
  // F_k/D_k(name): probe name `name`, libdevice __nv_name; IF_k/ID_k(name): probe name __name.
#define F_1(n) t[#n] = [](const u64* a, u64* r) { r[0] = R_f(__nv_##n(A_f(0))); };
#define F_2(n) t[#n] = [](const u64* a, u64* r) { r[0] = R_f(__nv_##n(A_f(0), A_f(1))); };
#define F_3(n) t[#n] = [](const u64* a, u64* r) { r[0] = R_f(__nv_##n(A_f(0), A_f(1), A_f(2))); };
#define D_1(n) t[#n] = [](const u64* a, u64* r) { r[0] = R_d(__nv_##n(A_d(0))); };
#define D_2(n) t[#n] = [](const u64* a, u64* r) { r[0] = R_d(__nv_##n(A_d(0), A_d(1))); };
#define D_3(n) t[#n] = [](const u64* a, u64* r) { r[0] = R_d(__nv_##n(A_d(0), A_d(1), A_d(2))); };
#undef IF_1
#undef IF_2
#undef IF_3
#undef ID_1
#undef ID_2
#undef ID_3
#define IF_1(n) t["__" #n] = [](const u64* a, u64* r) { r[0] = R_f(__nv_##n(A_f(0))); };
#define IF_2(n) t["__" #n] = [](const u64* a, u64* r) { r[0] = R_f(__nv_##n(A_f(0), A_f(1))); };
#define IF_3(n) t["__" #n] = [](const u64* a, u64* r) { r[0] = R_f(__nv_##n(A_f(0), A_f(1), A_f(2))); };
#define ID_1(n) t["__" #n] = [](const u64* a, u64* r) { r[0] = R_d(__nv_##n(A_d(0))); };
#define ID_2(n) t["__" #n] = [](const u64* a, u64* r) { r[0] = R_d(__nv_##n(A_d(0), A_d(1))); };
#define ID_3(n) t["__" #n] = [](const u64* a, u64* r) { r[0] = R_d(__nv_##n(A_d(0), A_d(1), A_d(2))); };
#include "ld_names.inc"
#define M(probe, body) t[probe] = [](const u64* a, u64* r) { body; };
  M("__sinf", r[0] = R_f(__nv_fast_sinf(A_f(0))))
  M("__cosf", r[0] = R_f(__nv_fast_cosf(A_f(0))))
  M("__tanf", r[0] = R_f(__nv_fast_tanf(A_f(0))))
  M("__tanhf", r[0] = R_f(__nv_fast_tanhf(A_f(0))))
  M("__expf", r[0] = R_f(__nv_fast_expf(A_f(0))))
  M("__exp10f", r[0] = R_f(__nv_fast_exp10f(A_f(0))))
  M("__logf", r[0] = R_f(__nv_fast_logf(A_f(0))))
  M("__log2f", r[0] = R_f(__nv_fast_log2f(A_f(0))))
  M("__log10f", r[0] = R_f(__nv_fast_log10f(A_f(0))))
  M("__powf", r[0] = R_f(__nv_fast_powf(A_f(0), A_f(1))))
  M("__fdividef", r[0] = R_f(__nv_fast_fdividef(A_f(0), A_f(1))))
  M("fdividef", r[0] = R_f(__cuemu_fdiv_f(A_f(0), A_f(1))))  // a / b unless fast math
  M("__sincosf", float s; float c; __nv_fast_sincosf(A_f(0), &s, &c); r[0] = R_f(s); r[1] = R_f(c))
  M("sincosf", float s; float c; __nv_sincosf(A_f(0), &s, &c); r[0] = R_f(s); r[1] = R_f(c))
  M("sincospif", float s; float c; __nv_sincospif(A_f(0), &s, &c); r[0] = R_f(s); r[1] = R_f(c))
  M("sincos", double s; double c; __nv_sincos(A_d(0), &s, &c); r[0] = R_d(s); r[1] = R_d(c))
  M("sincospi", double s; double c; __nv_sincospi(A_d(0), &s, &c); r[0] = R_d(s); r[1] = R_d(c))
  M("modff", float ip; r[0] = R_f(__nv_modff(A_f(0), &ip)); r[1] = R_f(ip))
  M("modf", double ip; r[0] = R_d(__nv_modf(A_d(0), &ip)); r[1] = R_d(ip))
  M("frexpf", i32 e; r[0] = R_f(__nv_frexpf(A_f(0), &e)); r[1] = R_i(e))
  M("frexp", i32 e; r[0] = R_d(__nv_frexp(A_d(0), &e)); r[1] = R_i(e))
  M("remquof", i32 q; r[0] = R_f(__nv_remquof(A_f(0), A_f(1), &q)); r[1] = R_i(q))
  M("remquo", i32 q; r[0] = R_d(__nv_remquo(A_d(0), A_d(1), &q)); r[1] = R_i(q))
  M("norm4df", r[0] = R_f(__nv_norm4df(A_f(0), A_f(1), A_f(2), A_f(3))))
  M("rnorm4df", r[0] = R_f(__nv_rnorm4df(A_f(0), A_f(1), A_f(2), A_f(3))))
  M("norm4d", r[0] = R_d(__nv_norm4d(A_d(0), A_d(1), A_d(2), A_d(3))))
  M("rnorm4d", r[0] = R_d(__nv_rnorm4d(A_d(0), A_d(1), A_d(2), A_d(3))))
  M("ilogbf", r[0] = R_i(__nv_ilogbf(A_f(0))))
  M("ilogb", r[0] = R_i(__nv_ilogb(A_d(0))))
  M("lrintf", r[0] = R_l(__nv_llrintf(A_f(0))))
  M("llrintf", r[0] = R_l(__nv_llrintf(A_f(0))))
  M("lroundf", r[0] = R_l(__nv_llroundf(A_f(0))))
  M("llroundf", r[0] = R_l(__nv_llroundf(A_f(0))))
  M("lrint", r[0] = R_l(__nv_llrint(A_d(0))))
  M("llrint", r[0] = R_l(__nv_llrint(A_d(0))))
  M("lround", r[0] = R_l(__nv_llround(A_d(0))))
  M("llround", r[0] = R_l(__nv_llround(A_d(0))))
  M("ldexpf", r[0] = R_f(__nv_ldexpf(A_f(0), A_i(1))))
  M("scalbnf", r[0] = R_f(__nv_scalbnf(A_f(0), A_i(1))))
  M("scalblnf", r[0] = R_f(__nv_scalbnf(A_f(0), A_i(1))))
  M("ldexp", r[0] = R_d(__nv_ldexp(A_d(0), A_i(1))))
  M("scalbn", r[0] = R_d(__nv_scalbn(A_d(0), A_i(1))))
  M("jnf", r[0] = R_f(__nv_jnf(A_i(0), A_f(1))))
  M("ynf", r[0] = R_f(__nv_ynf(A_i(0), A_f(1))))
  M("jn", r[0] = R_d(__nv_jn(A_i(0), A_d(1))))
  M("yn", r[0] = R_d(__nv_yn(A_i(0), A_d(1))))
  M("__float2int_rn", r[0] = R_i(__nv_float2int_rn(A_f(0))))
  M("__float2int_rz", r[0] = R_i(__nv_float2int_rz(A_f(0))))
  M("__float2int_ru", r[0] = R_i(__nv_float2int_ru(A_f(0))))
  M("__float2int_rd", r[0] = R_i(__nv_float2int_rd(A_f(0))))
  M("__float2uint_rn", r[0] = R_i(__nv_float2uint_rn(A_f(0))))
  M("__float2uint_rz", r[0] = R_i(__nv_float2uint_rz(A_f(0))))
  M("__float2ll_rn", r[0] = R_l(__nv_float2ll_rn(A_f(0))))
  M("__float2ll_rz", r[0] = R_l(__nv_float2ll_rz(A_f(0))))
  M("__float2ull_rz", r[0] = R_l(__nv_float2ull_rz(A_f(0))))
  M("__int2float_rz", r[0] = R_f(__nv_int2float_rz(A_i(0))))
  M("__int2float_ru", r[0] = R_f(__nv_int2float_ru(A_i(0))))
  M("__int2float_rd", r[0] = R_f(__nv_int2float_rd(A_i(0))))
  M("__uint2float_rn", r[0] = R_f(__nv_uint2float_rn(static_cast<std::uint32_t>(a[0]))))
  M("__uint2float_rz", r[0] = R_f(__nv_uint2float_rz(static_cast<std::uint32_t>(a[0]))))
  M("__ll2float_rn", r[0] = R_f(__nv_ll2float_rn(A_l(0))))
  M("__ll2float_rz", r[0] = R_f(__nv_ll2float_rz(A_l(0))))
  M("__ll2float_ru", r[0] = R_f(__nv_ll2float_ru(A_l(0))))
  M("__ull2float_rd", r[0] = R_f(__nv_ull2float_rd(a[0])))
  M("__double2float_rn", r[0] = R_f(__nv_double2float_rn(A_d(0))))
  M("__double2float_rz", r[0] = R_f(__nv_double2float_rz(A_d(0))))
  M("__double2float_ru", r[0] = R_f(__nv_double2float_ru(A_d(0))))
  M("__double2float_rd", r[0] = R_f(__nv_double2float_rd(A_d(0))))
  M("__double2int_rn", r[0] = R_i(__nv_double2int_rn(A_d(0))))
  M("__double2int_rz", r[0] = R_i(__nv_double2int_rz(A_d(0))))
  M("__double2uint_ru", r[0] = R_i(__nv_double2uint_ru(A_d(0))))
  M("__double2ll_rd", r[0] = R_l(__nv_double2ll_rd(A_d(0))))
  M("__double2ull_rn", r[0] = R_l(__nv_double2ull_rn(A_d(0))))
  M("__ll2double_rz", r[0] = R_d(__nv_ll2double_rz(A_l(0))))
  M("__ll2double_ru", r[0] = R_d(__nv_ll2double_ru(A_l(0))))
  M("__ull2double_rd", r[0] = R_d(__nv_ull2double_rd(a[0])))
  // Plain arithmetic in a kernel: the shim's operations (the GPU's NaN conventions).
  M("op_fadd", r[0] = R_f(__cuemu_fadd_f(A_f(0), A_f(1))))
  M("op_fsub", r[0] = R_f(__cuemu_fsub_f(A_f(0), A_f(1))))
  M("op_fmul", r[0] = R_f(__cuemu_fmul_f(A_f(0), A_f(1))))
  M("op_fdiv", r[0] = R_f(__cuemu_fdiv_f(A_f(0), A_f(1))))
  M("op_frcp", r[0] = R_f(__nvvm_rcp_rn_f(A_f(0))))
  M("op_fmad", r[0] = R_f(__nvvm_fma_rn_f(A_f(0), A_f(1), A_f(2))))
  M("op_fneg", r[0] = a[0] ^ 0x80000000ull)
  M("op_dadd", r[0] = R_d(__cuemu_fadd_d(A_d(0), A_d(1))))
  M("op_dsub", r[0] = R_d(__cuemu_fsub_d(A_d(0), A_d(1))))
  M("op_dmul", r[0] = R_d(__cuemu_fmul_d(A_d(0), A_d(1))))
  M("op_ddiv", r[0] = R_d(__cuemu_fdiv_d(A_d(0), A_d(1))))
  M("op_drcp", r[0] = R_d(__nvvm_rcp_rn_d(A_d(0))))
  M("op_dmad", r[0] = R_d(__nvvm_fma_rn_d(A_d(0), A_d(1), A_d(2))))
  M("op_dneg", r[0] = a[0] ^ 0x8000000000000000ull)
  M("op_d2f", r[0] = R_f(__cuemu_fptrunc_d_float(A_d(0))))
  M("op_i2f", r[0] = R_f(__nvvm_i2f_rn(A_i(0))))
  M("op_l2d", r[0] = R_d(__nvvm_ll2d_rn(A_l(0))))
#undef M
  return t;
}

static int hex_width(char t) { return (t == 'd' || t == 'l') ? 16 : 8; }

int main() {
  const std::map<std::string, Fn> fns = table();
  std::string line, name, res;
  Fn fn = nullptr;
  long long n = 0;
  while (std::getline(std::cin, line)) {
    if (line.rfind("#fn ", 0) == 0) {
      std::istringstream is(line.substr(4));
      std::string sig;
      is >> name >> sig;
      auto it = fns.find(name);
      fn = it == fns.end() ? nullptr : it->second;
      res = sig.substr(sig.find('>') + 1);
      if (fn) std::printf("%s\n", line.c_str());
      continue;
    }
    if (!fn) continue;
    const size_t arrow = line.find(" -> ");
    if (arrow == std::string::npos) continue;
    std::istringstream is(line.substr(0, arrow));
    std::string tok;
    is >> tok;
    u64 a[4] = {0, 0, 0, 0}, r[2] = {0, 0};
    for (int j = 0; j < 4 && (is >> tok); ++j) a[j] = std::stoull(tok, nullptr, 16);
    fn(a, r);
    std::string out = line.substr(0, arrow) + " ->";
    char buf[40];
    for (size_t j = 0; j < res.size(); ++j) {
      std::snprintf(buf, sizeof buf, " %0*llx", hex_width(res[j]), r[j]);
      out += buf;
    }
    std::puts(out.c_str());
    ++n;
  }
  std::printf("math_probe: %lld results\n", n);
  return 0;
}
