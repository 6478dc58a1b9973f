"""Regression rules (regress.py), failure classification, and matrix.py end to end with a fake
nvcc (a script that prints captured ptxas output)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import matrix  # noqa: E402
import regress as G  # noqa: E402

K = "kernels::store_kv_kernel<uint4, int, 1>"
F = "kernels/launchers.cu"


def fig(registers=32, spill_stores=0, spill_loads=0, stack=0, sass=100):
    return {"registers": registers, "spill_stores": spill_stores, "spill_loads": spill_loads,
            "stack": stack, "shared": 0, "constant": 400, "sass_instructions": sass}


def baseline(kernels=None, status="ok", arch="sm_80"):
    files = {(arch, F): {"status": status}}
    ks = {(arch, F, name): f for name, f in (kernels or {K: fig()}).items()}
    return G.to_baseline("nvcc-12.4", "12.4.131", files, ks)


def run(base, kernels=None, status="ok", message="", arch="sm_80", tol=None):
    files = {(arch, F): {"status": status, "message": message}}
    ks = {(arch, F, name): f for name, f in (kernels if kernels is not None else {K: fig()}).items()}
    return G.compare("nvcc-12.4", base, files, ks, tol)


def fails(findings):
    return [f for f in findings if f.severity == "fail"]


class Rules(unittest.TestCase):
    def test_unchanged_passes(self):
        self.assertEqual(run(baseline()), [])

    def test_register_tolerance(self):
        # max(4, 10%): 32 -> limit 36; 100 -> limit 110
        self.assertEqual(G.register_limit(32, G.DEFAULT_TOLERANCE), 36)
        self.assertEqual(G.register_limit(100, G.DEFAULT_TOLERANCE), 110)
        self.assertEqual(fails(run(baseline(), {K: fig(registers=36)})), [])
        (f,) = fails(run(baseline(), {K: fig(registers=37)}))
        self.assertEqual(f.rule, "registers")
        for part in (K, "nvcc-12.4", "sm_80", "32 -> 37", "36"):
            self.assertIn(part, f.message)
        b = baseline({K: fig(registers=100)})
        self.assertEqual(fails(run(b, {K: fig(registers=110)})), [])
        self.assertEqual(len(fails(run(b, {K: fig(registers=111)}))), 1)

    def test_custom_tolerance(self):
        tol = {"registers_abs": 0, "registers_rel": 0.0}
        self.assertEqual(len(fails(run(baseline(), {K: fig(registers=33)}, tol=tol))), 1)

    def test_fewer_registers_is_a_note(self):
        (n,) = run(baseline(), {K: fig(registers=24, sass=100)})
        self.assertEqual(n.severity, "note")

    def test_starts_to_spill(self):
        got = fails(run(baseline(), {K: fig(spill_stores=8, spill_loads=4)}))
        self.assertEqual(sorted(f.rule for f in got), ["spill_loads", "spill_stores"])
        self.assertIn("spill stores 0 -> 8 bytes", got[1].message + got[0].message)

    def test_more_spill_when_already_spilling_is_a_note(self):
        b = baseline({K: fig(spill_stores=16, spill_loads=16, stack=16)})
        got = run(b, {K: fig(spill_stores=20, spill_loads=20, stack=16)})
        self.assertEqual(fails(got), [])
        self.assertEqual(len(got), 2)

    def test_stack_grows(self):
        (f,) = fails(run(baseline(), {K: fig(stack=16)}))
        self.assertEqual(f.rule, "stack")
        self.assertIn("0 -> 16", f.message)

    def test_stops_compiling(self):
        (f,) = fails(run(baseline(), {}, status="error", message="x.cu(3): error: boom"))
        self.assertEqual(f.rule, "compile")
        self.assertIn("stops compiling", f.message)
        self.assertIn("boom", f.message)

    def test_gains_a_warning(self):
        (f,) = fails(run(baseline(), {}, status="warning", message="error #177-D: unused"))
        self.assertEqual(f.rule, "warning")
        self.assertIn("gains a warning", f.message)

    def test_known_failure_stays_accepted(self):
        b = baseline({}, status="error")
        self.assertEqual(fails(run(b, {}, status="error")), [])

    def test_new_file_that_fails(self):
        b = G.to_baseline("t", "1", {}, {})
        (f,) = fails(run(b, {}, status="error", message="e"))
        self.assertIn("is new and does not compile", f.message)

    def test_kernel_disappears(self):
        other = "kernels::other<int>"
        b = baseline({K: fig(), other: fig()})
        (f,) = fails(run(b, {K: fig()}))
        self.assertEqual(f.rule, "disappeared")
        self.assertIn(other, f.message)

    def test_kernel_moved_to_another_file_is_a_note(self):
        b = baseline({K: fig()})
        files = {("sm_80", F): {"status": "ok"}, ("sm_80", "kernels/b.cu"): {"status": "ok"}}
        got = G.compare("t", b, files, {("sm_80", "kernels/b.cu", K): fig()})
        self.assertEqual(fails(got), [])

    def test_new_kernel_is_a_note(self):
        got = run(baseline(), {K: fig(), "k2": fig()})
        self.assertEqual([f.rule for f in got], ["new"])

    def test_arch_not_run_is_not_compared(self):
        b = baseline(arch="sm_100")
        got = G.compare("t", b, {("sm_80", F): {"status": "ok"}}, {("sm_80", F, K): fig()},
                        archs=["sm_80"])
        self.assertEqual(fails(got), [])

    def test_baseline_round_trip(self):
        b = baseline({K: fig(registers=40)})
        files, ks = G.from_baseline(json.loads(json.dumps(b)))
        self.assertEqual(files, {("sm_80", F): {"status": "ok"}})
        self.assertEqual(ks[("sm_80", F, K)]["registers"], 40)


class Classify(unittest.TestCase):
    def test_edg_warning(self):
        out = ('a.cu(1): error #177-D: variable "x" was declared but never referenced\n'
               "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
               '1 error detected in the compilation of "a.cu".\n')
        self.assertEqual(matrix.classify_failure(out), "warning")

    def test_gcc_warning(self):
        out = ("x.h:38:80: error: iteration 257 invokes undefined behavior "
               "[-Werror=aggressive-loop-optimizations]\n"
               "cc1plus: all warnings being treated as errors\n")
        self.assertEqual(matrix.classify_failure(out), "warning")
        self.assertIn("iteration 257", matrix.first_diagnostic(out))

    def test_real_error(self):
        out = 'a.cu(1): error: identifier "foo" is undefined\n1 error detected\n'
        self.assertEqual(matrix.classify_failure(out), "error")
        out2 = "a.cu:1:10: fatal error: nope.h: No such file or directory\n"
        self.assertEqual(matrix.classify_failure(out2), "error")


class DepFile(unittest.TestCase):
    def test_parse(self):
        text = ("/b/x.cubin : kernels/a.cu \\\n    /usr/include/stdc-predef.h \\\n"
                "    /opt/my\\ dir/h.h \\\n    kernels/store_kv.cuh\n")
        self.assertEqual(matrix.parse_depfile(text),
                         ["kernels/a.cu", "/usr/include/stdc-predef.h", "/opt/my dir/h.h",
                          "kernels/store_kv.cuh"])


FAKE_NVCC = r"""#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
if "--version" in args:
    print("Cuda compilation tools, release 13.0, V13.0.88"); sys.exit(0)
if "--list-gpu-arch" in args:
    print("compute_80"); sys.exit(0)
src = [a for a in args if a.endswith(".cu")][0]
text = open(src).read()
if "#error" in text:
    print(src + "(1): error: boom", file=sys.stderr); sys.exit(1)
regs = text.split("REGS=")[1].split()[0]
spill = text.split("SPILL=")[1].split()[0]
open(args[args.index("-o") + 1], "w").write("obj")
print("ptxas info    : 0 bytes gmem", file=sys.stderr)
print("ptxas info    : Compiling entry function '_Z8kernel_aPi' for 'sm_80'", file=sys.stderr)
print("ptxas info    : Function properties for _Z8kernel_aPi", file=sys.stderr)
print(f"    {spill} bytes stack frame, {spill} bytes spill stores, {spill} bytes spill loads",
      file=sys.stderr)
print(f"ptxas info    : Used {regs} registers, 380 bytes cmem[0]", file=sys.stderr)
"""


class MatrixEndToEnd(unittest.TestCase):
    """matrix.py with a fake nvcc on PATH: baseline, a kernel made to gain registers and to
    spill fails naming kernel, toolchain, arch and figures; --update-baseline accepts it."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="cuemu-matrix-test-"))
        (self.tmp / "bin").mkdir()
        nvcc = self.tmp / "bin" / "nvcc"
        nvcc.write_text(FAKE_NVCC)
        nvcc.chmod(0o755)
        self.repo = self.tmp / "repo"
        (self.repo / "kernels").mkdir(parents=True)
        self.unit = self.repo / "kernels" / "a.cu"
        self.manifest = self.tmp / "manifest.json"
        self.manifest.write_text(json.dumps({
            "archs": ["sm_80", "sm_90"], "sources": ["kernels"], "include_dirs": ["kernels"],
            "tolerance": {"registers_abs": 4, "registers_rel": 0.1},
            "toolchains": [{"name": "path", "kind": "path"}]}))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def matrix(self, *extra):
        env = dict(os.environ, PATH=f"{self.tmp / 'bin'}:/usr/bin:/bin")
        env.pop("CUDA_HOME", None)
        env.pop("CUDA_PATH", None)
        return subprocess.run(
            [sys.executable, str(HERE.parent / "matrix.py"), "--manifest", str(self.manifest),
             "--root", str(self.repo), "--baseline-dir", str(self.tmp / "baseline"),
             "--reports", str(self.tmp / "reports"), "--jobs", "2", *extra],
            capture_output=True, text=True, env=env, timeout=300)

    def test_flow(self):
        self.unit.write_text("// REGS=32 SPILL=0\n")
        r = self.matrix("--strict")
        self.assertEqual(r.returncode, 1, r.stdout)  # strict: no baseline yet
        self.assertIn("has no baseline", r.stdout)
        r = self.matrix("--update-baseline")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertTrue((self.tmp / "baseline" / "path.json").is_file())
        r = self.matrix("--strict")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("[1/1] path sm_80 kernels/a.cu ... ok", r.stdout)
        self.assertIn("does not support sm_90", r.stdout)

        self.unit.write_text("// REGS=40 SPILL=8\n")
        r = self.matrix("--strict")
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("FAIL: kernel_a [path sm_80, kernels/a.cu]: registers 32 -> 40", r.stdout)
        self.assertIn("starts to spill: spill stores 0 -> 8 bytes", r.stdout)
        self.assertIn("stack frame grows 0 -> 8 bytes", r.stdout)
        doc = json.loads((self.tmp / "reports" / "matrix.json").read_text())
        (rec,) = doc["records"]
        for key in ("toolchain", "nvcc_version", "arch", "kernel", "registers", "spill_stores",
                    "spill_loads", "stack", "shared", "constant", "sass_instructions", "status"):
            self.assertIn(key, rec)
        self.assertEqual((rec["toolchain"], rec["arch"], rec["registers"], rec["status"]),
                         ("path", "sm_80", 40, "regression"))
        self.assertEqual(doc["summary"]["result"], "fail")
        xml = (self.tmp / "reports" / "matrix.junit.xml").read_text()
        self.assertIn("<failure", xml)
        self.assertIn("registers 32 -&gt; 40", xml)
        self.assertIn("**40 8/8 8 ?**",
                      (self.tmp / "reports" / "matrix.md").read_text())

        r = self.matrix("--update-baseline")
        self.assertEqual(r.returncode, 0, r.stdout)
        r = self.matrix("--strict")
        self.assertEqual(r.returncode, 0, r.stdout)

        self.unit.write_text("#error nope\n")
        r = self.matrix()
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("kernels/a.cu [path sm_80] stops compiling", r.stdout)

    def test_no_nvcc_skip_code(self):
        (self.tmp / "bin" / "nvcc").unlink()
        self.unit.write_text("// REGS=32 SPILL=0\n")
        r = self.matrix("--only", "path", "--skip-code", "77")
        self.assertEqual(r.returncode, 77, r.stdout)
        self.assertIn("no nvcc on PATH", r.stdout)


if __name__ == "__main__":
    unittest.main()
