"""nvcc's contraction of libdevice's plain multiplies and adds into fused multiply-adds.

Under nvcc's default -fmad=true, NVVM's code generator fuses a float or double multiply with the
add or subtract that uses it into one fma (rounding once). It works on one basic block at a time:
- an `fadd` (and an `fsub x, C`, which becomes `fadd x, -C`) by NVPTX's add combine: a multiply
  operand with fewer than 5 uses, every one of them an add; the first operand tried first, then
  the second: fma(N0.a, N0.b, N1), else fma(N1.a, N1.b, N0); an add of a negation is a subtract;
- an `fsub` of two values by LLVM's generic combine: a multiply with this one use, the first
  operand first: x*y - z is fma(x, y, -z), z - x*y is fma(-x, y, z);
- a multiply by 2.0 is not one (it becomes x + x); the multiply must be in the add's block
  (SUNK: where NVVM moves it there first).
Without it y0, y1, yn and tgamma differed from the H200 in the last bit on 1.4%, 1.0%, ... of
their inputs and jnf on 33 of the probe's 235; with it they are equal (the math probe,
emulator/tests/math/sampled). -fmad=false builds libdevice without it (build.py, bit 4).

contract(text, ftz) rewrites the pairs of every function of the textual IR into calls of
@llvm.nvvm.fma.rn.{d,f,ftz.f}; multiplies left without uses are left for clang to drop.
"""
import re

ARITH = re.compile(r"^(\s*)(%[\w.]+) = (fadd|fsub|fmul) (float|double) ([^,\s]+), ([^,\s]+)$")
LABEL = re.compile(r"^([\w.]+):")
VALUE = re.compile(r"%[\w.]+")

# Multiplies that NVVM moves from their block into the block of their one use before it fuses
# (its own placement, which LLVM's -O3 does not do): there the add fuses them as its first
# operand. Read from nvcc 13.0's PTX of kernels calling y1 and yn: y1's small-argument branch
# x * P(x^2) is computed beside (2/pi)(log(x) j1(x) - 1/x) and fused as fma(x, P, that), where
# y0's P(x^2) (x^2 - z^2) stays in its block. yn inlines y1 twice (%16 and %1876; its y0 copies
# stay). The probe and the sampled record show the H200 computing exactly this.
SUNK = {"__nv_y1": ("%16",), "__nv_yn": ("%16", "%1876")}


def negate(c):
    """The negation of an IR float constant (hex or decimal)."""
    if c.startswith("0x"):
        return "0x%016X" % (int(c[2:], 16) ^ (1 << 63))
    return c[1:] if c.startswith("-") else "-" + c


def is_constant(v):
    return not v.startswith("%")


def is_two(v):
    return v in ("2.000000e+00", "0x4000000000000000")


def contract_function(name, lines, ftz, sunk=()):
    """Fuses the pairs of one function's body lines (in place); returns how many."""
    defs = {}   # value -> [op, ty, a, b, block]
    block = 0
    for line in lines:
        if LABEL.match(line):
            block += 1
            continue
        m = ARITH.match(line)
        if m:
            _, lhs, op, ty, a, b = m.groups()
            defs[lhs] = [op, ty, a, b, block]

    uses = {}   # fmul value -> the line indices using it
    for i, line in enumerate(lines):
        rhs = line.split(" = ", 1)[1] if " = " in line else line
        for v in VALUE.findall(rhs):
            if v in defs and defs[v][0] == "fmul":
                uses.setdefault(v, []).append(i)

    for v in sunk:
        user = uses.get(v, [])
        m = ARITH.match(lines[user[0]]) if len(user) == 1 else None
        if defs.get(v, [""])[0] != "fmul" or not m or m.group(3) != "fadd" or m.group(5) != v:
            raise SystemExit(f"contract.py: {name}'s {v} is not a multiply whose one use is an add's "
                             "first operand (a libdevice other than CUDA 13.0's?): update SUNK")
        defs[v][4] = defs[m.group(2)][4]

    def add_like(i):
        """An fadd, or an fsub of a constant (which the code generator makes an fadd)."""
        m = ARITH.match(lines[i])
        if not m:
            return False
        op, a, b = m.group(3), m.group(5), m.group(6)
        return op == "fadd" or (op == "fsub" and is_constant(b) and not is_constant(a))

    def negation(v):
        d = defs.get(v)
        return d is not None and d[0] == "fsub" and d[2] in ("-0.000000e+00", "0x8000000000000000")

    def multiply(v, block):
        d = defs.get(v)
        return d is not None and d[0] == "fmul" and d[4] == block and not is_two(d[2]) and not is_two(d[3])

    def fma(ty, a, b, c):
        fn = "llvm.nvvm.fma.rn.d" if ty == "double" else (
            "llvm.nvvm.fma.rn.ftz.f" if ftz else "llvm.nvvm.fma.rn.f")
        return f"call {ty} @{fn}({ty} {a}, {ty} {b}, {ty} {c})"

    fused = 0
    for i, line in enumerate(lines):
        m = ARITH.match(line)
        if not m or m.group(3) == "fmul" or negation(m.group(2)):
            continue
        indent, lhs, op, ty, n0, n1 = m.groups()
        block = defs[lhs][4]
        if add_like(i):
            # NVPTX's add combine: a multiply with fewer than 5 uses, all of them adds.
            if op == "fsub":
                n1 = negate(n1)
            elif negation(n0) or negation(n1):
                continue   # an add of a negation is a subtraction
            for mul, other in ((n0, n1), (n1, n0)):
                if multiply(mul, block) and len(uses[mul]) < 5 and all(add_like(j) for j in uses[mul]):
                    _, _, a, b, _ = defs[mul]
                    lines[i] = f"{indent}{lhs} = {fma(ty, a, b, other)}"
                    uses[mul].remove(i)
                    fused += 1
                    break
        else:
            # The generic subtract combine: a multiply whose one use this is; x*y - z first.
            neg = f"%neg.{lhs[1:]}"
            if multiply(n0, block) and len(uses[n0]) == 1:
                _, _, a, b, _ = defs[n0]
                lines[i] = f"{indent}{neg} = fneg {ty} {n1}\n{indent}{lhs} = {fma(ty, a, b, neg)}"
                uses[n0].remove(i)
                fused += 1
            elif multiply(n1, block) and len(uses[n1]) == 1:
                _, _, a, b, _ = defs[n1]
                lines[i] = f"{indent}{neg} = fneg {ty} {a}\n{indent}{lhs} = {fma(ty, neg, b, n0)}"
                uses[n1].remove(i)
                fused += 1
    return fused


def contract(text, ftz):
    """Fuses the pairs of every function of the module text; returns (text, count)."""
    out, body, total, name = [], None, 0, None
    for line in text.split("\n"):
        if body is None:
            out.append(line)
            if line.startswith("define ") and line.rstrip().endswith("{"):
                body = []
                name = re.search(r"@([\w.]+)\(", line).group(1)
        elif line == "}":
            total += contract_function(name, body, ftz, SUNK.get(name, ()))
            out.extend(body)
            out.append(line)
            body = None
        else:
            body.append(line)
    for fn in SUNK:
        if f"@{fn}(" not in text:
            raise SystemExit(f"contract.py: libdevice has no {fn}: update SUNK")
    return "\n".join(out), total
