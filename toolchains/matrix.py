#!/usr/bin/env python3
"""The compile matrix: every toolchain x architecture x translation unit of kernels/ and
selfcheck/, compiled with warnings as errors; per kernel instantiation its registers, spills,
stack frame, shared and constant memory and SASS instruction count, checked against the
baseline of each toolchain (toolchains/baseline/<toolchain>.json).

Usage: python3 toolchains/matrix.py [--strict] [--update-baseline] [--only NAME[,NAME]]
                                    [--jobs N] [--reports DIR]
Exit status: 0 when nothing regressed; 1 on a regression or a compile failure (and, with
--strict, on a toolchain that cannot be had or that has no baseline); 2 on a usage error.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime as _dt
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, List, Optional
from xml.sax.saxutils import escape, quoteattr

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import provision  # noqa: E402
import regress  # noqa: E402
import resources  # noqa: E402

DEFAULT_FLAGS = ["-std=c++17", "-O3", "-Werror", "all-warnings",
                 "-Xcompiler", "-Wall,-Wextra,-Werror", "-Xptxas", "-v"]
COMPILE_TIMEOUT_S = 900

# A diagnostic that is an error only because warnings are errors: EDG's discretionary
# diagnostics (#NNN-D), gcc's [-Werror=...], ptxas/nvlink warnings promoted by -Werror.
_PROMOTED = re.compile(r"error #\d+-D\b|\[-Werror[=\]]|warnings? (being )?treated as errors?|"
                       r"(ptxas|nvlink)\s+(error|warning)\s*:.*warning", re.I)
_HARD = re.compile(r"\berror\b|\bfatal\b", re.I)
_BENIGN = re.compile(r"errors? detected in the compilation|all warnings being treated as errors|"
                     r"^\s*Remark", re.I)


def classify_failure(output: str) -> str:
    """'warning' when the compile failed only because of warnings made errors, else 'error'."""
    promoted = hard = False
    for line in output.splitlines():
        if _PROMOTED.search(line):
            promoted = True
        elif _HARD.search(line) and not _BENIGN.search(line):
            hard = True
    return "warning" if promoted and not hard else "error"


def first_diagnostic(output: str) -> str:
    for line in output.splitlines():
        if re.search(r"error|warning|fatal", line, re.I) and not _BENIGN.search(line):
            return line.strip()
    lines = [l for l in output.strip().splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def find_units(root: Path, dirs: List[str]) -> List[str]:
    units = []
    for d in dirs:
        base = root / d
        if base.is_dir():
            units += [p.relative_to(root).as_posix() for p in base.rglob("*.cu") if p.is_file()]
    return sorted(set(units))


def arch_key(a: str) -> int:
    return int(re.sub(r"\D", "", a) or 0)


def version_tuple(v: str) -> tuple:
    return tuple(int(x) for x in re.findall(r"\d+", v or "0"))


def pick_sass_tool(tc: provision.Toolchain, all_tcs: List[provision.Toolchain]) -> Optional[str]:
    """The toolchain's own cuobjdump, else the one of the newest toolchain not older than it
    (an older cuobjdump may not read a newer compiler's cubins)."""
    if tc.cuobjdump:
        return tc.cuobjdump
    cands = [t for t in all_tcs if t.cuobjdump
             and version_tuple(t.nvcc_version) >= version_tuple(tc.nvcc_version)]
    cands.sort(key=lambda t: version_tuple(t.nvcc_version), reverse=True)
    return cands[0].cuobjdump if cands else None


def compile_env() -> dict:
    env = dict(os.environ)
    for v in ("NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "NVCC_CCBIN"):
        env.pop(v, None)
    env["LC_ALL"] = "C"
    return env


class Job:
    def __init__(self, tc, arch, unit, obj, sass_tool, host=True, cache_file=None):
        self.tc, self.arch, self.unit, self.obj, self.sass_tool = tc, arch, unit, obj, sass_tool
        self.host = host  # -c (host and device code) for one arch, -cubin for the others
        self.cache_file = cache_file
        self.cached = False
        self.status = "pending"
        self.message = ""
        self.output = ""
        self.kernels: List[dict] = []
        self.seconds = 0.0
        self.cmd: List[str] = []


CACHE_SCHEMA = 1


def parse_depfile(text: str) -> List[str]:
    """Dependencies of an `nvcc -MD -MF` file (make syntax: `target : dep dep \\`)."""
    body = text.replace("\\\n", " ")
    m = re.search(r":\s", body)
    if not m:
        return []
    deps = re.split(r"(?<!\\)\s+", body[m.end():].strip())
    return [d.replace("\\ ", " ") for d in deps if d]


def file_signature(path: Path, root: Path) -> str:
    """Content hash for the repository's files, size and mtime for the toolchains' headers."""
    try:
        st = path.stat()
    except OSError:
        return "missing"
    try:
        path.resolve().relative_to(root)
        inside = True
    except ValueError:
        inside = False
    if inside:
        import hashlib
        return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    return f"stat:{st.st_size}:{st.st_mtime_ns}"


def cache_key(job: Job) -> str:
    return json.dumps({"schema": CACHE_SCHEMA, "cmd": job.cmd,
                       "nvcc": os.path.realpath(job.tc.nvcc), "version": job.tc.nvcc_version,
                       "sass_tool": job.sass_tool}, sort_keys=True)


def load_cached(job: Job, root: Path) -> bool:
    """Reuse a previous result when the command, the toolchain and every file the unit
    includes (as nvcc -MD listed them) are unchanged."""
    if not job.cache_file or not job.cache_file.is_file():
        return False
    try:
        data = json.loads(job.cache_file.read_text())
    except (OSError, ValueError):
        return False
    if data.get("key") != cache_key(job):
        return False
    for dep, sig in data.get("deps", {}).items():
        if file_signature(Path(dep), root) != sig:
            return False
    job.status, job.message = data["status"], data.get("message", "")
    job.kernels, job.output = data.get("kernels", []), data.get("output", "")
    job.cached = True
    return True


def store_cached(job: Job, root: Path, depfile: Path) -> None:
    if not job.cache_file or not depfile.is_file():
        return
    deps = {}
    for d in parse_depfile(depfile.read_text()):
        p = Path(d) if os.path.isabs(d) else root / d
        deps[str(p.resolve())] = file_signature(p, root)
    if not deps:
        return
    job.cache_file.parent.mkdir(parents=True, exist_ok=True)
    tmp = job.cache_file.with_suffix(".tmp")
    tmp.write_text(json.dumps({"key": cache_key(job), "deps": deps, "status": job.status,
                               "message": job.message, "kernels": job.kernels,
                               "output": job.output}))
    os.replace(tmp, job.cache_file)


def run_job(job: Job, root: Path, flags: List[str], include_dirs: List[str]) -> Job:
    t0 = time.monotonic()
    job.obj.parent.mkdir(parents=True, exist_ok=True)
    num = job.arch.split("_", 1)[1]
    cmd = [job.tc.nvcc] + flags + [f"-gencode=arch=compute_{num},code={job.arch}"]
    for inc in include_dirs:
        cmd += ["-I", str(root / inc)]
    cmd += ["-c" if job.host else "-cubin", str(root / job.unit), "-o", str(job.obj)]
    job.cmd = cmd
    if load_cached(job, root):
        job.seconds = time.monotonic() - t0
        return job
    depfile = job.obj.with_suffix(job.obj.suffix + ".d")
    cmd = cmd + ["-MD", "-MF", str(depfile)]
    env = compile_env()
    try:
        r = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=env,
                           timeout=COMPILE_TIMEOUT_S)
        out = (r.stdout or "") + (r.stderr or "")
        rc = r.returncode
    except subprocess.TimeoutExpired:
        out, rc = f"timed out after {COMPILE_TIMEOUT_S}s", -1
    except OSError as e:
        out, rc = f"cannot run {job.tc.nvcc}: {e}", -1
    job.output = out
    if rc != 0:
        job.status = classify_failure(out)
        job.message = first_diagnostic(out) or f"nvcc exit status {rc}"
        job.seconds = time.monotonic() - t0
        return job
    res_txt = sass_txt = None
    if job.sass_tool:
        r1 = subprocess.run([job.sass_tool, "-res-usage", str(job.obj)], capture_output=True,
                            text=True, env=env)
        res_txt = r1.stdout if r1.returncode == 0 else None
        r2 = subprocess.run([job.sass_tool, "-sass", str(job.obj)], capture_output=True,
                            text=True, env=env)
        sass_txt = r2.stdout if r2.returncode == 0 else None
    job.kernels = resources.kernel_records(out, res_txt, sass_txt, job.arch)
    job.status = "ok"
    try:
        store_cached(job, root, depfile)
    except OSError:
        pass
    job.seconds = time.monotonic() - t0
    return job


# ---------------------------------------------------------------------------------------------
# reports

def cell(fig: Optional[dict], failed: bool) -> str:
    if fig is None:
        return "-"
    sass = fig.get("sass_instructions")
    s = (f"{fig.get('registers')} {fig.get('spill_stores')}/{fig.get('spill_loads')} "
         f"{fig.get('stack')} {sass if sass is not None else '?'}")
    return s + (" !" if failed else "")


def terminal_table(tcs, columns, records, failing) -> str:
    """One block per toolchain: rows kernel (grouped by file), columns architecture."""
    out = ["", "cell: registers spill-stores/spill-loads(bytes) stack(bytes) SASS-instructions;"
               " '!' = regression, '-' = not built"]
    for tc in tcs:
        cols = [c for c in columns if c[0] == tc.name]
        if not cols:
            continue
        rows = sorted({(r["file"], r["kernel"]) for r in records
                       if r["toolchain"] == tc.name and r["kernel"]})
        by = {(r["arch"], r["file"], r["kernel"]): r for r in records if r["toolchain"] == tc.name}
        kw = max([len(k) + 4 for _, k in rows] + [34])
        cw = max(16, max((len(cell(by.get((a, f, k)), True)) for _, a in cols
                          for f, k in rows), default=16))
        out.append("")
        out.append(f"{tc.name} (nvcc {tc.nvcc_version})".ljust(kw + 2) +
                   "".join(a.rjust(cw + 2) for _, a in cols))
        cur = None
        for f, k in rows:
            if f != cur:
                out.append(f"  {f}")
                cur = f
            line = ("    " + k).ljust(kw + 2)
            for _, a in cols:
                line += cell(by.get((a, f, k)), (tc.name, a, f, k) in failing).rjust(cw + 2)
            out.append(line)
        bad = [r for r in records if r["toolchain"] == tc.name and not r["kernel"]]
        for r in bad:
            out.append(f"  {r['file']} [{r['arch']}]: {r['status'].upper()} {r.get('message', '')}")
    return "\n".join(out)


def markdown(summary, tcs, missing, columns, records, findings, failing) -> str:
    L = ["# Compile matrix", "",
         f"Result: **{summary['result']}** ({summary['failures']} failure(s), "
         f"{summary['notes']} note(s), {summary['compiles']} compiles in "
         f"{summary['seconds']:.0f} s)", "", "## Toolchains", "",
         "| toolchain | nvcc | architectures | SASS from | source |", "|---|---|---|---|---|"]
    for tc in tcs:
        L.append(f"| {tc.name} | {tc.nvcc_version} | {' '.join(a for n, a in columns if n == tc.name)}"
                 f" | {summary['sass_tools'].get(tc.name) or 'none'} | {tc.source} |")
    for name, reason in missing:
        L.append(f"| {name} | missing | | | {reason} |")
    fails = [f for f in findings if f.severity == "fail"]
    if fails:
        L += ["", "## Failures", ""] + [f"- {f.message}" for f in fails]
    L += ["", "## Kernels", "",
          "Cell: registers, spill stores/loads (bytes), stack frame (bytes), SASS instructions; "
          "**bold** = regression.", ""]
    L.append("| kernel | file | " + " | ".join(f"{n} {a}" for n, a in columns) + " |")
    L.append("|---|---|" + "---|" * len(columns))
    by = {(r["toolchain"], r["arch"], r["file"], r["kernel"]): r for r in records}
    for f, k in sorted({(r["file"], r["kernel"]) for r in records if r["kernel"]}):
        cells = []
        for n, a in columns:
            r = by.get((n, a, f, k))
            c = cell(r, False)
            cells.append(f"**{c}**" if (n, a, f, k) in failing else c)
        L.append(f"| `{k}` | {f} | " + " | ".join(cells) + " |")
    bad = [r for r in records if not r["kernel"]]
    if bad:
        L += ["", "## Files that do not compile", ""]
        L += [f"- {r['toolchain']} {r['arch']} {r['file']}: {r['status']}: "
              f"`{r.get('message', '')}`" for r in bad]
    notes = [f for f in findings if f.severity == "note"]
    if notes:
        L += ["", f"## Notes ({len(notes)})", ""] + [f"- {f.message}" for f in notes[:200]]
    return "\n".join(L) + "\n"


def junit(tcs, missing, strict, jobs, findings, seconds) -> str:
    by_case: Dict[tuple, list] = {}
    for f in findings:
        if f.severity == "fail":
            by_case.setdefault((f.toolchain, f.arch, f.file, f.kernel), []).append(f.message)
    suites = []
    total = fail_total = 0
    for tc in tcs:
        cases = []
        for j in [j for j in jobs if j.tc.name == tc.name]:
            msgs = by_case.pop((tc.name, j.arch, j.unit, None), [])
            if j.status != "ok" and not msgs:
                pass  # accepted by the baseline (still failing as recorded)
            cases.append((f"{tc.name}.{j.unit}", f"{j.arch} compile", msgs, j.seconds,
                          j.output if msgs else ""))
            for k in j.kernels:
                name = k["kernel"]
                msgs_k = by_case.pop((tc.name, j.arch, j.unit, name), [])
                cases.append((f"{tc.name}.{j.unit}", f"{j.arch} {name}", msgs_k, 0.0, ""))
        for (n, a, f, k), msgs in list(by_case.items()):
            if n == tc.name:
                cases.append((f"{tc.name}.{f or 'matrix'}", f"{a} {k or f}", msgs, 0.0, ""))
                del by_case[(n, a, f, k)]
        nf = sum(1 for c in cases if c[2])
        total += len(cases)
        fail_total += nf
        body = []
        for cls, name, msgs, secs, out in cases:
            s = f'    <testcase classname={quoteattr(cls)} name={quoteattr(name)} time="{secs:.3f}">'
            if msgs:
                s += (f"\n      <failure message={quoteattr(msgs[0])}>{escape(chr(10).join(msgs))}"
                      f"\n{escape(out[-4000:])}</failure>\n    ")
            body.append(s + "</testcase>")
        suites.append(f'  <testsuite name={quoteattr("matrix." + tc.name)} tests="{len(cases)}" '
                      f'failures="{nf}" errors="0" skipped="0">\n' + "\n".join(body) +
                      "\n  </testsuite>")
    for name, reason in missing:
        total += 1
        tag = (f"<failure message={quoteattr(reason)}/>" if strict
               else f"<skipped message={quoteattr(reason)}/>")
        fail_total += 1 if strict else 0
        suites.append(f'  <testsuite name={quoteattr("matrix." + name)} tests="1" '
                      f'failures="{1 if strict else 0}" errors="0" skipped="{0 if strict else 1}">\n'
                      f'    <testcase classname={quoteattr("matrix." + name)} name="provision">'
                      f'{tag}</testcase>\n  </testsuite>')
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuites name="compile-matrix" tests="{total}" failures="{fail_total}" '
            f'time="{seconds:.1f}">\n' + "\n".join(suites) + "\n</testsuites>\n")


# ---------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Compile matrix: toolchains x archs x kernels.")
    ap.add_argument("--strict", action="store_true",
                    help="a toolchain that cannot be had, or has no baseline, is a failure (CI)")
    ap.add_argument("--update-baseline", action="store_true",
                    help="rewrite toolchains/baseline/<toolchain>.json from this run")
    ap.add_argument("--only", help="comma-separated toolchain names (e.g. path, nvcc-12.4)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--reports", default="build/reports", help="where matrix.{json,md,junit.xml} go")
    ap.add_argument("--work", default="build/matrix", help="where the objects go")
    ap.add_argument("--result-cache", default="build/matrix-cache",
                    help="results reused while a unit, everything it includes, the command and "
                         "the toolchain are unchanged")
    ap.add_argument("--no-result-cache", action="store_true", help="compile everything")
    ap.add_argument("--root", default=str(HERE.parent), help="repository root")
    ap.add_argument("--manifest", default=str(HERE / "manifest.json"))
    ap.add_argument("--baseline-dir", default=str(HERE / "baseline"))
    ap.add_argument("--skip-code", type=int, default=None,
                    help="exit with this status when no requested toolchain is available "
                         "(ctest SKIP_RETURN_CODE)")
    args = ap.parse_args(argv)

    t_start = time.monotonic()
    root = Path(args.root).resolve()
    reports = Path(args.reports)
    reports = reports if reports.is_absolute() else root / reports
    work = Path(args.work)
    work = work if work.is_absolute() else root / work
    rcache = Path(args.result_cache)
    rcache = rcache if rcache.is_absolute() else root / rcache
    manifest = provision.load_manifest(Path(args.manifest))
    only = [s for s in args.only.split(",") if s] if args.only else None
    tolerance = manifest.get("tolerance", regress.DEFAULT_TOLERANCE)
    flags = manifest.get("flags", DEFAULT_FLAGS)
    include_dirs = manifest.get("include_dirs", ["kernels"])
    matrix_archs = manifest.get("archs", ["sm_80", "sm_90", "sm_100"])

    def log(msg):
        print(msg, flush=True)

    # 1. toolchains
    log("== toolchains")
    tcs, missing = provision.provision_all(manifest, only, log=log)
    for tc in tcs:
        log(f"   {tc.name:11} nvcc {tc.nvcc_version:10} ({tc.source}) {tc.nvcc}")
    for name, reason in missing:
        log(f"   {name:11} MISSING: {reason}" + ("  [failure: --strict]" if args.strict else ""))
    if not tcs:
        log("no toolchain available")
        if args.skip_code is not None:
            return args.skip_code
        return 1 if (args.strict or missing) else 0

    # 2. jobs
    units = find_units(root, manifest.get("sources", ["kernels", "selfcheck"]))
    if not units:
        log(f"no translation units (*.cu) under {', '.join(manifest.get('sources', []))}")
    columns, jobs, sass_tools, unsupported = [], [], {}, []
    # cuobjdump may come from another toolchain: the selected ones, and any other of the
    # manifest that is already installed (never downloaded just for that)
    sass_pool = list(tcs)
    prov = provision.Provisioner(manifest, log=log)
    for entry in manifest["toolchains"]:
        if entry.get("kind") == "path" or any(t.name == entry["name"] for t in tcs):
            continue
        root_dir = prov.installed(entry)
        if root_dir:
            try:
                sass_pool.append(provision.describe(entry["name"], str(root_dir / "bin" / "nvcc"),
                                                    str(root_dir), "cache"))
            except provision.ProvisionError:
                pass
    for tc in tcs:
        sass_tools[tc.name] = pick_sass_tool(tc, sass_pool)
        for arch in sorted(matrix_archs, key=arch_key):
            if arch not in tc.archs:
                unsupported.append((tc.name, arch))
                continue
            host = not any(n == tc.name for n, _ in columns)  # host code: first arch only
            columns.append((tc.name, arch))
            for u in units:
                jobs.append(Job(tc, arch, u,
                                work / tc.name / arch / (u + (".o" if host else ".cubin")),
                                sass_tools[tc.name], host=host,
                                cache_file=None if args.no_result_cache else
                                rcache / tc.name / arch / (u + ".json")))
    for n, a in unsupported:
        log(f"   {n} does not support {a}: skipped")
    for tc in tcs:
        if not sass_tools[tc.name]:
            log(f"   {tc.name}: no cuobjdump for its cubins: no SASS counts")
    for tc in tcs:
        shutil.rmtree(work / tc.name, ignore_errors=True)

    # 3. compile, in parallel, with progress
    log(f"== compiling {len(jobs)} units ({len(units)} files x toolchain/arch) with "
        f"{args.jobs} job(s)")
    done = 0
    lock = threading.Lock()
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = [ex.submit(run_job, j, root, flags, include_dirs) for j in jobs]
        for fut in cf.as_completed(futs):
            j = fut.result()
            with lock:
                done += 1
                extra = (f"{len(j.kernels)} kernels" if j.status == "ok"
                         else f"{j.message}")
                how = "cached" if j.cached else f"{j.seconds:.1f}s"
                log(f"[{done}/{len(jobs)}] {j.tc.name} {j.arch} {j.unit} ... {j.status} "
                    f"({how}, {extra})")

    # 4. names, records
    names = resources.demangle({k["mangled"] for j in jobs for k in j.kernels})
    for j in jobs:
        seen = {}
        for k in j.kernels:
            nm = names.get(k["mangled"], k["mangled"])
            if nm in seen:  # overloads with the same template name: keep them apart
                nm = f"{nm} [{k['mangled']}]"
            seen[nm] = True
            k["kernel"] = nm

    # 5. compare against the baselines
    findings: List[regress.Finding] = []
    baseline_dir = Path(args.baseline_dir)
    per_tc = {}
    no_baseline = []
    for tc in tcs:
        files = {(j.arch, j.unit): {"status": j.status, "message": j.message}
                 for j in jobs if j.tc.name == tc.name}
        kernels = {(j.arch, j.unit, k["kernel"]): {f: k.get(f) for f in regress.FIGURES}
                   for j in jobs if j.tc.name == tc.name for k in j.kernels}
        per_tc[tc.name] = (files, kernels)
        bpath = baseline_dir / f"{tc.name}.json"
        if args.update_baseline:
            continue
        if not bpath.is_file():
            no_baseline.append(tc.name)
            continue
        base = json.loads(bpath.read_text())
        if base.get("nvcc_version") and base["nvcc_version"] != tc.nvcc_version:
            findings.append(regress.Finding(
                "fail" if args.strict else "note", "version", tc.name, "", "", None,
                f"[{tc.name}] baseline was recorded with nvcc {base['nvcc_version']}, this is "
                f"{tc.nvcc_version}: figures not compared (run --update-baseline)"))
            continue
        findings += regress.compare(tc.name, base, files, kernels, tolerance,
                                    archs=[a for n, a in columns if n == tc.name])
    for name in no_baseline:
        findings.append(regress.Finding(
            "fail" if args.strict else "note", "baseline", name, "", "", None,
            f"[{name}] has no baseline ({baseline_dir}/{name}.json): run with --update-baseline"))
    if args.update_baseline:
        baseline_dir.mkdir(parents=True, exist_ok=True)
        for tc in tcs:
            files, kernels = per_tc[tc.name]
            data = regress.to_baseline(tc.name, tc.nvcc_version, files, kernels)
            (baseline_dir / f"{tc.name}.json").write_text(
                json.dumps(data, indent=1, sort_keys=True) + "\n")
            log(f"baseline written: {baseline_dir / (tc.name + '.json')}")
        for j in jobs:
            if j.status != "ok":
                findings.append(regress.Finding(
                    "note", "compile", j.tc.name, j.arch, j.unit, None,
                    f"{j.unit} [{j.tc.name} {j.arch}] does not compile ({j.status}) and is "
                    f"recorded so in the baseline: {j.message}"))

    failing = {(f.toolchain, f.arch, f.file, f.kernel) for f in findings if f.severity == "fail"}

    # 6. records
    records = []
    tc_by = {t.name: t for t in tcs}
    for j in jobs:
        if j.status != "ok":
            records.append({"toolchain": j.tc.name, "nvcc_version": j.tc.nvcc_version,
                            "arch": j.arch, "file": j.unit, "kernel": None,
                            **{f: None for f in regress.FIGURES}, "status": j.status,
                            "message": j.message})
            continue
        for k in j.kernels:
            key = (j.tc.name, j.arch, j.unit, k["kernel"])
            records.append({"toolchain": j.tc.name, "nvcc_version": tc_by[j.tc.name].nvcc_version,
                            "arch": j.arch, "file": j.unit, "kernel": k["kernel"],
                            "mangled": k["mangled"],
                            **{f: k.get(f) for f in regress.FIGURES},
                            "status": "regression" if key in failing else "ok"})

    fails = [f for f in findings if f.severity == "fail"]
    hard_missing = bool(missing) and args.strict
    result = "fail" if (fails or hard_missing) else "pass"
    seconds = time.monotonic() - t_start
    summary = {"result": result, "failures": len(fails) + (len(missing) if args.strict else 0),
               "notes": len(findings) - len(fails), "compiles": len(jobs), "seconds": seconds,
               "sass_tools": sass_tools}

    # 7. output
    log(terminal_table(tcs, columns, records, failing))
    notes = [f for f in findings if f.severity == "note"]
    if notes:
        log(f"\n{len(notes)} note(s):")
        for f in notes[:40]:
            log(f"  note: {f.message}")
        if len(notes) > 40:
            log(f"  ... {len(notes) - 40} more in matrix.md")
    if fails or missing:
        log("")
    for f in fails:
        log(f"FAIL: {f.message}")
    for name, reason in missing:
        log(f"{'FAIL' if args.strict else 'MISSING'}: toolchain {name} cannot be had: {reason}")

    reports.mkdir(parents=True, exist_ok=True)
    doc = {"generated": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
           "summary": summary,
           "toolchains": [dict(t.to_json(), sass_tool=sass_tools.get(t.name),
                               matrix_archs=[a for n, a in columns if n == t.name],
                               status="ok") for t in tcs] +
                         [{"name": n, "status": "missing", "reason": r} for n, r in missing],
           "files": [{"toolchain": j.tc.name, "arch": j.arch, "file": j.unit,
                      "status": j.status, "message": j.message, "seconds": round(j.seconds, 2),
                      "command": j.cmd} for j in jobs],
           "records": records,
           "findings": [f.to_json() for f in findings]}
    (reports / "matrix.json").write_text(json.dumps(doc, indent=1) + "\n")
    (reports / "matrix.md").write_text(
        markdown(summary, tcs, missing, columns, records, findings, failing))
    (reports / "matrix.junit.xml").write_text(
        junit(tcs, missing, args.strict, jobs, findings, seconds))
    log(f"\nmatrix: {result.upper()}: {len(jobs)} compiles, {len(records)} records, "
        f"{len(fails)} failure(s), {len(notes)} note(s), {seconds:.1f}s; reports in {reports}/")
    return 1 if result == "fail" else 0


if __name__ == "__main__":
    sys.exit(main())
