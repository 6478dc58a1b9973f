#!/usr/bin/env python3
"""Writes the expected file of the texture filtering regression test (emulator/tests/textures/
texture_probe_test.cpp): a subset of h200.txt.gz, the probe's output recorded on an H200, taken
line by line from that file and never from the emulator.

Kept: the headers of the linear-filtering cases and every STEP-th of their reads, except the cases
whose arithmetic the emulator does not model yet (signed 8-bit texels; the 1D half texture with
the border colour {0.1, 0.3, 0.7, 0.9}; the 3D half texture): see emulator/COMPATIBILITY.md.

usage: make_subset.py [h200.txt.gz] > ../textures/expected/texture_probe_subset.txt
"""
import gzip
import sys

STEP = 16
path = sys.argv[1] if len(sys.argv) > 1 else "h200.txt.gz"
skip_cases = {"c45", "c116"}
kept = set()
count = {}
with gzip.open(path, "rt") as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith("#case "):
            cid = line.split()[1]
            if " filter=linear " in line and " fmt=s8 " not in line and cid not in skip_cases:
                kept.add(cid)
                print(line.split(" texels@", 1)[0])
        elif " -> " in line:
            cid = line.split()[0]
            if cid in kept:
                count[cid] = count.get(cid, 0) + 1
                if count[cid] % STEP == 1:
                    print(line)
