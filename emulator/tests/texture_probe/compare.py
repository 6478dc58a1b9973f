#!/usr/bin/env python3
"""Compares two texture_probe outputs (GPU first, emulator second).

For each case: the number of reads, the number of bit-identical reads, the largest difference
in ulps (over all channels; float bits compared as ordered integers, so 0 against a tiny value
counts many ulps), the largest absolute and relative differences, and the first few lines that
differ. Either file may be gzip-compressed (.gz). Lines are matched by their key (the text before '->'). Exit status 0 when every
read matched bit for bit, 1 otherwise, 2 when the files do not have the same keys.

usage: compare.py GPU.txt EMU.txt [--show N] [--only CASE_SUBSTRING]
"""
import argparse
import gzip
import math
import struct
import sys


def parse(path):
    headers, reads, order, tail = {}, {}, [], None
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#case "):
                cid = line.split()[1]
                headers[cid] = line
                order.append(cid)
            elif " -> " in line:
                key, vals = line.split(" -> ", 1)
                cid = key.split()[0]
                reads.setdefault(cid, {})[key] = vals.split()
            elif line.startswith("texture_probe:"):
                tail = line
    return headers, reads, order, tail


def ordered(h):
    """A float's bits as an integer that orders like the float (for ulp distances)."""
    u = int(h, 16)
    return (0x80000000 - u) if u & 0x80000000 else (0x80000000 + u)


def ulps(a, b):
    return abs(ordered(a) - ordered(b))


def as_float(h):
    return struct.unpack("<f", struct.pack("<I", int(h, 16)))[0]


def describe(header):
    # The header without its texel list, for the summary.
    return header.split(" texels@", 1)[0].replace("#case ", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gpu")
    ap.add_argument("emu")
    ap.add_argument("--show", type=int, default=3, help="differing lines shown per case")
    ap.add_argument("--only", default=None, help="only cases whose header contains this")
    args = ap.parse_args()
    gh, gr, gorder, gtail = parse(args.gpu)
    eh, er, _, etail = parse(args.emu)
    status = 0
    if gtail != etail:
        print(f"final lines differ: {gtail!r} vs {etail!r}")
    total = same = 0
    for cid in gorder:
        if args.only and args.only not in gh[cid]:
            continue
        g, e = gr.get(cid, {}), er.get(cid, {})
        if set(g) != set(e) or gh[cid] != eh.get(cid):
            print(f"{cid}: keys or header differ (gpu {len(g)} reads, emu {len(e)})")
            status = 2
        n = ident = worst = 0
        worst_abs = worst_rel = 0.0
        diffs = []
        for key, gv in g.items():
            ev = e.get(key)
            if ev is None:
                continue
            n += 1
            if gv == ev:
                ident += 1
                continue
            d = max(ulps(a, b) for a, b in zip(gv, ev)) if len(gv) == len(ev) else 1 << 32
            worst = max(worst, d)
            for a, b in zip(gv, ev):
                fa, fb = as_float(a), as_float(b)
                if math.isfinite(fa) and math.isfinite(fb) and fa != fb:
                    worst_abs = max(worst_abs, abs(fa - fb))
                    worst_rel = max(worst_rel, abs(fa - fb) / max(abs(fa), abs(fb)))
            diffs.append((key, gv, ev, d))
        total += n
        same += ident
        mark = "ok  " if ident == n else "DIFF"
        print(f"{mark} {cid}: {ident}/{n} identical, max {worst} ulp, abs {worst_abs:.3g}, "
              f"rel {worst_rel:.3g}  [{describe(gh[cid])}]")
        for key, gv, ev, d in diffs[: args.show]:
            gf = " ".join(f"{as_float(v):.9g}" for v in gv)
            ef = " ".join(f"{as_float(v):.9g}" for v in ev)
            print(f"     {key} -> gpu {' '.join(gv)} ({gf})")
            print(f"     {' ' * len(key)}    emu {' '.join(ev)} ({ef})  {d} ulp")
        if ident != n and status == 0:
            status = 1
    print(f"total: {same}/{total} reads bit-identical")
    return status


if __name__ == "__main__":
    sys.exit(main())
