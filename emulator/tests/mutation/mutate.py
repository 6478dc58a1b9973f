#!/usr/bin/env python3
"""Mutation testing of the checking modes on code nobody here wrote.

  emulator/tests/mutation/mutate.py [--samples CUDA_SAMPLES_DIR] [--cuemu PATH] [--jobs N]
                                    [--kind barrier|bounds|all] [--only NAME] [--keep DIR]

barrier mutants: one __syncthreads(), __syncwarp(...), cg::sync(...) or group .sync() deleted at a
time from a correct program. Each mutant runs on the emulator under --schedule=forward, reverse and
random:1, and under --check=racecheck (and synccheck). A mutant *changes its output* when its
filtered output or exit status under some schedule differs from the original's; every such mutant
must be reported. The kill rate is reported mutants / mutants that change their output.

bounds mutants: a loop bound widened by one (`<` to `<=` in a for condition) or an index shifted
by one (`[i]` to `[i + 1]`), one at a time; run under --check=memcheck. A mutant that changes its
output or is reported by memcheck is listed; the kill rate is memcheck-reported mutants / mutants
that change their output.

The programs: the suite's own correct CUDA programs, and with --samples the cuda-samples that the
project runs (NVIDIA/cuda-samples at c94ff366; nothing of them is committed).
"""
import argparse
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
TESTS = os.path.join(ROOT, "emulator", "tests")

# name, directory (None: the suite's tests folder), sources to mutate, cuemu arguments,
# list of program-argument lists (one run each)
def targets(samples):
    t = [
        ("correct_reduction", os.path.join(TESTS, "zoo"), ["correct_reduction.cu"], ["correct_reduction.cu"], [[]]),
        ("cpp20_kernels", os.path.join(TESTS, "zoo"), ["cpp20_kernels.cu"], ["-std=c++20", "cpp20_kernels.cu"], [[]]),
        ("cas_loop", os.path.join(TESTS, "zoo"), ["cas_loop.cu"], ["cas_loop.cu"], [[]]),
        ("barrier_test", os.path.join(TESTS, "exec"), ["barrier_test.cu"],
         ["barrier_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
        ("warp_shuffle_test", os.path.join(TESTS, "exec"), ["warp_shuffle_test.cu"],
         ["warp_shuffle_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
        ("shared_memory_test", os.path.join(TESTS, "exec"), ["shared_memory_test.cu"],
         ["shared_memory_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
        ("cg_groups_test", os.path.join(TESTS, "cg"), ["cg_groups_test.cu"],
         ["cg_groups_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
        ("cg_tiles_test", os.path.join(TESTS, "cg"), ["cg_tiles_test.cu"],
         ["cg_tiles_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
        ("cg_reduce_scan_test", os.path.join(TESTS, "cg"), ["cg_reduce_scan_test.cu"],
         ["cg_reduce_scan_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
        ("patterns_test", os.path.join(TESTS, "samples"), ["patterns_test.cu"],
         ["patterns_test.cu", "-lgtest", "-lgtest_main", "-I", os.path.join(TESTS, "common")], [[]]),
    ]
    if samples:
        S = os.path.join(samples, "Samples")
        common = ["-I", os.path.join(samples, "Common")]
        arch = []  # cuemu gives device code __CUDA_ARCH__, as nvcc does
        red = os.path.join(S, "2_Concepts_and_Techniques", "reduction")
        t += [
            ("reduction", red, ["reduction_kernel.cu"], common + arch + ["reduction.cpp", "reduction_kernel.cu"],
             [["--kernel=%d" % k, "--n=65536", "--threads=256"] for k in range(0, 10) if k != 8]),
            ("transpose", os.path.join(S, "6_Performance", "transpose"), ["transpose.cu"],
             common + ["transpose.cu"], [["-dimX=64", "-dimY=64"]]),
            ("matrixMul", os.path.join(S, "0_Introduction", "matrixMul"), ["matrixMul.cu"],
             common + ["matrixMul.cu"], [["-wA=64", "-hA=64", "-wB=64", "-hB=64"]]),
            ("shfl_scan", os.path.join(S, "2_Concepts_and_Techniques", "shfl_scan"), ["shfl_scan.cu"],
             common + ["shfl_scan.cu"], [[]]),
            ("histogram", os.path.join(S, "2_Concepts_and_Techniques", "histogram"),
             ["histogram64.cu", "histogram256.cu"],
             common + ["main.cpp", "histogram64.cu", "histogram256.cu", "histogram_gold.cpp"], [[]]),
            ("threadFenceReduction", os.path.join(S, "2_Concepts_and_Techniques", "threadFenceReduction"),
             ["threadFenceReduction_kernel.cuh"], common + ["threadFenceReduction.cu"], [["--n=65536"]]),
            ("simpleCooperativeGroups", os.path.join(S, "0_Introduction", "simpleCooperativeGroups"),
             ["simpleCooperativeGroups.cu"], common + ["simpleCooperativeGroups.cu"], [[]]),
            ("scalarProd", os.path.join(S, "2_Concepts_and_Techniques", "scalarProd"),
             ["scalarProd_kernel.cuh"], common + ["scalarProd.cu", "scalarProd_cpu.cpp"], [[]]),
            ("sortingNetworks", os.path.join(S, "2_Concepts_and_Techniques", "sortingNetworks"),
             ["bitonicSort.cu", "oddEvenMergeSort.cu"],
             common + ["main.cpp", "bitonicSort.cu", "oddEvenMergeSort.cu", "sortingNetworks_validate.cpp"], [[]]),
        ]
    return t

BARRIER = re.compile(r"(__syncthreads\s*\(\s*\)|__syncwarp\s*\([^;()]*(\([^;()]*\))?[^;()]*\)|"
                     r"\bcg::sync\s*\([^;()]*\)|\b[A-Za-z_][\w.]*\s*\.\s*sync\s*\(\s*\))\s*;")
LOOP_LT = re.compile(r"(for\s*\([^;]*;[^;<]*?)<(?!<|=)([^;]*;)")
INDEX = re.compile(r"\[\s*([A-Za-z_]\w*)\s*\]")

def strip_comments_mask(text):
    """Positions inside comments or string literals (not to be mutated)."""
    mask = bytearray(len(text))
    for m in re.finditer(r"//[^\n]*|/\*.*?\*/|\"(\\.|[^\"\\\n])*\"", text, re.S):
        for i in range(m.start(), m.end()):
            mask[i] = 1
    return mask

def mutants(text, kind):
    mask = strip_comments_mask(text)
    out = []
    if kind == "barrier":
        for m in BARRIER.finditer(text):
            if mask[m.start()]:
                continue
            line = text.count("\n", 0, m.start()) + 1
            out.append((line, m.group(0).strip(), text[:m.start()] + ";" + text[m.end():]))
    else:
        for m in LOOP_LT.finditer(text):
            if mask[m.start()]:
                continue
            line = text.count("\n", 0, m.start()) + 1
            mutated = text[:m.start()] + m.group(1) + "<=" + m.group(2) + text[m.end():]
            out.append((line, "loop bound < to <=", mutated))
        for m in INDEX.finditer(text):
            if mask[m.start()] or not re.match(r"^(i|j|k|t|tid|idx|index|n|x|y|gid|lane|threadIdx)$", m.group(1)):
                continue
            line = text.count("\n", 0, m.start()) + 1
            mutated = text[:m.start()] + "[" + m.group(1) + " + 1]" + text[m.end():]
            out.append((line, "index [%s] to [%s + 1]" % (m.group(1), m.group(1)), mutated))
    return out

NOISE = re.compile(r"^\\[.*\\] - Starting|^Starting|time|Time|msec|\bms\b|GB/s|Throughput|sec\b|Elapsed|bandwidth|Bandwidth|GFlop|"
                   r"cuemu: (running the|checking summary)|^\[.*OK.*\]|tests? ran|PASSED  \]|Processing time")

def filtered(out):
    return [re.sub(r"\S*/cuemu-[\w-]+/\S*", "<program>", l) for l in out.splitlines() if not NOISE.search(l)]

def run(cuemu, cwd, args, runs, extra, timeout=600):
    """Builds once (`cuemu cc`) and runs each argument list; returns (statuses, outputs).
    `extra`: --schedule=S (given to the program as CUEMU_SCHEDULE) or --check=MODES."""
    env = dict(os.environ)
    build_opts = []
    for e in extra:
        if e.startswith("--schedule="):
            env["CUEMU_SCHEDULE"] = e.split("=", 1)[1]
        else:
            build_opts.append(e)
    # One build per mode in this (fresh) directory, reused by the runs under each schedule.
    exe = os.path.join(cwd, "program.%s.out" % re.sub(r"\W", "_", "_".join(build_opts) or "plain"))
    if not os.path.exists(exe):
        b = subprocess.run([cuemu, "cc"] + build_opts + args + ["-o", exe], cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        if b.returncode != 0:
            return [b.returncode] * len(runs), [b.stdout] * len(runs)
    outs, statuses = [], []
    for prog_args in runs:
        try:
            p = subprocess.run([exe] + prog_args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               timeout=timeout, text=True, errors="replace", env=env)
            outs.append(p.stdout)
            statuses.append(p.returncode)
        except subprocess.TimeoutExpired:
            outs.append("<timeout>")
            statuses.append(-1)
    return statuses, outs

REPORT = re.compile(r"^cuemu: ([a-z -]+) in kernel|^==\d+==ERROR: (AddressSanitizer): |"
                    r"^cuemu: ([a-z (),-]+) in host code", re.M)

def evaluate(cuemu, name, workdir, src, args, runs, line, what, mutated_text, kind, keep):
    tmp = tempfile.mkdtemp(prefix="cuemu-mutant-")
    try:
        wd = os.path.join(tmp, "w")
        shutil.copytree(workdir, wd, symlinks=True)
        with open(os.path.join(wd, src), "w") as f:
            f.write(mutated_text)
        changed = False
        reordered = False  # only the order of output lines differs (printf order)
        detail = ""
        for sched in ["forward", "reverse", "random:1"]:
            st, outs = run(cuemu, wd, args, runs, ["--schedule=" + sched])
            sig = (st, [filtered(o) for o in outs])
            if sig != BASELINE[name]:
                base = BASELINE[name]
                if st == base[0] and [sorted(x) for x in sig[1]] == [sorted(x) for x in base[1]]:
                    reordered = True
                    detail = "lines reordered under " + sched
                    continue
                changed = True
                detail = "under " + sched
                break
        if changed:
            reordered = False
        mode = "racecheck" if kind == "barrier" else "memcheck"
        st, outs = run(cuemu, wd, args, runs, ["--check=" + mode])
        if kind == "barrier":  # synccheck rides along (divergent barriers): a second build
            st2, outs2 = run(cuemu, wd, args, runs, ["--check=synccheck"])
            outs = outs + outs2
        reports = sorted(set(next(g for g in m.groups() if g) for o in outs for m in REPORT.finditer(o)))
        reported = bool(reports)
        if keep and changed and not reported:
            d = os.path.join(keep, "%s_%s_%d" % (name, os.path.basename(src), line))
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(wd, d)
        return (name, src, line, what, changed, reported, ",".join(reports), detail, reordered)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

BASELINE = {}

def emit_for_gpu(ts, out, log, samples):
    """Source trees of the mutants that changed their output, and run_all.sh: nvcc -lineinfo,
    then compute-sanitizer --tool memcheck (bounds) or racecheck (barrier) with the same program
    arguments; one line per mutant: NAME SRC:LINE ERRORS."""
    wanted = []
    for l in open(log):
        m = re.match(r"^(barrier|bounds)\s+(\S+)\s+(\S+):(\d+)\s+(.*?)\s{2,}(killed|SURVIVED)", l)
        if m:
            wanted.append((m.group(1), m.group(2), m.group(3), int(m.group(4)), m.group(5)))
    os.makedirs(out, exist_ok=True)
    if samples:
        shutil.copytree(os.path.join(samples, "Common"), os.path.join(out, "Common"), dirs_exist_ok=True)
    lines = ["#!/usr/bin/env bash", "# generated by mutate.py --emit-for-gpu", "cd \"$(dirname \"$0\")\"",
             "# dir tool nvcc-args...; the program's argument lists are the lines of DIR/runs.txt",
             "run() {",
             "  local d=$1 tool=$2; shift 2",
             "  (cd \"$d\" && nvcc -lineinfo -w -I ../Common \"$@\" -o prog >build.log 2>&1 || { echo \"$d build failed\"; exit; }",
             "   errors=0; while IFS= read -r args; do",
             "     compute-sanitizer --tool \"$tool\" --print-limit 1 ./prog $args >>run.log 2>&1",
             "     n=$(grep -E 'ERROR SUMMARY: [0-9]+' run.log | tail -1 | grep -oE '[0-9]+' | head -1)",
             "     errors=$((errors + ${n:-0}))",
             "   done < runs.txt; echo \"$d errors=$errors\")",
             "}"]
    byname = {t[0]: t for t in ts}
    for n, (kind, name, src, line, what) in enumerate(wanted):
        if name not in byname:
            continue
        _, wd, srcs, args, runs = byname[name]
        text = open(os.path.join(wd, src)).read()
        match = [mt for (ln, w, mt) in mutants(text, kind) if ln == line and w.strip()[:28] == what.strip()[:28]]
        if not match:
            continue
        d = "m%03d_%s_%s_%d" % (n, name, re.sub(r"\W", "_", src), line)
        shutil.copytree(wd, os.path.join(out, d), dirs_exist_ok=True)
        with open(os.path.join(out, d, src), "w") as f:
            f.write(match[0])
        nv = [x for x in args if not x.startswith("-D__CUDA_ARCH__") and x != os.path.join(samples or "", "Common")
              and x != "-I"]
        with open(os.path.join(out, d, "runs.txt"), "w") as f:
            f.write("".join(" ".join(r) + "\n" for r in runs))
        tool = "memcheck" if kind == "bounds" else "racecheck"
        lines.append("run %s %s %s &" % (d, tool, " ".join(nv)))
        lines.append("[ $(jobs -r | wc -l) -ge $(nproc) ] && wait -n")
    lines.append("wait")
    with open(os.path.join(out, "run_all.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(os.path.join(out, "run_all.sh"), 0o755)
    print("wrote %d mutants to %s" % (len([l for l in lines if l.startswith("run ")]), out))
    return 0

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples")
    ap.add_argument("--cuemu", default=os.environ.get("CUEMU", os.path.join(ROOT, "build", "bin", "cuemu")))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--kind", default="barrier", choices=["barrier", "bounds", "all"])
    ap.add_argument("--only", action="append")
    ap.add_argument("--keep", help="keep surviving mutants here")
    ap.add_argument("--skip", action="append", default=[], help="leave out a program")
    ap.add_argument("--emit-for-gpu", metavar="DIR",
                    help="write the mutants that change their output (from --from-log) as source trees "
                         "with a script that builds each with nvcc and runs it under compute-sanitizer "
                         "(the GPU's verdict), instead of running anything")
    ap.add_argument("--from-log", help="a log of an earlier run of this script")
    a = ap.parse_args()
    cuemu = os.path.abspath(a.cuemu)
    ts = [t for t in targets(a.samples) if (not a.only or t[0] in a.only) and t[0] not in a.skip]
    if a.emit_for_gpu:
        return emit_for_gpu(ts, a.emit_for_gpu, a.from_log, a.samples)
    kinds = ["barrier", "bounds"] if a.kind == "all" else [a.kind]
    # Baselines: the original program under the three schedules must agree with itself.
    usable = []
    for name, wd, srcs, args, runs in ts:
        sigs = []
        tmp = tempfile.mkdtemp(prefix="cuemu-original-")
        try:
            copy = os.path.join(tmp, "w")
            shutil.copytree(wd, copy, symlinks=True)
            for sched in ["forward", "reverse", "random:1"]:
                st, outs = run(cuemu, copy, args, runs, ["--schedule=" + sched])
                sigs.append((st, [filtered(o) for o in outs]))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if any(s != sigs[0] for s in sigs) or any(s != 0 for s in sigs[0][0]):
            print("skip %-22s (the original fails or depends on the schedule: exit %s)" % (name, sigs[0][0]))
            continue
        BASELINE[name] = sigs[0]
        usable.append((name, wd, srcs, args, runs))
    jobs = []
    for kind in kinds:
        for name, wd, srcs, args, runs in usable:
            for src in srcs:
                with open(os.path.join(wd, src)) as f:
                    text = f.read()
                for line, what, mutated in mutants(text, kind):
                    jobs.append((kind, (cuemu, name, wd, src, args, runs, line, what, mutated, kind, a.keep)))
    results = {k: [] for k in kinds}
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(evaluate, *j[1]): j[0] for j in jobs}
        for fut in cf.as_completed(futs):
            r = fut.result()
            results[futs[fut]].append(r)
            name, src, line, what, changed, reported, reports, detail, reordered = r
            verdict = (("killed" if reported else "SURVIVED") if changed else
                       "reorders lines" if reordered else ("reported" if reported else "same output"))
            print("%-9s %-22s %-32s %-28s %-12s %s" % (futs[fut], name, "%s:%d" % (src, line), what[:28], verdict, reports), flush=True)
    status = 0
    for kind in kinds:
        rs = results[kind]
        changed = [r for r in rs if r[4]]
        killed = [r for r in changed if r[5]]
        extra = [r for r in rs if not r[4] and r[5]]
        reorder = [r for r in rs if r[8]]
        mode = "racecheck" if kind == "barrier" else "memcheck"
        print("\n%s mutants: %d in %d programs; %d change their output, %s reports %d of them (kill rate %s); "
              "%d more reported with unchanged output; %d only reorder printf lines (%d of those reported)" %
              (kind, len(rs), len(usable), len(changed), mode, len(killed),
               "%.0f%%" % (100.0 * len(killed) / len(changed)) if changed else "n/a", len(extra),
               len(reorder), len([r for r in reorder if r[5]])))
        for r in sorted(changed, key=lambda r: (r[0], r[1], r[2])):
            if not r[5]:
                print("  survived: %s %s:%d %s (%s)" % (r[0], r[1], r[2], r[3], r[7]))
                status = 1
    return status

if __name__ == "__main__":
    sys.exit(main())
