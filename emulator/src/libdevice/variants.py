#!/usr/bin/env python3
"""Joins libdevice's builds for the CPU, one per floating-point mode nvcc compiles it in, into one
set of modules. A mode is a number: bit 0 -ftz=true, bit 1 -prec-div=false, bit 2
-prec-sqrt=false, bit 3 --use_fast_math (all of them, and approximate division), bit 4
-fmad=false (no multiply-add pair fused). Device code
calls @__nv_F; the runtime's int __cuemu_device_fp_mode says which build's F runs.

Functions that are the same code in every build (double precision, integer functions) are kept
once, as @__nv_F. For each function F that differs in some build (its text, or a function it
calls that differs), the builds whose F is the same code (the same text, calling the same copies)
share one copy, that of the first such mode M:
- it becomes @__nvmM_F (and the calls of differing functions follow), made internal once the
  modules are linked (build.py);
- @__nv_F switches on __cuemu_device_fp_mode and calls one of them (mode 0 for an unknown mode).

usage: variants.py OUT_DISPATCH.ll MODE=IN.ll=OUT.ll ...   (mode 0 first)
"""
import re
import sys

DEFINE = re.compile(r"^define (?:[\w]+ )*?([^@]+?) @__nv_(\w+)\((.*)\)([^{]*)\{$")


def functions(text):
    """The lines, and name -> (first line, last line) of each define of @__nv_*."""
    lines = text.split("\n")
    found, i = {}, 0
    while i < len(lines):
        m = DEFINE.match(lines[i])
        if m:
            j = i
            while lines[j] != "}":
                j += 1
            found[m.group(2)] = (i, j)
            i = j
        i += 1
    return lines, found


def body(lines, span):
    return "\n".join(lines[span[0]:span[1] + 1])


def calls(text):
    return set(re.findall(r"@__nv_(\w+)\(", text))


def split_params(s):
    return [p.strip() for p in s.split(",") if p.strip()]


def main():
    dispatch_out = sys.argv[1]
    builds = []
    for arg in sys.argv[2:]:
        mode, src, dst = arg.split("=")
        lines, fns = functions(open(src).read())
        builds.append((int(mode), lines, fns, dst))
    mode0, lines0, fns0, _ = builds[0]
    if mode0 != 0:
        sys.exit("variants.py: the first build must be mode 0")
    for _, _, fns, _ in builds:
        if set(fns) != set(fns0):
            sys.exit("variants.py: the builds define different functions")
    modes = [mode for mode, _, _, _ in builds]
    raw = {(mode, n): body(lines, fns[n]) for mode, lines, fns, _ in builds for n in fns0}
    callees = {n: sorted(calls(raw[(0, n)]) - {n}) for n in fns0}
    # rep[(mode, F)]: the mode whose copy of F this mode runs. Two modes share a copy when F's
    # text is the same in both and so is every copy it calls (refined until nothing changes).
    rep = {}
    for n in fns0:
        for mode in modes:
            rep[(mode, n)] = next(m for m in modes if raw[(m, n)] == raw[(mode, n)])
    changed = True
    while changed:
        changed = False
        for n in fns0:
            key = lambda mode: (raw[(mode, n)], tuple(rep[(mode, g)] for g in callees[n] if g in fns0))
            for mode in modes:
                r = next(m for m in modes if key(m) == key(mode))
                if r != rep[(mode, n)]:
                    rep[(mode, n)] = r
                    changed = True
    differ = {n for n in fns0 if any(rep[(mode, n)] != 0 for mode in modes)}

    def signature(n):
        m = DEFINE.match(lines0[fns0[n][0]])
        return m.group(1), [p.rsplit(" %", 1)[0] for p in split_params(m.group(3))]

    copies = 0
    for mode, lines, fns, dst in builds:
        drop = set()
        for n, (a, b) in fns.items():
            # mode 0 keeps the shared functions; each mode keeps the copies it represents
            if (mode != 0 or n in differ) and rep[(mode, n)] != mode:
                drop.update(range(a, b + 1))
            elif n in differ:
                copies += 1
        text = "\n".join(line for i, line in enumerate(lines) if i not in drop)
        text = re.sub(r"@__nv_(\w+)\b",
                      lambda m: f"@__nvm{rep[(mode, m.group(1))]}_{m.group(1)}" if m.group(1) in differ
                      else m.group(0), text)
        # Declarations of what it calls and does not define, once.
        defined = set(re.findall(r"^define [^@]*@(__nv\w+)\(", text, flags=re.M))
        wanted = set(re.findall(r"@(__nv(?:m\d+)?_\w+)\(", text)) - defined
        text = re.sub(r"^declare [^@]*@(__nv(?:m\d+)?_\w+)\(.*$", "", text, flags=re.M)
        decls = []
        for name in sorted(wanted):
            ret, types = signature(re.sub(r"^__nv(?:m\d+)?_", "", name))
            decls.append(f"declare {ret} @{name}({', '.join(types)})")
        open(dst, "w").write(text + "\n" + "\n".join(decls) + "\n")

    header = [l for l in lines0 if l.startswith(("target datalayout", "target triple"))]
    out = header + ["@__cuemu_device_fp_mode = external global i32", ""]
    for n in sorted(differ):
        ret, types = signature(n)
        args = [f"%a{k}" for k in range(len(types))]
        typed = ", ".join(f"{t} {a}" for t, a in zip(types, args))
        reps = sorted({rep[(mode, n)] for mode in modes})
        out.append(f"define {ret} @__nv_{n}({typed}) {{")
        out.append("  %mode = load i32, i32* @__cuemu_device_fp_mode, align 4")
        cases = " ".join(f"i32 {m}, label %m{rep[(m, n)]}" for m in modes[1:])
        out.append(f"  switch i32 %mode, label %m{rep[(0, n)]} [ {cases} ]")
        for m in reps:
            out.append(f"m{m}:")
            if ret == "void":
                out.append(f"  call void @__nvm{m}_{n}({typed})")
                out.append("  ret void")
            else:
                out.append(f"  %r{m} = call {ret} @__nvm{m}_{n}({typed})")
                out.append(f"  ret {ret.split()[-1]} %r{m}")
        out.append("}")
        for m in reps:
            out.append(f"declare {ret} @__nvm{m}_{n}({', '.join(types)})")
        out.append("")
    open(dispatch_out, "w").write("\n".join(out))
    print(f"libdevice: {len(differ)} of {len(fns0)} functions differ between the modes {modes}; "
          f"{copies} copies of them")


if __name__ == "__main__":
    main()
