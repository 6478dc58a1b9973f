#!/usr/bin/env python3
"""One run, one core, every CPU implementation of the same kernels, side by side (issue 16).

Runs, each pinned to the same core and one after another: cuemu_bench with the kernels' barrier
regions as loops (CUEMU_EXEC=loops) and with a coroutine per thread (CUEMU_EXEC=fibers), ROCm's
HIP-CPU (run_hipcpu.sh's program; TBB sees the one core) and PoCL (run_pocl.sh's program,
POCL_MAX_PTHREAD_COUNT=1); prints their wall-clock medians and the ratios the issue asks for.

  emulator/bench/side_by_side.py --cuemu-bench build/bin/cuemu_bench \
      --hip-cpu /tmp/hip-cpu [--core 1] [--reps 9]
(--hip-cpu: a HIP-CPU checkout; left out, its column is empty. --hip-bench EXE: a hip_bench
already built from it, for a machine without TBB's headers. --no-pocl: no PoCL column, for a
machine where Debian's pocl-opencl-icd cannot be installed.)
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = ["tree_reduce 1M f32 x256", "warp_shfl_sum 1M i32", "row_copy 16Kx2KiB"]


def table(text):
    """The first table of a bench's output: name -> (ms, serial_ms, check)."""
    out = {}
    for line in text.splitlines():
        name = line[:26].strip()
        if name in ROWS and name not in out:
            f = line[26:].split()
            out[name] = (float(f[0]), float(f[2]), f[-1])
    return out


def run(cmd, env, core):
    e = dict(os.environ)
    e.update(env)
    r = subprocess.run(["taskset", "-c", str(core)] + cmd, env=e, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}\n")
    return table(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuemu-bench", required=True)
    ap.add_argument("--hip-cpu", default="")
    ap.add_argument("--hip-bench", default="")
    ap.add_argument("--no-pocl", action="store_true")
    ap.add_argument("--core", type=int, default=1)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--build-dir", default="/tmp/side-by-side")
    a = ap.parse_args()
    os.makedirs(a.build_dir, exist_ok=True)
    reps = {"CUEMU_BENCH_REPS": str(a.reps)}
    cols = {}
    one = dict(reps, CUEMU_BENCH_WORKERS="1")
    cols["cuemu loops"] = run([a.cuemu_bench], dict(one, CUEMU_EXEC="loops"), a.core)
    cols["cuemu fibers"] = run([a.cuemu_bench], dict(one, CUEMU_EXEC="fibers"), a.core)
    if a.hip_bench:
        cols["HIP-CPU"] = run([a.hip_bench], reps, a.core)
    elif a.hip_cpu:
        exe = os.path.join(a.build_dir, "hip_bench")
        subprocess.run(["g++", "-std=c++17", "-O2", "-g", "-DNDEBUG", "-I" + a.hip_cpu + "/include",
                        os.path.join(HERE, "hipcpu", "hip_bench.cpp"), "-o", exe, "-ltbb",
                        "-lboost_context", "-lpthread"], check=True)
        # Pinned to one core, TBB sees one CPU in its affinity mask: one worker.
        cols["HIP-CPU"] = run([exe], reps, a.core)
    if not a.no_pocl:
        exe = os.path.join(a.build_dir, "pocl_bench")
        subprocess.run(["g++", "-std=c++17", "-O2", "-g", "-DNDEBUG",
                        os.path.join(HERE, "pocl", "pocl_bench.cpp"), "-o", exe, "-lOpenCL"], check=True)
        cols["PoCL"] = run([exe], dict(reps, POCL_MAX_PTHREAD_COUNT="1"), a.core)

    names = list(cols)
    print(f"one core (taskset -c {a.core}), wall ms, medians of {a.reps}; "
          "row_copy as a ratio to the serial loop of the same program")
    print("| workload | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for row in ROWS:
        cells = []
        for n in names:
            v = cols[n].get(row)
            if not v:
                cells.append("-")
            elif row.startswith("row_copy"):
                cells.append(f"{v[0] / v[1]:.2f}x" + ("" if v[2] == "ok" else " " + v[2]))
            else:
                cells.append(f"{v[0]:.1f}" + ("" if v[2] == "ok" else " (wrong results)"))
        print(f"| {row} | " + " | ".join(cells) + " |")
    loops = cols["cuemu loops"].get(ROWS[0])
    for other in ("PoCL", "HIP-CPU"):
        o = cols.get(other, {}).get(ROWS[0])
        if loops and o:
            print(f"tree_reduce: cuemu loops / {other} = {loops[0] / o[0]:.2f}")
    sh_l, sh_h = cols["cuemu loops"].get(ROWS[1]), cols.get("HIP-CPU", {}).get(ROWS[1])
    if sh_l and sh_h:
        print(f"warp_shfl_sum: HIP-CPU / cuemu loops = {sh_h[0] / sh_l[0]:.2f}")


if __name__ == "__main__":
    main()
