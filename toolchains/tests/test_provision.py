"""Provisioning against a local fake package source: a flat apt repository (file:) holding a
fake .deb, and a pip --find-links folder holding fake wheels. Covers the good path (install,
reuse offline), a bad hash, an interrupted install, and a missing package."""

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import provision  # noqa: E402

FAKE_NVCC = """#!/bin/sh
case "$1" in
  --version) echo "Cuda compilation tools, release {mm}, V{v}";;
  --list-gpu-arch) echo compute_80; echo compute_90;;
esac
"""


def sha(p: Path) -> str:
    return hashlib.sha256(p.read_bytes()).hexdigest()


def make_wheel(folder: Path, project: str, version: str, files: dict) -> Path:
    dist = project.replace("-", "_")
    path = folder / f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, (text, mode) in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (0o100000 | mode) << 16
            z.writestr(info, text)
        di = f"{dist}-{version}.dist-info"
        z.writestr(f"{di}/METADATA", f"Metadata-Version: 2.1\nName: {project}\nVersion: {version}\n")
        z.writestr(f"{di}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{di}/RECORD", "")
    return path


def make_deb(folder: Path, package: str, version: str, files: dict) -> Path:
    root = Path(tempfile.mkdtemp())
    try:
        (root / "DEBIAN").mkdir()
        (root / "DEBIAN" / "control").write_text(
            f"Package: {package}\nVersion: {version}\nArchitecture: amd64\n"
            f"Maintainer: test <t@example.invalid>\nDescription: fake\n")
        for name, (text, mode) in files.items():
            p = root / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
            os.chmod(p, mode)
        out = folder / f"{package}_{version}_amd64.deb"
        subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(root), str(out)],
                       check=True, capture_output=True)
        return out
    finally:
        shutil.rmtree(root)


def index_repo(repo: Path) -> None:
    r = subprocess.run(["dpkg-scanpackages", "--multiversion", "."], cwd=repo,
                       capture_output=True, text=True, check=True)
    (repo / "Packages").write_text(r.stdout)


HAVE_APT = all(shutil.which(t) for t in ("apt-get", "dpkg-deb", "dpkg-scanpackages", "dpkg"))


class FakeSource(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="cuemu-prov-test-"))
        self.cache = self.tmp / "cache"
        self.wheels = self.tmp / "wheels"
        self.repo = self.tmp / "repo"
        self.wheels.mkdir()
        self.repo.mkdir()
        nvcc = FAKE_NVCC.format(mm="13.9", v="13.9.1")
        self.w_nvcc = make_wheel(self.wheels, "fake-cuda-nvcc", "13.9.1",
                                 {"nvidia/cu13/bin/nvcc": (nvcc, 0o755)})
        self.w_hdr = make_wheel(self.wheels, "fake-cuda-runtime", "13.9.1",
                                {"nvidia/cu13/include/cuda_runtime.h": ("// fake\n", 0o644)})
        self.wheel_entry = {
            "name": "fake-13.9", "version": "13.9.1", "layout": "pip",
            "wheels": [
                {"project": "fake-cuda-nvcc", "version": "13.9.1", "sha256": sha(self.w_nvcc)},
                {"project": "fake-cuda-runtime", "version": "13.9.1", "sha256": sha(self.w_hdr)},
            ]}
        self.manifest = {
            "archs": ["sm_80", "sm_90"],
            "apt": {"sources": f"deb [trusted=yes] file:{self.repo} ./", "architecture": "amd64"},
            "pip": {"platforms": ["manylinux2014_x86_64"],
                    "extra_args": ["--no-index", "--find-links", str(self.wheels)]},
            "layouts": {
                "pip": {"move": [["wheel/nvidia/cu13/*", ""]], "symlinks": [["lib64", "lib"]]},
                "deb": {"move": [["deb/usr/bin/nvcc", "bin/nvcc"],
                                 ["wheel/nvidia/cu13/include", "include"]],
                        "profile": "TOP = $(_HERE_)/..\n"},
            },
            "toolchains": [self.wheel_entry],
        }
        self.logs = []

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def prov(self, manifest=None, fetcher=None):
        m = manifest or self.manifest
        return provision.Provisioner(m, base=self.cache, fetcher=fetcher,
                                     log=self.logs.append)

    def leftovers(self):
        return sorted(p.name for p in self.cache.glob(".tmp-*")) if self.cache.exists() else []

    # -- good path --------------------------------------------------------------------------
    def test_install_then_reuse_offline(self):
        p = self.prov()
        root = p.ensure(self.wheel_entry)
        self.assertEqual(root, self.cache / "fake-13.9-13.9.1")
        self.assertTrue((root / provision.MARKER).is_file())
        self.assertTrue(os.access(root / "bin" / "nvcc", os.X_OK))
        self.assertTrue((root / "include" / "cuda_runtime.h").is_file())
        tc = p.describe_entry(self.wheel_entry)
        self.assertEqual(tc.nvcc_version, "13.9.1")
        self.assertEqual(tc.archs, ["sm_80", "sm_90"])
        self.assertEqual(tc.source, "cache")
        self.assertEqual(self.leftovers(), [])

        class NoNetwork(provision.Fetcher):
            def fetch_wheel(self, spec, dest):
                raise AssertionError("network used although the toolchain is cached")
            fetch_deb = fetch_wheel

        again = self.prov(fetcher=NoNetwork(self.manifest, self.cache))
        self.assertEqual(again.ensure(self.wheel_entry), root)

    def test_changed_entry_reinstalls(self):
        p = self.prov()
        root = p.ensure(self.wheel_entry)
        (root / "stale").write_text("x")
        entry = json.loads(json.dumps(self.wheel_entry))
        entry["from"] = "changed"  # any change of the entry invalidates the marker
        root2 = self.prov().ensure(entry)
        self.assertEqual(root2, root)
        self.assertFalse((root2 / "stale").exists())

    def test_verified_downloads_are_reused(self):
        self.prov().ensure(self.wheel_entry)
        shutil.rmtree(self.cache / "fake-13.9-13.9.1")
        os.remove(self.w_nvcc)  # the source lost it: the verified copy in downloads/ serves
        os.remove(self.w_hdr)
        self.assertTrue(self.prov().ensure(self.wheel_entry).is_dir())

    @unittest.skipUnless(HAVE_APT, "needs apt-get, dpkg-deb, dpkg-scanpackages")
    def test_deb_and_wheel_install(self):
        deb = make_deb(self.repo, "fake-cuda-toolkit", "12.9.1-1",
                       {"usr/bin/nvcc": (FAKE_NVCC.format(mm="12.9", v="12.9.1"), 0o755)})
        index_repo(self.repo)
        entry = {"name": "fake-12.9", "version": "12.9.1", "layout": "deb",
                 "debs": [{"package": "fake-cuda-toolkit", "version": "12.9.1-1",
                           "sha256": sha(deb)}],
                 "wheels": [self.wheel_entry["wheels"][1]]}
        root = self.prov().ensure(entry)
        self.assertEqual(provision.nvcc_version(str(root / "bin" / "nvcc")), "12.9.1")
        self.assertEqual((root / "bin" / "nvcc.profile").read_text(), "TOP = $(_HERE_)/..\n")
        self.assertTrue((root / "include" / "cuda_runtime.h").is_file())

    # -- failure paths ----------------------------------------------------------------------
    def test_bad_hash(self):
        entry = json.loads(json.dumps(self.wheel_entry))
        entry["wheels"][1]["sha256"] = "0" * 64
        with self.assertRaises(provision.ProvisionError) as cm:
            self.prov().ensure(entry)
        msg = str(cm.exception)
        self.assertIn("sha256 mismatch", msg)
        self.assertIn("fake_cuda_runtime-13.9.1", msg)
        self.assertFalse((self.cache / "fake-13.9-13.9.1").exists())
        self.assertEqual(self.leftovers(), [])
        # the file with the wrong hash is not kept as a verified download
        names = [p.name for p in (self.cache / "downloads").iterdir()]
        self.assertFalse(any("runtime" in n for n in names), names)

    @unittest.skipUnless(HAVE_APT, "needs apt-get, dpkg-deb, dpkg-scanpackages")
    def test_bad_hash_deb(self):
        deb = make_deb(self.repo, "fake-cuda-toolkit", "12.9.1-1",
                       {"usr/bin/nvcc": (FAKE_NVCC.format(mm="12.9", v="12.9.1"), 0o755)})
        index_repo(self.repo)
        entry = {"name": "fake-12.9", "version": "12.9.1", "layout": "deb",
                 "debs": [{"package": "fake-cuda-toolkit", "version": "12.9.1-1",
                           "sha256": "f" * 64}]}
        with self.assertRaises(provision.ProvisionError) as cm:
            self.prov().ensure(entry)
        self.assertIn("sha256 mismatch", str(cm.exception))
        self.assertIn(sha(deb), str(cm.exception))
        self.assertFalse((self.cache / "fake-12.9-12.9.1").exists())

    def _run_cli(self, manifest, *args, env_extra=None):
        mpath = self.tmp / "manifest.json"
        mpath.write_text(json.dumps(manifest))
        env = dict(os.environ, CUEMU_TOOLCHAIN_CACHE=str(self.cache), PATH="/usr/bin:/bin")
        env.update(env_extra or {})
        return subprocess.run([sys.executable, str(HERE.parent / "provision.py"),
                               "--manifest", str(mpath), *args],
                              capture_output=True, text=True, env=env, timeout=300)

    def test_interrupted_install_leaves_no_half_toolchain(self):
        r = self._run_cli(self.manifest, "--only", "fake-13.9",
                          env_extra={"CUEMU_PROVISION_TEST_CRASH": "after-unpack"})
        self.assertEqual(r.returncode, 137, r.stdout + r.stderr)
        target = self.cache / "fake-13.9-13.9.1"
        self.assertFalse(target.exists(), "an interrupted install must leave no toolchain")
        self.assertEqual(len(self.leftovers()), 1)  # the dead process' temp folder
        # killed right before the marker: still nothing in place
        r = self._run_cli(self.manifest, env_extra={"CUEMU_PROVISION_TEST_CRASH":
                                                    "before-marker"})
        self.assertEqual(r.returncode, 137, r.stdout + r.stderr)
        self.assertFalse(target.exists())
        # the next run installs it and removes the dead temp folders
        r = self._run_cli(self.manifest)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertTrue((target / provision.MARKER).is_file())
        self.assertEqual(self.leftovers(), [])

    def test_folder_without_marker_is_not_trusted(self):
        target = self.cache / "fake-13.9-13.9.1"
        (target / "bin").mkdir(parents=True)
        (target / "bin" / "nvcc").write_text("half")
        self.assertIsNone(self.prov().installed(self.wheel_entry))
        root = self.prov().ensure(self.wheel_entry)
        self.assertEqual(provision.nvcc_version(str(root / "bin" / "nvcc")), "13.9.1")

    def test_missing_wheel(self):
        entry = json.loads(json.dumps(self.wheel_entry))
        entry["wheels"][0]["version"] = "13.9.2"
        with self.assertRaises(provision.ProvisionError) as cm:
            self.prov().ensure(entry)
        self.assertIn("fake-cuda-nvcc==13.9.2 cannot be downloaded", str(cm.exception))
        self.assertEqual(self.leftovers(), [])

    @unittest.skipUnless(HAVE_APT, "needs apt-get, dpkg-deb, dpkg-scanpackages")
    def test_missing_deb(self):
        index_repo(self.repo)  # empty repository
        entry = {"name": "fake-12.9", "version": "12.9.1", "layout": "deb",
                 "debs": [{"package": "fake-cuda-toolkit", "version": "12.9.1-1",
                           "sha256": "0" * 64}]}
        with self.assertRaises(provision.ProvisionError) as cm:
            self.prov().ensure(entry)
        self.assertIn("fake-cuda-toolkit=12.9.1-1 cannot be downloaded", str(cm.exception))

    def test_missing_is_reported_and_strict_fails(self):
        m = json.loads(json.dumps(self.manifest))
        m["toolchains"][0]["wheels"][0]["version"] = "13.9.2"
        r = self._run_cli(m)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("MISSING", r.stdout)
        self.assertIn("cannot be downloaded", r.stdout)
        r = self._run_cli(m, "--strict")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)

    def test_path_toolchain_missing(self):
        old = dict(os.environ)
        try:
            os.environ["PATH"] = str(self.tmp)
            os.environ.pop("CUDA_HOME", None)
            os.environ.pop("CUDA_PATH", None)
            tcs, missing = provision.provision_all(
                {"toolchains": [{"name": "path", "kind": "path"}]}, log=self.logs.append)
        finally:
            os.environ.clear()
            os.environ.update(old)
        self.assertEqual(tcs, [])
        self.assertEqual(missing[0][0], "path")
        self.assertIn("no nvcc on PATH", missing[0][1])


if __name__ == "__main__":
    unittest.main()
