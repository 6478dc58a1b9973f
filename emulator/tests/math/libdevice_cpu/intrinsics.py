#!/usr/bin/env python3
"""Lists, for each libdevice function, the special-function-unit approximations it reaches
(after rewrite.py and `opt -O1`, so with __nvvm_reflect folded: no-FTZ paths only) and the
plain multiply-add pairs that NVVM might contract into an fma.

usage: intrinsics.py libdevice_x86_o1.ll   (make.sh writes intrinsics.txt with it)
Output, one line per __nv_ function:
  <name> exact|APPROX:<intrinsics>  [mul+add pairs: N]
'exact' means that only exactly specified operations are reached (integer operations, fma/add/
mul/div/sqrt in a rounding direction, conversions, ...), so the function's bits on the GPU are
reproducible on a CPU that does those operations as the GPU does.
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    funcs, pairs = {}, {}
    for m in re.finditer(r"^define [^@]*@([\w.]+)\((.*?)^}", text, flags=re.M | re.S):
        name, body = m.group(1), m.group(2)
        funcs[name] = set(re.findall(r"call [^@]*@([\w.]+)\(", body))
        muls = set(re.findall(r"^\s*(%[\w.]+) = call (?:float|double) @__cuemu_fmul_[fd]\(", body, flags=re.M))
        n = 0
        for a in re.finditer(r"^\s*%[\w.]+ = call (?:float|double) @__cuemu_f(?:add|sub)_[fd]\((?:float|double) ([^,\s]+), (?:float|double) ([^,\s)]+)\)", body, flags=re.M):
            n += a.group(1) in muls or a.group(2) in muls
        pairs[name] = n

    def reach(f, seen):
        out = set()
        for c in funcs.get(f, ()):
            if c in funcs:
                if c not in seen:
                    seen.add(c)
                    out |= reach(c, seen)
            else:
                out.add(c)
        return out

    for f in sorted(funcs):
        if not f.startswith("__nv_"):
            continue
        approx = sorted(c.replace("__nvvm_", "").replace("__asm_", "asm:") for c in reach(f, set()) if "approx" in c)
        line = f"{f} " + ("APPROX:" + ",".join(approx) if approx else "exact")
        if pairs.get(f):
            line += f"  [mul+add pairs: {pairs[f]}]"
        print(line)


if __name__ == "__main__":
    main()
