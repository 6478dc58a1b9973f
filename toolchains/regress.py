"""Regression rules of the compile matrix, and the baseline file format.

A baseline (toolchains/baseline/<toolchain>.json) holds, per architecture and translation unit,
the compile status and the figures of each kernel instantiation:

  {"toolchain": "nvcc-12.4", "nvcc_version": "12.4.131",
   "archs": {"sm_80": {"kernels/launchers.cu": {"status": "ok",
                                                "kernels": {"kernels::store_kv_kernel<uint4, int, 1>":
                                                            {"registers": 30, ...}}}}}}

The check fails (severity "fail") when, against the baseline of the same toolchain:
  - a file that compiled stops compiling ("error"), or gains a warning ("warning": warnings are
    errors, so the file stops compiling because of a warning); a new file that does not compile;
  - a kernel's registers exceed baseline + max(registers_abs, ceil(baseline * registers_rel));
  - a kernel's spill stores or spill loads go from 0 to more than 0;
  - a kernel's stack frame grows;
  - a kernel disappears (its file still compiles and no other file of that arch has it).
Everything else that changed (fewer registers, a new kernel, SASS size, shared/constant
memory, a file gone) is a note.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

FIGURES = ("registers", "spill_stores", "spill_loads", "stack", "shared", "constant",
           "sass_instructions")
DEFAULT_TOLERANCE = {"registers_abs": 4, "registers_rel": 0.10}

FileKey = Tuple[str, str]  # (arch, file)
KernelKey = Tuple[str, str, str]  # (arch, file, kernel)


@dataclass
class Finding:
    severity: str  # "fail" | "note"
    rule: str  # registers | spill_stores | spill_loads | stack | compile | warning | ...
    toolchain: str
    arch: str
    file: str
    kernel: Optional[str]
    message: str

    def to_json(self) -> dict:
        return dict(self.__dict__)


def register_limit(base: int, tolerance: dict) -> int:
    tol = tolerance or DEFAULT_TOLERANCE
    return base + max(int(tol.get("registers_abs", 4)),
                      math.ceil(base * float(tol.get("registers_rel", 0.10))))


def to_baseline(toolchain: str, nvcc_version: str, files: Dict[FileKey, dict],
                kernels: Dict[KernelKey, dict]) -> dict:
    archs: Dict[str, dict] = {}
    for (arch, f), info in sorted(files.items()):
        archs.setdefault(arch, {})[f] = {"status": info["status"], "kernels": {}}
    for (arch, f, k), fig in sorted(kernels.items()):
        entry = archs.setdefault(arch, {}).setdefault(f, {"status": "ok", "kernels": {}})
        entry["kernels"][k] = {name: fig.get(name) for name in FIGURES}
    return {"toolchain": toolchain, "nvcc_version": nvcc_version, "archs": archs}


def from_baseline(data: dict) -> Tuple[Dict[FileKey, dict], Dict[KernelKey, dict]]:
    files, kernels = {}, {}
    for arch, per_file in (data.get("archs") or {}).items():
        for f, entry in per_file.items():
            files[(arch, f)] = {"status": entry.get("status", "ok")}
            for k, fig in (entry.get("kernels") or {}).items():
                kernels[(arch, f, k)] = fig
    return files, kernels


def _fmt(fig: dict) -> str:
    return (f"registers {fig.get('registers')}, spill stores {fig.get('spill_stores')} B, "
            f"spill loads {fig.get('spill_loads')} B, stack {fig.get('stack')} B")


def compare(toolchain: str, baseline: dict, files: Dict[FileKey, dict],
            kernels: Dict[KernelKey, dict], tolerance: Optional[dict] = None,
            archs: Optional[List[str]] = None) -> List[Finding]:
    """Findings of the current results (files, kernels) against a baseline dict.

    `archs` restricts the comparison to the architectures that were run (default: those in
    the current results)."""
    tolerance = tolerance or DEFAULT_TOLERANCE
    bfiles, bkernels = from_baseline(baseline)
    ran = set(archs) if archs is not None else {a for a, _ in files}
    out: List[Finding] = []

    def add(sev, rule, arch, f, k, msg):
        out.append(Finding(sev, rule, toolchain, arch, f, k, msg))

    # files
    for (arch, f), info in sorted(files.items()):
        st = info["status"]
        before = bfiles.get((arch, f))
        first = (info.get("message") or "").strip().splitlines()[:1]
        detail = f": {first[0]}" if first else ""
        if st == "ok":
            if before and before["status"] != "ok":
                add("note", "compile", arch, f, None,
                    f"{f} [{toolchain} {arch}] compiles again (baseline: {before['status']})")
            continue
        if before is None:
            add("fail", "compile" if st == "error" else "warning", arch, f, None,
                f"{f} [{toolchain} {arch}] is new and does not compile ({st}){detail}")
        elif before["status"] == "ok":
            what = "gains a warning (warnings are errors)" if st == "warning" \
                else "stops compiling"
            add("fail", "warning" if st == "warning" else "compile", arch, f, None,
                f"{f} [{toolchain} {arch}] {what}{detail}")
        elif before["status"] != st:
            add("fail", "compile", arch, f, None,
                f"{f} [{toolchain} {arch}] status {before['status']} -> {st}{detail}")
        else:
            add("note", "compile", arch, f, None,
                f"{f} [{toolchain} {arch}] still does not compile ({st}), as in the baseline")
    for (arch, f) in sorted(bfiles):
        if arch in ran and (arch, f) not in files:
            add("note", "file", arch, f, None,
                f"{f} [{toolchain} {arch}] is in the baseline but no longer exists")
    for arch in sorted({a for a, _ in bfiles} - ran):
        add("note", "arch", arch, "", None,
            f"[{toolchain}] {arch} is in the baseline but was not compiled this time")

    # kernels
    compiled = {k for k, v in files.items() if v["status"] == "ok"}
    present_by_arch: Dict[str, set] = {}
    for (arch, f, k) in kernels:
        present_by_arch.setdefault(arch, set()).add(k)
    for key, fig in sorted(kernels.items()):
        arch, f, k = key
        base = bkernels.get(key)
        where = f"{k} [{toolchain} {arch}, {f}]"
        if base is None:
            add("note", "new", arch, f, k, f"{where} is new: {_fmt(fig)}")
            continue
        r0, r1 = base.get("registers"), fig.get("registers")
        if r0 is not None and r1 is not None:
            limit = register_limit(r0, tolerance)
            if r1 > limit:
                add("fail", "registers", arch, f, k,
                    f"{where}: registers {r0} -> {r1} (+{r1 - r0}, tolerance allows up to "
                    f"{limit})")
            elif r1 != r0:
                add("note", "registers", arch, f, k,
                    f"{where}: registers {r0} -> {r1} (within tolerance, limit {limit})")
        for fld, label in (("spill_stores", "spill stores"), ("spill_loads", "spill loads")):
            s0, s1 = base.get(fld) or 0, fig.get(fld) or 0
            if s0 == 0 and s1 > 0:
                add("fail", fld, arch, f, k, f"{where}: starts to spill: {label} 0 -> {s1} bytes")
            elif s1 != s0:
                add("note", fld, arch, f, k, f"{where}: {label} {s0} -> {s1} bytes")
        t0, t1 = base.get("stack") or 0, fig.get("stack") or 0
        if t1 > t0:
            add("fail", "stack", arch, f, k, f"{where}: stack frame grows {t0} -> {t1} bytes")
        elif t1 < t0:
            add("note", "stack", arch, f, k, f"{where}: stack frame {t0} -> {t1} bytes")
        for fld in ("shared", "constant", "sass_instructions"):
            v0, v1 = base.get(fld), fig.get(fld)
            if v0 is not None and v1 is not None and v0 != v1:
                add("note", fld, arch, f, k, f"{where}: {fld} {v0} -> {v1}")
    for key in sorted(bkernels):
        arch, f, k = key
        if key in kernels or arch not in ran or (arch, f) not in compiled:
            continue
        if k in present_by_arch.get(arch, set()):
            add("note", "moved", arch, f, k,
                f"{k} [{toolchain} {arch}] no longer in {f} (still built from another file)")
        else:
            add("fail", "disappeared", arch, f, k,
                f"{k} [{toolchain} {arch}, {f}] disappeared (baseline: {_fmt(bkernels[key])})")
    return out
