"""Parsers for what nvcc, ptxas and cuobjdump print about kernels.

- parse_ptxas(text): the `-Xptxas -v` / `--resource-usage` lines of one compile (nvcc 12.x and
  13.x formats: 13.x adds `used N barriers` and `Compile time` lines, and 12.x prints `cmem[0]`
  per kernel only for some architectures).
- parse_resusage(text): `cuobjdump -res-usage` (REG, STACK, SHARED, LOCAL, CONSTANT[n] per
  function, the module's `Common:` banks).
- parse_sass(text): `cuobjdump -sass`, the number of SASS instructions per function, not counting
  NOPs (the alignment padding after the final self-branch, and scheduling NOPs).
- demangle(names): readable kernel names via c++filt, without return type and parameter list:
  `kernels::store_kv_kernel<uint4, int, 1>`.
- kernel_records(...): merges the three into one record per kernel.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Dict, Iterable, Optional

_ENTRY = re.compile(r"ptxas info\s*:\s*Compiling entry function '([^']+)' for '([^']+)'")
_PROPS = re.compile(r"ptxas info\s*:\s*Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"ptxas info\s*:\s*Used (\d+) registers(.*)")
_SMEM = re.compile(r"(\d+) bytes smem")
_CMEM = re.compile(r"(\d+) bytes cmem\[(\d+)\]")
_GMEM = re.compile(r"ptxas info\s*:\s*(\d+) bytes gmem(.*)")


def parse_ptxas(text: str) -> Dict[str, dict]:
    """Returns {"kernels": {(arch, mangled): {...}}, "module": {arch: {"gmem", "cmem"}}}.

    Per kernel: registers, spill_stores, spill_loads, stack, shared, cmem ({bank: bytes}).
    A module line (`N bytes gmem[, M bytes cmem[3]]`) precedes the entries of its arch."""
    kernels: Dict[tuple, dict] = {}
    module: Dict[str, dict] = {}
    pending_module: Optional[dict] = None
    arch = None
    current = None  # key of the kernel whose properties/usage lines follow
    props_for = None
    for line in text.splitlines():
        m = _GMEM.search(line)
        if m:
            pending_module = {"gmem": int(m.group(1)),
                              "cmem": {int(b): int(n) for n, b in _CMEM.findall(m.group(2))}}
            continue
        m = _ENTRY.search(line)
        if m:
            arch = m.group(2)
            current = (arch, m.group(1))
            kernels[current] = {"registers": None, "spill_stores": 0, "spill_loads": 0,
                                "stack": 0, "shared": 0, "cmem": {}}
            if pending_module is not None:
                module[arch] = pending_module
                pending_module = None
            props_for = None
            continue
        m = _PROPS.search(line)
        if m:
            props_for = m.group(1)
            continue
        m = _FRAME.search(line)
        if m and current and props_for == current[1]:
            k = kernels[current]
            k["stack"], k["spill_stores"], k["spill_loads"] = map(int, m.groups())
            continue
        m = _USED.search(line)
        if m and current:
            k = kernels[current]
            k["registers"] = int(m.group(1))
            rest = m.group(2)
            s = _SMEM.search(rest)
            k["shared"] = int(s.group(1)) if s else 0
            k["cmem"] = {int(b): int(n) for n, b in _CMEM.findall(rest)}
            current = None  # the usage line closes the entry
            continue
    return {"kernels": kernels, "module": module}


_RES_FUNC = re.compile(r"^\s*Function (\S+?):\s*$")
_RES_FIELD = re.compile(r"([A-Z]+(?:\[\d+\])?):(\d+)")
_ARCH_LINE = re.compile(r"^\s*arch = (sm_\w+)")


def parse_resusage(text: str) -> Dict[str, dict]:
    """`cuobjdump -res-usage`: {"functions": {(arch, mangled): {FIELD: int}},
    "common": {arch: {FIELD: int}}}. Arch comes from the `arch = sm_XX` header of each ELF
    (None if absent, e.g. when run on a bare cubin)."""
    funcs: Dict[tuple, dict] = {}
    common: Dict[Optional[str], dict] = {}
    arch = None
    target = None  # ("func", key) or ("common", arch)
    for line in text.splitlines():
        m = _ARCH_LINE.match(line)
        if m:
            arch = m.group(1)
            continue
        if line.strip() == "Common:":
            target = ("common", arch)
            continue
        m = _RES_FUNC.match(line)
        if m:
            target = ("func", (arch, m.group(1)))
            # some versions print the fields on the same line: handled below
            continue
        fields = {k: int(v) for k, v in _RES_FIELD.findall(line)}
        if fields and target:
            if target[0] == "common":
                common.setdefault(target[1], {}).update(fields)
            else:
                funcs.setdefault(target[1], {}).update(fields)
    return {"functions": funcs, "common": common}


_SASS_FUNC = re.compile(r"^\s*Function : (\S+)")
_SASS_INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
_SASS_CODE_FOR = re.compile(r"^\s*code for (sm_\w+)")


def parse_sass(text: str) -> Dict[tuple, int]:
    """`cuobjdump -sass`: {(arch, mangled): instruction count without NOPs}."""
    counts: Dict[tuple, int] = {}
    arch = None
    key = None
    for line in text.splitlines():
        m = _SASS_CODE_FOR.match(line)
        if m:
            arch = m.group(1)
            continue
        m = _SASS_FUNC.match(line)
        if m:
            key = (arch, m.group(1))
            counts[key] = 0
            continue
        m = _SASS_INSN.match(line)
        if m and key is not None:
            insn = m.group(1)
            op = re.sub(r"^@!?U?P\w+\s+", "", insn).split(None, 1)[0] if insn else ""
            if op != "NOP":
                counts[key] += 1
    return counts


def _strip_signature(full: str) -> str:
    """`void ns::k<int, 1>(int*, long)` -> `ns::k<int, 1>` (angle brackets respected)."""
    s = full.strip()
    # drop the parameter list: the last top-level '(...)'
    depth = 0
    cut = len(s)
    for i in range(len(s) - 1, -1, -1):
        c = s[i]
        if c == ")":
            depth += 1
        elif c == "(":
            depth -= 1
            if depth == 0:
                cut = i
                break
    s = s[:cut].rstrip()
    # drop a leading return type: the first space outside <> and () ("(anonymous namespace)")
    depth = 0
    for i, c in enumerate(s):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == " " and depth == 0:
            return s[i + 1:]
    return s


def demangle(names: Iterable[str]) -> Dict[str, str]:
    """{mangled: readable}. Without c++filt the mangled names are kept."""
    names = sorted(set(names))
    out = {n: n for n in names}
    tool = shutil.which("c++filt")
    if not tool or not names:
        return out
    try:
        r = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return out
    lines = r.stdout.splitlines()
    if len(lines) != len(names):
        return out
    for n, d in zip(names, lines):
        out[n] = prettify(_strip_signature(d)) if d != n else n
    return out


# c++filt spells the fixed-width types by their LP64 builtin names; show them as written
_ALIASES = [("unsigned long long", "uint64_t"), ("unsigned long", "uint64_t"),
            ("unsigned int", "uint32_t"), ("unsigned short", "uint16_t"),
            ("unsigned char", "uint8_t"), ("long long", "int64_t"), ("long", "int64_t"),
            ("short", "int16_t"), ("signed char", "int8_t")]


def prettify(name: str) -> str:
    """`k<unsigned short, long, 1>` -> `k<uint16_t, int64_t, 1>` (template arguments only)."""
    lt = name.find("<")
    if lt < 0:
        return name
    head, args = name[:lt], name[lt:]
    for long_name, alias in _ALIASES:
        args = re.sub(r"(?<![\w:])" + long_name.replace(" ", r"\s") + r"(?![\w])", alias, args)
    return head + args


def kernel_records(ptxas_text: str, resusage_text: Optional[str], sass_text: Optional[str],
                   arch: str) -> list:
    """One dict per kernel entry of `arch`: mangled, registers, spill_stores, spill_loads,
    stack, shared, constant, sass_instructions.

    registers/spills/stack/shared come from ptxas (shared = static shared memory the kernel
    declares; cuobjdump's SHARED adds the 1 KiB the system reserves on sm_90+);
    constant = the kernel's own constant banks (parameters etc., CONSTANT[n] of cuobjdump, or
    ptxas' cmem[n] when cuobjdump is missing) plus the module's __constant__ data (bank 3)."""
    p = parse_ptxas(ptxas_text)
    res = parse_resusage(resusage_text) if resusage_text else None
    sass = parse_sass(sass_text) if sass_text else {}

    def res_lookup(table, mangled):
        if res is None:
            return None
        return table.get((arch, mangled)) or table.get((None, mangled))

    recs = []
    for (a, mangled), k in p["kernels"].items():
        if a != arch:
            continue
        r = res_lookup(res["functions"], mangled) if res else None
        registers = k["registers"] if k["registers"] is not None else (r or {}).get("REG")
        constant = None
        if r is not None:
            common = res["common"].get(arch) or res["common"].get(None) or {}
            constant = sum(v for f, v in r.items() if f.startswith("CONSTANT")) + \
                sum(v for f, v in common.items() if f.startswith("CONSTANT"))
        else:
            mod = p["module"].get(arch, {})
            if k["cmem"] or mod.get("cmem"):
                constant = sum(k["cmem"].values()) + sum(mod.get("cmem", {}).values())
        sc = sass.get((arch, mangled))
        if sc is None:
            sc = sass.get((None, mangled))
        recs.append({
            "mangled": mangled,
            "registers": registers,
            "spill_stores": k["spill_stores"],
            "spill_loads": k["spill_loads"],
            "stack": k["stack"],
            "shared": k["shared"],
            "constant": constant,
            "sass_instructions": sc,
        })
    return recs
