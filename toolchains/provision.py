#!/usr/bin/env python3
"""Provision the nvcc toolchains named in toolchains/manifest.json.

Each toolchain is installed under ${XDG_CACHE_HOME:-~/.cache}/cuemu/toolchains/<name>-<version>/
(override the base with CUEMU_TOOLCHAIN_CACHE), never inside the repository:

  1. every artifact (Debian .deb through `apt-get download` under a private apt configuration,
     or a pip wheel through `pip download --no-deps`) is fetched into a temporary folder and its
     sha256 compared with the manifest; verified files are kept in <cache>/downloads/;
  2. the artifacts are unpacked (dpkg -x, zip) into a temporary folder, arranged into a
     CUDA_HOME-like tree by the entry's layout, checked with `nvcc --version`;
  3. a marker file (.cuemu-toolchain.json) is written last and the tree is renamed into place.

An interrupted run therefore leaves at most a `.tmp-*` folder (removed by the next run), never a
half toolchain; an installed toolchain (marker present and matching the manifest entry) is reused
without any network access.

Usage: python3 toolchains/provision.py [--strict] [--only NAME[,NAME]] [--manifest FILE]
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

HERE = Path(__file__).resolve().parent
DEFAULT_MANIFEST = HERE / "manifest.json"
MARKER = ".cuemu-toolchain.json"


class ProvisionError(Exception):
    """A toolchain cannot be had; the message says why."""


@dataclass
class Toolchain:
    name: str
    nvcc: str
    root: Optional[str]
    nvcc_version: str = ""  # e.g. 12.4.131
    archs: list = field(default_factory=list)  # sm_XX supported by this nvcc
    cuobjdump: Optional[str] = None
    nvdisasm: Optional[str] = None
    source: str = ""  # "cache" | "installed" | "path"

    def to_json(self) -> dict:
        return {
            "name": self.name, "nvcc": self.nvcc, "root": self.root,
            "nvcc_version": self.nvcc_version, "archs": self.archs,
            "cuobjdump": self.cuobjdump, "nvdisasm": self.nvdisasm, "source": self.source,
        }


def log_default(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def load_manifest(path: Path = DEFAULT_MANIFEST) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def cache_base() -> Path:
    env = os.environ.get("CUEMU_TOOLCHAIN_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "cuemu" / "toolchains"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def entry_digest(entry: dict, layout: Optional[dict]) -> str:
    blob = json.dumps({"entry": entry, "layout": layout}, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()


# ---------------------------------------------------------------------------------------------
# nvcc queries

_VERSION_RE = re.compile(r"release (\d+)\.(\d+), V(\d+\.\d+\.\d+)")


def nvcc_version(nvcc: str, env: Optional[dict] = None) -> str:
    try:
        out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, timeout=60,
                             env=env).stdout
    except OSError as e:
        raise ProvisionError(f"cannot run {nvcc}: {e}") from e
    m = _VERSION_RE.search(out)
    if not m:
        raise ProvisionError(f"{nvcc} --version does not name a release: {out.strip()[:200]!r}")
    return m.group(3)


def nvcc_archs(nvcc: str) -> list:
    """sm_XX for each compute_XX that `nvcc --list-gpu-arch` lists."""
    try:
        out = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True,
                             timeout=60).stdout
    except OSError:
        return []
    return sorted({"sm_" + m for m in re.findall(r"compute_(\d+[a-z]?)\b", out)},
                  key=lambda s: int(re.sub(r"\D", "", s)))


def describe(name: str, nvcc: str, root: Optional[str], source: str) -> Toolchain:
    tc = Toolchain(name=name, nvcc=nvcc, root=root, source=source)
    tc.nvcc_version = nvcc_version(nvcc)
    tc.archs = nvcc_archs(nvcc)
    bindir = Path(nvcc).parent
    for tool in ("cuobjdump", "nvdisasm"):
        p = bindir / tool
        if p.is_file() and os.access(p, os.X_OK):
            setattr(tc, tool, str(p))
    return tc


def find_path_nvcc() -> Optional[str]:
    cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if cuda_home:
        cand = Path(cuda_home) / "bin" / "nvcc"
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    found = shutil.which("nvcc")
    return os.path.realpath(found) if found else None


# ---------------------------------------------------------------------------------------------
# fetchers

def _run(cmd: list, cwd: Optional[Path] = None, env: Optional[dict] = None,
         timeout: int = 1800) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except FileNotFoundError as e:
        raise ProvisionError(f"{cmd[0]} not found: {e}") from e
    except subprocess.TimeoutExpired as e:
        raise ProvisionError(f"{' '.join(cmd[:3])} ... timed out after {timeout}s") from e


def _tail(text: str, n: int = 6) -> str:
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])


class Fetcher:
    """Fetches .debs and wheels into a folder. Tests point it at a local fake source."""

    def __init__(self, manifest: dict, base: Path, pip_extra: Optional[list] = None,
                 apt_sources: Optional[str] = None):
        self.manifest = manifest
        self.base = base
        self.pip_extra = list(pip_extra or [])
        self.apt_sources = apt_sources or manifest.get("apt", {}).get("sources", "")
        self._apt_updated = False

    # -- wheels --
    def fetch_wheel(self, spec: dict, dest: Path) -> Path:
        before = set(os.listdir(dest))
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
               "--no-cache-dir", "--disable-pip-version-check", "--progress-bar", "off",
               "--implementation", "py", "--abi", "none",
               "--python-version", f"{sys.version_info.major}.{sys.version_info.minor}",
               "-d", str(dest)]
        for p in self.manifest.get("pip", {}).get("platforms", []):
            cmd += ["--platform", p]
        cmd += self.manifest.get("pip", {}).get("extra_args", [])
        cmd += self.pip_extra
        cmd.append(f"{spec['project']}=={spec['version']}")
        r = _run(cmd)
        new = sorted(set(os.listdir(dest)) - before)
        if r.returncode != 0 or not new:
            raise ProvisionError(
                f"wheel {spec['project']}=={spec['version']} cannot be downloaded: "
                f"{_tail(r.stderr or r.stdout, 3)}")
        return dest / new[0]

    # -- debs --
    def _apt_opts(self) -> list:
        a = self.base / "apt"
        arch = self.manifest.get("apt", {}).get("architecture", "amd64")
        return [
            "-o", f"Dir::Etc={a}/etc", "-o", f"Dir::Etc::sourcelist={a}/etc/sources.list",
            "-o", f"Dir::Etc::sourceparts={a}/etc/sources.list.d",
            "-o", f"Dir::Etc::parts={a}/etc/apt.conf.d",
            "-o", f"Dir::Etc::preferences={a}/etc/preferences",
            "-o", f"Dir::Etc::preferencesparts={a}/etc/preferences.d",
            "-o", f"Dir::State={a}/state", "-o", f"Dir::State::status={a}/state/status",
            "-o", f"Dir::Cache={a}/cache", "-o", f"APT::Architecture={arch}",
            "-o", f"APT::Architectures={arch}", "-o", "Debug::NoLocking=1",
            "-o", "APT::Sandbox::User=root" if os.geteuid() == 0 else "Debug::NoLocking=1",
            "-o", "Acquire::Languages=none", "-q",
        ]

    def _apt_update(self) -> None:
        if self._apt_updated:
            return
        a = self.base / "apt"
        for d in ("etc/sources.list.d", "etc/apt.conf.d", "etc/preferences.d",
                  "state/lists/partial", "cache/archives/partial"):
            (a / d).mkdir(parents=True, exist_ok=True)
        (a / "etc" / "sources.list").write_text(self.apt_sources + "\n")
        status = a / "state" / "status"
        if not status.exists():
            status.write_text("")
        r = _run(["apt-get"] + self._apt_opts() + ["update"])
        if r.returncode != 0 or re.search(r"^(E|W): Failed", r.stdout + r.stderr, re.M):
            raise ProvisionError(f"apt-get update ({self.apt_sources}) failed: "
                                 f"{_tail(r.stderr or r.stdout, 3)}")
        self._apt_updated = True

    def fetch_deb(self, spec: dict, dest: Path) -> Path:
        self._apt_update()
        before = set(os.listdir(dest))
        r = _run(["apt-get"] + self._apt_opts() + ["download",
                                                   f"{spec['package']}={spec['version']}"],
                 cwd=dest)
        new = sorted(f for f in set(os.listdir(dest)) - before if f.endswith(".deb"))
        if r.returncode != 0 or not new:
            raise ProvisionError(f"package {spec['package']}={spec['version']} cannot be "
                                 f"downloaded: {_tail(r.stderr or r.stdout, 3)}")
        return dest / new[0]


# ---------------------------------------------------------------------------------------------
# installation

def _extract_wheel(path: Path, dest: Path) -> None:
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            target = dest / info.filename
            if not str(target.resolve()).startswith(str(dest.resolve())):
                raise ProvisionError(f"{path.name}: unsafe member {info.filename}")
            z.extract(info, dest)
            mode = (info.external_attr >> 16) & 0o777
            if mode and not info.is_dir():
                os.chmod(target, mode)


def _apply_layout(raw: Path, root: Path, layout: dict) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for src, dst in layout.get("move", []):
        if src.endswith("/*"):
            srcdir = raw / src[:-2]
            if not srcdir.is_dir():
                raise ProvisionError(f"layout: {src[:-2]} missing from the unpacked packages")
            target = root / dst
            target.mkdir(parents=True, exist_ok=True)
            for child in sorted(srcdir.iterdir()):
                if (target / child.name).exists():
                    raise ProvisionError(f"layout: {dst}{child.name} would be overwritten")
                os.rename(child, target / child.name)
        else:
            s = raw / src
            if not (s.exists() or s.is_symlink()):
                raise ProvisionError(f"layout: {src} missing from the unpacked packages")
            d = root / dst
            d.parent.mkdir(parents=True, exist_ok=True)
            os.rename(s, d)
    for rel in layout.get("remove", []):
        p = root / rel
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p)
        elif p.exists() or p.is_symlink():
            p.unlink()
    for name, target in layout.get("symlinks", []):
        if not (root / name).exists():
            os.symlink(target, root / name)
    if "profile" in layout:
        prof = root / "bin" / "nvcc.profile"
        if prof.is_symlink() or prof.exists():
            prof.unlink()
        prof.write_text(layout["profile"])
    # executables must be executable whatever the archive said
    for d in ("bin", "nvvm/bin"):
        for p in (root / d).glob("*") if (root / d).is_dir() else []:
            if p.is_file() and not p.name.endswith((".profile", ".stub")):
                os.chmod(p, os.stat(p).st_mode | 0o755)


def _crash_hook(point: str) -> None:
    """Test-only: CUEMU_PROVISION_TEST_CRASH=<point> kills the process there (simulates an
    interrupted install)."""
    if os.environ.get("CUEMU_PROVISION_TEST_CRASH") == point:
        os._exit(137)


class Provisioner:
    def __init__(self, manifest: dict, base: Optional[Path] = None,
                 fetcher: Optional[Fetcher] = None, log: Callable[[str], None] = log_default):
        self.manifest = manifest
        self.base = Path(base) if base else cache_base()
        self.fetcher = fetcher or Fetcher(manifest, self.base)
        self.log = log

    def target_dir(self, entry: dict) -> Path:
        return self.base / f"{entry['name']}-{entry['version']}"

    def _layout(self, entry: dict) -> Optional[dict]:
        name = entry.get("layout")
        if name is None:
            return None
        layouts = self.manifest.get("layouts", {})
        if name not in layouts:
            raise ProvisionError(f"unknown layout {name!r}")
        return layouts[name]

    def installed(self, entry: dict) -> Optional[Path]:
        d = self.target_dir(entry)
        marker = d / MARKER
        if not marker.is_file():
            return None
        try:
            data = json.loads(marker.read_text())
        except (OSError, ValueError):
            return None
        if data.get("digest") != entry_digest(entry, self._layout(entry)):
            return None
        return d

    def _cleanup_stale(self) -> None:
        if not self.base.is_dir():
            return
        for p in self.base.glob(".tmp-*"):
            # a temp folder of a live concurrent install is at most minutes old; ours are only
            # removed when older than an hour or when their owner process is gone
            pid_file = p / "pid"
            try:
                pid = int(pid_file.read_text())
                os.kill(pid, 0)
                alive = True
            except (OSError, ValueError):
                alive = False
            if not alive:
                shutil.rmtree(p, ignore_errors=True)

    def _verified(self, kind: str, spec: dict, tmp: Path) -> Path:
        """Return a verified artifact: from <base>/downloads if present, else fetched."""
        want = spec["sha256"].lower()
        dl = self.base / "downloads"
        dl.mkdir(parents=True, exist_ok=True)
        for cand in dl.glob(f"{want[:16]}-*"):
            if sha256_file(cand) == want:
                return cand
            cand.unlink()
        fetch_dir = tmp / "fetch"
        fetch_dir.mkdir(exist_ok=True)
        label = (f"{spec['package']}={spec['version']}" if kind == "deb"
                 else f"{spec['project']}=={spec['version']}")
        self.log(f"  fetching {label}")
        path = (self.fetcher.fetch_deb if kind == "deb" else self.fetcher.fetch_wheel)(
            spec, fetch_dir)
        got = sha256_file(path)
        if got != want:
            path.unlink()
            raise ProvisionError(f"sha256 mismatch for {path.name} ({label}): manifest says "
                                 f"{want}, downloaded file has {got}")
        _crash_hook("after-verify")
        final = dl / f"{want[:16]}-{path.name}"
        part = dl / f".part-{os.getpid()}-{path.name}"
        shutil.move(str(path), part)
        os.rename(part, final)
        return final

    def ensure(self, entry: dict) -> Path:
        """Install (if needed) and return the toolchain's root folder. Raises ProvisionError."""
        found = self.installed(entry)
        if found:
            return found
        layout = self._layout(entry)
        if layout is None:
            raise ProvisionError(f"{entry['name']}: no layout")
        self.base.mkdir(parents=True, exist_ok=True)
        self._cleanup_stale()
        target = self.target_dir(entry)
        self.log(f"provisioning {entry['name']} {entry['version']} into {target}")
        tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{entry['name']}-", dir=self.base))
        (tmp / "pid").write_text(str(os.getpid()))
        try:
            raw = tmp / "raw"
            (raw / "deb").mkdir(parents=True)
            (raw / "wheel").mkdir(parents=True)
            for spec in entry.get("debs", []):
                deb = self._verified("deb", spec, tmp)
                r = _run(["dpkg", "-x", str(deb), str(raw / "deb")])
                if r.returncode != 0:
                    raise ProvisionError(f"dpkg -x {deb.name} failed: {_tail(r.stderr)}")
            for spec in entry.get("wheels", []):
                whl = self._verified("wheel", spec, tmp)
                try:
                    _extract_wheel(whl, raw / "wheel")
                except zipfile.BadZipFile as e:
                    raise ProvisionError(f"{whl.name}: not a wheel: {e}") from e
                _crash_hook("after-unpack")
            root = tmp / "root"
            _apply_layout(raw, root, layout)
            nvcc = root / "bin" / "nvcc"
            got = nvcc_version(str(nvcc))
            if got.split(".")[:2] != str(entry["version"]).split(".")[:2]:
                raise ProvisionError(f"assembled nvcc reports {got}, manifest says "
                                     f"{entry['version']}")
            shutil.rmtree(raw)
            _crash_hook("before-marker")
            marker = {"name": entry["name"], "version": entry["version"], "nvcc_version": got,
                      "digest": entry_digest(entry, layout)}
            (root / MARKER).write_text(json.dumps(marker, indent=1) + "\n")  # written last
            if target.exists():  # left by something else (no valid marker): replace it
                shutil.rmtree(target)
            try:
                os.rename(root, target)
            except OSError:
                if not self.installed(entry):  # a concurrent install won the race: fine
                    raise
            return target
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def describe_entry(self, entry: dict) -> Toolchain:
        """Provision (if needed) and describe one manifest entry. Raises ProvisionError."""
        if entry.get("kind") == "path":
            nvcc = find_path_nvcc()
            if not nvcc:
                raise ProvisionError("no nvcc on PATH (nor in $CUDA_HOME/bin)")
            return describe(entry["name"], nvcc, str(Path(nvcc).parent.parent), "path")
        was = self.installed(entry) is not None
        root = self.ensure(entry)
        return describe(entry["name"], str(root / "bin" / "nvcc"), str(root),
                        "cache" if was else "installed")


def select(manifest: dict, only: Optional[list]) -> list:
    entries = manifest["toolchains"]
    if not only:
        return entries
    names = {e["name"] for e in entries}
    unknown = [o for o in only if o not in names]
    if unknown:
        raise SystemExit(f"unknown toolchain(s): {', '.join(unknown)} (manifest has "
                         f"{', '.join(sorted(names))})")
    return [e for e in entries if e["name"] in only]


def provision_all(manifest: dict, only: Optional[list] = None,
                  provisioner: Optional[Provisioner] = None,
                  log: Callable[[str], None] = log_default):
    """Returns (toolchains, missing) where missing is a list of (name, reason)."""
    prov = provisioner or Provisioner(manifest, log=log)
    got, missing = [], []
    for entry in select(manifest, only):
        try:
            got.append(prov.describe_entry(entry))
        except ProvisionError as e:
            missing.append((entry["name"], str(e)))
    return got, missing


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=str(DEFAULT_MANIFEST))
    ap.add_argument("--only", help="comma-separated toolchain names")
    ap.add_argument("--strict", action="store_true", help="a toolchain that cannot be had fails")
    ap.add_argument("--json", action="store_true", help="print the toolchains as JSON")
    args = ap.parse_args(argv)
    manifest = load_manifest(Path(args.manifest))
    only = args.only.split(",") if args.only else None
    tcs, missing = provision_all(manifest, only)
    if args.json:
        print(json.dumps({"toolchains": [t.to_json() for t in tcs],
                          "missing": [{"name": n, "reason": r} for n, r in missing]}, indent=1))
    else:
        for t in tcs:
            print(f"{t.name:12} {t.nvcc_version:10} {t.source:9} {t.nvcc}  archs "
                  f"{','.join(a for a in t.archs if a in manifest.get('archs', t.archs))}")
        for n, r in missing:
            print(f"{n:12} MISSING    {r}")
    if missing and args.strict:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
