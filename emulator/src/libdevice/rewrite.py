#!/usr/bin/env python3
"""Retargets libdevice's textual IR (llvm-dis output) to x86-64 for the CPU prototype.

- target triple/datalayout: x86-64 Linux;
- every NVVM intrinsic @llvm.nvvm.X.Y becomes a call of the ordinary function @__nvvm_X_Y,
  which shim.c defines with the GPU's meaning;
- __nvvm_reflect("__CUDA_FTZ"/"__CUDA_ARCH"/"__CUDA_PREC_SQRT") becomes a constant (FTZ 0 or 1
  from the command line, ARCH 900, PREC_SQRT 1), as NVVM's reflect pass does;
- plain float/double arithmetic (fadd, fsub, fmul, fdiv, fptrunc, fptosi, fptoui) becomes calls
  of shim functions (@__cuemu_*) so that NaN results get the GPU's bits and conversions
  saturate as the GPU's cvt does; without --keep-plain-ops that is all of them;
- with --ftz, as NVVM compiles libdevice under -ftz=true: float arithmetic and the narrowing to
  float flush subnormal operands and results (the *_ftz shims), and float comparisons and the
  widening to double flush their operands (@__cuemu_ftz_f).

- an fadd with an fmul operand becomes one fma where nvcc's code generator fuses them
  (contract.py), unless --no-contract (as -fmad=false compiles libdevice).

usage: rewrite.py IN.ll OUT.ll [--ftz] [--div=ieee|full|approx] [--approx-sqrt] [--no-contract]
  --div: float division as IEEE (default), div.full (-prec-div=false) or div.approx
  (--use_fast_math); --approx-sqrt: __CUDA_PREC_SQRT reflects 0 (-prec-sqrt=false).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from contract import contract as contract_pairs  # noqa: E402

X86_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"


ASM_DECLS = {
    "__asm_rsqrt_approx_ftz_f64": "declare double @__asm_rsqrt_approx_ftz_f64(double)",
    "__asm_rcp_approx_ftz_f32": "declare float @__asm_rcp_approx_ftz_f32(float)",
    "__asm_bfind_shiftamt_u32": "declare i32 @__asm_bfind_shiftamt_u32(i32)",
    "__asm_selp_equ_f64": "declare double @__asm_selp_equ_f64(double, double, double, double)",
    "__asm_mad_wide_u32": "declare { i32, i32 } @__asm_mad_wide_u32(i32, i32, i32)",
    "__asm_add_u128": "declare { i64, i64 } @__asm_add_u128(i64, i64, i64, i64)",
    "__asm_sub_u128": "declare { i64, i64 } @__asm_sub_u128(i64, i64, i64, i64)",
    "__asm_mad_u128": "declare { i64, i64 } @__asm_mad_u128(i64, i64, i64)",
    "__asm_mul_u128": "declare { i64, i64 } @__asm_mul_u128(i64, i64)",
}
for m in ("rn", "rz", "rm", "rp"):
    ASM_DECLS[f"__asm_sub_{m}_f64"] = f"declare double @__asm_sub_{m}_f64(double, double)"
    for f in ("", "_ftz"):
        ASM_DECLS[f"__asm_sub_{m}{f}_f32"] = f"declare float @__asm_sub_{m}{f}_f32(float, float)"


def asm_name(body):
    """The shim function for one inline PTX string of libdevice."""
    if "rsqrt.approx.ftz.f64" in body:
        return "__asm_rsqrt_approx_ftz_f64"
    if "rcp.approx.ftz.f32" in body:
        return "__asm_rcp_approx_ftz_f32"
    if "bfind.shiftamt.u32" in body:
        return "__asm_bfind_shiftamt_u32"
    if "setp.equ.f64" in body:
        return "__asm_selp_equ_f64"
    m = re.fullmatch(r"sub\.(r[nzmp])(\.ftz)?\.f(32|64) \$0, \$1, \$2;", body)
    if m:
        return f"__asm_sub_{m.group(1)}{'_ftz' if m.group(2) else ''}_f{m.group(3)}"
    if "mad.lo.cc.u32   $0" in body:
        return "__asm_mad_wide_u32"
    if "add.cc.u32      r0" in body:
        return "__asm_add_u128"
    if "sub.cc.u32      r0" in body:
        return "__asm_sub_u128"
    if "mad.lo.cc.u32   r0, alo, blo, clo" in body:
        return "__asm_mad_u128"
    if "mul.lo.u32      r0, alo, blo" in body:
        return "__asm_mul_u128"
    sys.exit(f"rewrite.py: unknown inline PTX: {body!r}")


def main():
    src, dst = sys.argv[1], sys.argv[2]
    ftz = "--ftz" in sys.argv
    div = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--div=")), "ieee")
    prec_sqrt = 0 if "--approx-sqrt" in sys.argv else 1
    text = open(src).read()
    if "--no-contract" not in sys.argv:
        text, _ = contract_pairs(text, ftz)
    text = re.sub(r'^target datalayout = ".*"$', f'target datalayout = "{X86_LAYOUT}"', text, flags=re.M)
    text = re.sub(r'^target triple = ".*"$', 'target triple = "x86_64-pc-linux-gnu"', text, flags=re.M)
    # Reflect strings: find which global holds which name.
    strs = dict(re.findall(r'^(@\.str[.\d]*) = .*c"(__CUDA_\w+)\\00"', text, flags=re.M))
    value = {"__CUDA_FTZ": 1 if ftz else 0, "__CUDA_ARCH": 900, "__CUDA_PREC_SQRT": prec_sqrt}

    def reflect(m):
        name = strs[m.group(2)]
        return f"{m.group(1)} = add i32 0, {value[name]}"

    text = re.sub(r"^(\s*%[\w.]+) = (?:tail )?call i32 @__nvvm_reflect\(i8\* getelementptr inbounds \(\[\d+ x i8\], \[\d+ x i8\]\* (@\.str[.\d]*), i32 0, i32 0\)\)(?: #\d+)?$",
                  reflect, text, flags=re.M)
    text = re.sub(r"@llvm\.nvvm\.([\w.]+)", lambda m: "@__nvvm_" + m.group(1).replace(".", "_"), text)

    ops = ["fadd", "fsub", "fmul", "fdiv"]
    used = set()

    def arith(m):
        lhs, op, ty, a, b = m.groups()
        fn = f"__cuemu_{op}_{ty[0]}" + ("_ftz" if ftz and ty == "float" else "")
        if op == "fdiv" and ty == "float" and div != "ieee":  # -prec-div=false, --use_fast_math
            fn = f"__cuemu_fdiv_{div}_f" + ("_ftz" if ftz else "")
        used.add((fn, f"{ty} @{fn}({ty}, {ty})"))
        return f"{lhs} = call {ty} @{fn}({ty} {a}, {ty} {b})"

    text = re.sub(r"^(\s*%[\w.]+) = (" + "|".join(ops) + r") (float|double) ([^,\s]+), ([^,\s]+)$",
                  arith, text, flags=re.M)

    def conv(m):
        lhs, op, fty, a, tty = m.groups()
        fn = f"__cuemu_{op}_{fty[0]}_{tty}" + ("_ftz" if ftz and tty == "float" else "")
        used.add((fn, f"{tty} @{fn}({fty})"))
        return f"{lhs} = call {tty} @{fn}({fty} {a})"

    text = re.sub(r"^(\s*%[\w.]+) = (fptrunc|fptosi|fptoui) (float|double) ([^,\s]+) to (float|i32|i64)$",
                  conv, text, flags=re.M)
    if ftz:
        # Under -ftz, comparisons and widening to double flush their float operands first.
        def flush(lhs, v, k):
            if not v.startswith("%"):
                return v, ""
            name = f"%ftz.{lhs.strip()[1:]}.{k}"
            return name, f"{lhs[:len(lhs) - len(lhs.lstrip())]}{name} = call float @__cuemu_ftz_f(float {v})\n"

        def fcmp(m):
            lhs, cond, a, b = m.groups()
            fa, la = flush(lhs, a, 0)
            fb, lb = flush(lhs, b, 1)
            used.add(("__cuemu_ftz_f", "float @__cuemu_ftz_f(float)"))
            return f"{la}{lb}{lhs} = fcmp {cond} float {fa}, {fb}"

        text = re.sub(r"^(\s*%[\w.]+) = fcmp (\w+) float ([^,\s]+), ([^,\s]+)$", fcmp, text, flags=re.M)

        def fpext(m):
            lhs, a = m.groups()
            fa, la = flush(lhs, a, 0)
            used.add(("__cuemu_ftz_f", "float @__cuemu_ftz_f(float)"))
            return f"{la}{lhs} = fpext float {fa} to double"

        text = re.sub(r"^(\s*%[\w.]+) = fpext float ([^,\s]+) to double$", fpext, text, flags=re.M)
    # Inline PTX: each distinct asm string becomes a call of a shim function.
    def asm(m):
        ty, body, args = m.group(1), m.group(2), m.group(3)
        fn = asm_name(body)
        used.add((fn, None))
        return f"call {ty} @{fn}({args})"

    text = re.sub(r'call ([^@"]*?) asm (?:sideeffect )?"((?:[^"\\]|\\.)*)", "[^"]*"\(([^()]*)\)', asm, text)
    text = re.sub(r"^declare i32 @__nvvm_reflect\(i8\*\).*$", "", text, flags=re.M)
    decls = "".join(f"declare {sig}\n" for _, sig in sorted(used) if sig)
    for fn, sig in sorted(used):
        if sig is None:
            decls += ASM_DECLS[fn] + "\n"
    open(dst, "w").write(text + "\n" + decls)
    left = re.findall(r"call i32 @__nvvm_reflect", text)
    if left:
        sys.exit(f"rewrite.py: {len(left)} __nvvm_reflect calls left")


if __name__ == "__main__":
    main()
