#!/usr/bin/env python3
"""Compares two math_probe outputs: the GPU's first, the emulator's second.

Prints a markdown table with one row per function (in the order of the GPU's output): its
signature, the inputs checked, the inputs whose results are equal bit for bit, the worst
difference, and notes. Results are compared as the probe prints them, by their bits:

- float/double results: the difference in ulps, counted on the ordered integers of the bits
  (so +0 and -0 are 1 ulp apart, and 0 against the smallest subnormal is 1 ulp); a result that is
  NaN on one side only, or NaN on both sides with different bits (payload, sign), is counted in
  the notes and not in the ulp column;
- integer results (ilogb, lrint, __float2int_*, frexp's exponent, remquo's quotient): the
  difference of the integers.

Lines are matched by their key (the name and the argument bits, the text before '->'); a
function or an input present on one side only counts as a difference. Either file may be
gzip-compressed (.gz).

Exit status: 0 when every result is bit-identical and both sides have the same inputs, 1 when
anything differs, 2 on unusable input.

usage: compare.py GPU.txt[.gz] EMU.txt[.gz] [--show N] [--only SUBSTRING] [--differing] [--common]
"""
import argparse
import gzip
import sys

WIDTH = {"f": 32, "d": 64, "i": 32, "l": 64, "e": 32, "k": 32}


def parse(path):
    """{name: (sig, {key: [result hex]})} and the order of the names."""
    fns, order = {}, []
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#fn "):
                _, name, sig = line.split()
                fns[name] = (sig, {})
                order.append(name)
            elif " -> " in line:
                key, vals = line.split(" -> ", 1)
                name = key.split(" ", 1)[0]
                if name not in fns:
                    raise ValueError(f"{path}: a result before its #fn line: {line}")
                fns[name][1][key] = vals.split()
    return fns, order


def is_nan(bits, t):
    if t == "f":
        return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x7FFFFF) != 0
    return (bits & 0x7FF0000000000000) == 0x7FF0000000000000 and (bits & 0xFFFFFFFFFFFFF) != 0


def ordered(bits, width):
    sign = 1 << (width - 1)
    return (sign - (bits & (sign - 1)) - 1) if bits & sign else (sign + bits)


def signed(bits, width):
    return bits - (1 << width) if bits >> (width - 1) else bits


def diff(a, b, t):
    """(kind, ulps): kind is 'equal', 'ulp', 'nan-bits' or 'nan-vs-number'."""
    x, y = int(a, 16), int(b, 16)
    if x == y:
        return "equal", 0
    if t in ("f", "d"):
        na, nb = is_nan(x, t), is_nan(y, t)
        if na and nb:
            return "nan-bits", 0
        if na or nb:
            return "nan-vs-number", 0
        w = WIDTH[t]
        return "ulp", abs(ordered(x, w) - ordered(y, w))
    w = WIDTH[t]
    return "ulp", abs(signed(x, w) - signed(y, w))


def fmt_big(n):
    return str(n) if n < 10**6 else f"{n:.2e}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("gpu")
    ap.add_argument("emu")
    ap.add_argument("--show", type=int, default=0, help="list the first N differing lines of each function")
    ap.add_argument("--only", help="only functions whose name contains this")
    ap.add_argument("--differing", action="store_true", help="table rows only for functions that differ")
    ap.add_argument("--common", action="store_true",
                    help="only the functions present in both files (e.g. a partial implementation)")
    args = ap.parse_args()
    try:
        gpu, order = parse(args.gpu)
        emu, emu_order = parse(args.emu)
    except (OSError, ValueError) as e:
        print(f"compare.py: {e}", file=sys.stderr)
        return 2
    if not gpu:
        print(f"compare.py: no results in {args.gpu}", file=sys.stderr)
        return 2
    names = order + [n for n in emu_order if n not in gpu]
    if args.only:
        names = [n for n in names if args.only in n]
    if args.common:
        names = [n for n in names if n in gpu and n in emu]

    rows, examples = [], {}
    tot_inputs = tot_equal = fns_equal = 0
    any_diff = False
    for name in names:
        if name not in emu or name not in gpu:
            side = "emulator" if name not in emu else "GPU"
            sig, res = (gpu if name in gpu else emu)[name]
            rows.append((name, sig, len(res), 0, "-", f"missing on the {side}"))
            tot_inputs += len(res)
            any_diff = True
            continue
        sig, g = gpu[name]
        esig, e = emu[name]
        rtypes = sig.split(">", 1)[1]
        notes = {}
        if esig != sig:
            notes[f"signature {esig} on the emulator"] = 1
        equal = 0
        worst, worst_key = -1, None
        shown = []
        for key, gv in g.items():
            ev = e.get(key)
            if ev is None:
                notes["input missing on the emulator"] = notes.get("input missing on the emulator", 0) + 1
                continue
            kinds = []
            line_worst = -1
            for t, a, b in zip(rtypes, gv, ev):
                kind, u = diff(a, b, t)
                kinds.append(kind)
                if kind == "ulp":
                    line_worst = max(line_worst, u)
            if all(k == "equal" for k in kinds) and len(gv) == len(ev):
                equal += 1
                continue
            for k in set(kinds) - {"equal", "ulp"}:
                label = "NaN bits differ" if k == "nan-bits" else "NaN on one side"
                notes[label] = notes.get(label, 0) + 1
            if line_worst > worst:
                worst, worst_key = line_worst, key
            if len(shown) < args.show:
                shown.append(f"{key} -> GPU {' '.join(gv)}  emulator {' '.join(ev)}")
        extra = len(set(e) - set(g))
        if extra:
            notes["inputs only on the emulator"] = extra
        if shown:
            examples[name] = shown
        n = len(g)
        tot_inputs += n
        tot_equal += equal
        same = equal == n and not notes
        fns_equal += same
        any_diff |= not same
        unit = "ulp" if rtypes[0] in "fd" else ""
        if worst < 0:
            worst_s = "0" if equal == n else "-"
        else:
            worst_s = f"{fmt_big(worst)} {unit}".strip()
            if worst_key is not None:
                worst_s += f" (`{' '.join(worst_key.split()[1:])}`)"
        note_s = "; ".join(f"{k}: {v}" if v != 1 or "signature" not in k else k for k, v in notes.items())
        rows.append((name, sig, n, equal, worst_s, note_s))

    print("| function | types | inputs | equal | worst difference (at input) | notes |")
    print("|---|---|---:|---:|---|---|")
    for name, sig, n, equal, worst_s, note_s in rows:
        if args.differing and equal == n and not note_s:
            continue
        print(f"| `{name}` | {sig} | {n} | {equal} | {worst_s} | {note_s} |")
    print()
    print(f"{len(rows)} functions, {fns_equal} bit-identical on every input; "
          f"{tot_inputs} inputs, {tot_equal} equal, {tot_inputs - tot_equal} differ.")
    for name, lines in examples.items():
        print(f"\n{name}:")
        for l in lines:
            print(f"  {l}")
    return 1 if any_diff else 0


if __name__ == "__main__":
    sys.exit(main())
