#!/usr/bin/env python3
"""The emulator's hashes of an exhaustive run's ranges against the GPU's record.

usage: compare_ranges.py RECORD(.gz) EMULATOR_OUTPUT...

RECORD: exhaustive.cu's output on the GPU machine ("#fn NAME ..." blocks of "hash RANGE H D").
EMULATOR_OUTPUT: `exhaustive --range R --only NAMES` run on the emulator ("hash NAME R H" lines),
any number of files. Prints, per function found in the outputs, the ranges compared and how many
hashes differ from the GPU's; exits 1 if any differs or a function has no record.
"""
import gzip
import sys


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return f.read().splitlines()


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    gpu = {}
    fn = None
    for line in read(argv[1]):
        parts = line.split()
        if parts[:1] == ["#fn"]:
            fn = parts[1]
        elif parts[:1] == ["hash"] and fn is not None and len(parts) >= 3:
            gpu[(fn, int(parts[1]))] = parts[2]
    compared, differing = {}, {}
    for path in argv[2:]:
        for line in read(path):
            parts = line.split()
            if len(parts) != 4 or parts[0] != "hash":
                continue
            name, r, h = parts[1], int(parts[2]), parts[3]
            if (name, r) not in gpu:
                print(f"{name}: range {r} has no record", file=sys.stderr)
                differing[name] = differing.get(name, 0) + 1
                continue
            compared[name] = compared.get(name, 0) + 1
            if gpu[(name, r)] != h:
                differing[name] = differing.get(name, 0) + 1
    bad = 0
    for name in sorted(set(compared) | set(differing)):
        d = differing.get(name, 0)
        bad += d != 0
        print(f"{name}: {compared.get(name, 0)} ranges compared, {d} differ")
    print(f"{len(set(compared) | set(differing))} functions, {bad} with a differing range")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
