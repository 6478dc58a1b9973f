#!/usr/bin/env python3
"""Builds NVIDIA's libdevice (the CUDA math library as nvcc links it into device code) for the
CPU: one x86-64 object defining the __nv_* functions with the GPU's algorithms.

  build.py --libdevice libdevice.10.bc --clang CLANG --llvm-dis LLVM_DIS --llvm-link LLVM_LINK
           --objcopy OBJCOPY --nm NM --out OBJ

Steps: llvm-dis; rewrite.py once per mode (x86-64 target, NVVM intrinsics and libdevice's inline PTX as
calls of shim functions, __nvvm_reflect folded, multiply-add pairs fused where nvcc's code
generator fuses them (contract.py); the modes of -ftz, -prec-div, -prec-sqrt, -fmad);
variants.py (a function that differs between modes kept once per distinct copy, __nv_NAME
choosing by the runtime's __cuemu_device_fp_mode); shim.c and sfu.c (the special function unit: the
tables of sfu/*.xz unpacked beside it, and the models sfu_fit.c fits to them) to bitcode; llvm-link with shim_asm.ll; clang
-O2 -fPIC without contraction. The object may then call the C library's math functions (clang
lowers llvm.floor, llvm.fma, ... to floorf, fmaf, ... on a CPU without SSE4.1/FMA). The runtime
defines those same names to send device code here (runtime/math_library.cpp), so every
undefined symbol but fesetround and libgcc's (__*) is renamed __cuemu_host_NAME, which the runtime defines as the C
library's own NAME. Nothing derived from libdevice is kept outside the build directory.
"""
import argparse
import glob
import lzma
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))

# The floating-point modes device code can be compiled in (variants.py): bit 0 -ftz=true, bit 1
# -prec-div=false, bit 2 -prec-sqrt=false, bit 4 -fmad=false; 15 is --use_fast_math.
MODES = [0, 1, 2, 3, 4, 5, 6, 7, 15] + [16 + m for m in range(8)]


def rewrite_flags(mode):
    if mode == 15:
        return ["--ftz", "--div=approx", "--approx-sqrt"]
    return ((["--ftz"] if mode & 1 else []) + (["--div=full"] if mode & 2 else []) +
            (["--approx-sqrt"] if mode & 4 else []) + (["--no-contract"] if mode & 16 else []))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit(f"libdevice build: {' '.join(cmd)} failed:\n{r.stdout}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--libdevice", required=True)
    ap.add_argument("--clang", required=True)
    ap.add_argument("--llvm-dis", required=True)
    ap.add_argument("--llvm-link", required=True)
    ap.add_argument("--objcopy", required=True)
    ap.add_argument("--nm", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if not os.path.isfile(a.libdevice):
        sys.exit(f"libdevice build: no libdevice at {a.libdevice}")
    work = a.out + ".d"
    os.makedirs(work, exist_ok=True)
    ll, dispatch, shim, linked, raw = (
        os.path.join(work, n) for n in ("libdevice.ll", "dispatch.ll", "shim.bc", "linked.bc", "raw.o"))
    run([a.llvm_dis, a.libdevice, "-o", ll])
    builds = []
    for mode in MODES:
        x86, joined = (os.path.join(work, f"mode{mode}{suffix}.ll") for suffix in ("", "_joined"))
        run([sys.executable, os.path.join(here, "rewrite.py"), ll, x86] + rewrite_flags(mode))
        builds.append((mode, x86, joined))
    print(run([sys.executable, os.path.join(here, "variants.py"), dispatch] +
              [f"{m}={x86}={joined}" for m, x86, joined in builds]), end="")
    run([a.clang, "-O2", "-fPIC", "-frounding-math", "-ffp-contract=off", "-c", "-emit-llvm",
         os.path.join(here, "shim.c"), "-o", shim])
    sfu = os.path.join(work, "sfu.bc")
    for packed in glob.glob(os.path.join(here, "sfu", "*.xz")):
        with open(os.path.join(work, os.path.basename(packed)[:-3]), "wb") as f:
            f.write(lzma.decompress(open(packed, "rb").read()))
    fitter = os.path.join(work, "sfu_fit")
    run([a.clang, "-O2", "-ffp-contract=off", os.path.join(here, "sfu_fit.c"), "-o", fitter, "-lm"])
    print(run([fitter, work, os.path.join(work, "sfu_models.h")]), end="")
    run([a.clang, "-O2", "-fPIC", "-ffp-contract=off", f'-DCUEMU_SFU_DIR="{os.path.abspath(work)}"',
         "-I", work, "-c", "-emit-llvm", os.path.join(here, "sfu.c"), "-o", sfu])
    run([a.llvm_link] + [j for _, _, j in builds] + [dispatch, shim, sfu, os.path.join(here, "shim_asm.ll"),
                                                        "-S", "-o", linked + ".ll"])
    # Each mode's copy of a function is reached only through its dispatcher: internal, so that
    # clang inlines it there and keeps no copy of its own.
    with open(linked + ".ll") as f:
        text = re.sub(r"^define (?!internal )(.*@__nvm\d+_)", r"define internal \1", f.read(), flags=re.M)
    with open(linked + ".ll", "w") as f:
        f.write(text)
    run([os.path.join(os.path.dirname(a.llvm_link), os.path.basename(a.llvm_link).replace("llvm-link", "llvm-as")),
         linked + ".ll", "-o", linked])
    run([a.clang, "-O2", "-fPIC", "-ffp-contract=off", "-c", linked, "-o", raw])
    undefined = [l.split()[-1] for l in run([a.nm, "-u", raw]).splitlines() if l.strip()]
    renames = os.path.join(work, "renames.txt")
    with open(renames, "w") as f:
        for name in undefined:
            # libgcc's __cpu_model and __cpu_indicator_init (the shim's CPU check) stay.
            if name != "fesetround" and not name.startswith("__"):
                f.write(f"{name} __cuemu_host_{name}\n")
    run([a.objcopy, f"--redefine-syms={renames}", raw, a.out])
    for n in [ll, dispatch, linked, linked + ".ll"] + [f for _, x86, j in builds for f in (x86, j)]:
        os.remove(n)


if __name__ == "__main__":
    main()
