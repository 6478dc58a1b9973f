#!/usr/bin/env python3
"""One run, one core, every CPU implementation of the same kernels, side by side (issue 16).

Runs, each pinned to the same core and one after another: cuemu_bench with the kernels' barrier
regions as loops (CUEMU_EXEC=loops) and with a coroutine per thread (CUEMU_EXEC=fibers), ROCm's
HIP-CPU (run_hipcpu.sh's program; TBB sees the one core) and PoCL (run_pocl.sh's program,
POCL_MAX_PTHREAD_COUNT=1); prints their wall-clock medians and the ratios the issue asks for.

  emulator/bench/side_by_side.py --cuemu-bench build/bin/cuemu_bench \
      --hip-cpu /tmp/hip-cpu [--core 1] [--reps 9]
(--rounds K: the implementations run K times, alternating; medians over the rounds.
--no-fibers: no coroutine column. --hip-cpu: a HIP-CPU checkout; left out, its column is empty. --hip-bench EXE: a hip_bench
already built from it, for a machine without TBB's headers. --no-pocl: no PoCL column, for a
machine where Debian's pocl-opencl-icd cannot be installed.)
"""
import argparse
import os
import statistics
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
    t = table(r.stdout)
    if r.returncode != 0 and not t:  # (HIP-CPU exits 1 for its wrong shuffle results)
        sys.stderr.write(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}\n")
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cuemu-bench", required=True)
    ap.add_argument("--hip-cpu", default="")
    ap.add_argument("--hip-bench", default="")
    ap.add_argument("--no-pocl", action="store_true")
    ap.add_argument("--core", type=int, default=1)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--build-dir", default="/tmp/side-by-side")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--no-fibers", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.build_dir, exist_ok=True)
    reps = {"CUEMU_BENCH_REPS": str(a.reps)}
    one = dict(reps, CUEMU_BENCH_WORKERS="1")
    # Each implementation as (name, command, environment), built first.
    progs = [("cuemu loops", [a.cuemu_bench], dict(one, CUEMU_EXEC="loops"))]
    if not a.no_fibers:
        progs.append(("cuemu fibers", [a.cuemu_bench], dict(one, CUEMU_EXEC="fibers")))
    if a.hip_bench:
        progs.append(("HIP-CPU", [a.hip_bench], reps))
    elif a.hip_cpu:
        exe = os.path.join(a.build_dir, "hip_bench")
        subprocess.run(["g++", "-std=c++17", "-O2", "-g", "-DNDEBUG", "-I" + a.hip_cpu + "/include",
                        os.path.join(HERE, "hipcpu", "hip_bench.cpp"), "-o", exe, "-ltbb",
                        "-lboost_context", "-lpthread"], check=True)
        # Pinned to one core, TBB sees one CPU in its affinity mask: one worker.
        progs.append(("HIP-CPU", [exe], reps))
    if not a.no_pocl:
        exe = os.path.join(a.build_dir, "pocl_bench")
        subprocess.run(["g++", "-std=c++17", "-O2", "-g", "-DNDEBUG",
                        os.path.join(HERE, "pocl", "pocl_bench.cpp"), "-o", exe, "-lOpenCL"], check=True)
        progs.append(("PoCL", [exe], dict(reps, POCL_MAX_PTHREAD_COUNT="1")))
    # Rounds alternate the implementations, so that a noisy stretch of a shared machine falls on
    # all of them; each cell is the median over the rounds (of each run's own median), and each
    # ratio the median of the rounds' ratios.
    rounds = [{name: run(cmd, env, a.core) for name, cmd, env in progs} for _ in range(a.rounds)]
    cols = {}
    for name, _, _ in progs:
        cols[name] = {}
        for row in ROWS:
            got = [r[name][row] for r in rounds if row in r[name]]
            if got:
                ms = statistics.median(g[0] for g in got)
                serial = statistics.median(g[1] for g in got)
                check = "ok" if all(g[2] == "ok" for g in got) else got[0][2]
                cols[name][row] = (ms, serial, check, got)
    names = list(cols)
    print(f"one core (taskset -c {a.core}), wall ms, medians of {a.reps} per run, "
          f"median over {a.rounds} alternating round(s); "
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
                over = statistics.median(g[0] / g[1] for g in v[3])
                cells.append(f"{over:.2f}x" + ("" if v[2] == "ok" else " " + v[2]))
            else:
                cells.append(f"{v[0]:.1f}" + ("" if v[2] == "ok" else " (wrong results)"))
        print(f"| {row} | " + " | ".join(cells) + " |")

    def ratio(row, a_name, b_name):
        """Median over the rounds of a_name's time over b_name's."""
        per = [r[a_name][row][0] / r[b_name][row][0] for r in rounds
               if row in r.get(a_name, {}) and row in r.get(b_name, {})]
        return statistics.median(per) if per else None, per

    for other in ("PoCL", "HIP-CPU"):
        if other in cols:
            v, per = ratio(ROWS[0], "cuemu loops", other)
            if v is not None:
                print(f"tree_reduce: cuemu loops / {other} = {v:.3f} (rounds: " +
                      ", ".join(f"{x:.3f}" for x in per) + ")")
    if "HIP-CPU" in cols:
        v, per = ratio(ROWS[1], "HIP-CPU", "cuemu loops")
        if v is not None:
            print(f"warp_shfl_sum: HIP-CPU / cuemu loops = {v:.2f} (rounds: " +
                  ", ".join(f"{x:.2f}" for x in per) + ")")


if __name__ == "__main__":
    main()
