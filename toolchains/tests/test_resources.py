"""The resource-usage parsers on output captured from each nvcc version (tests/data/):
ptxas -v of nvcc 12.4 (sm_80, sm_90), 13.0 (sm_90) and 13.5 (sm_100) compiling
kernels/launchers.cu and a small demo (stack frame, shared and __constant__ memory), their
cuobjdump -res-usage and -sass output."""

import shutil
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
sys.path.insert(0, str(HERE.parent))

import resources as R  # noqa: E402

STORE_UINT4 = "_ZN7kernels15store_kv_kernelI5uint4iLi1EEEvPT_S3_PKT0_PKS2_S8_lllll"
EMB_U16_L2 = "_ZN7kernels16embedding_kernelItlLi2EEEvPT_PKS1_PKT0_llllll"


def read(name):
    p = DATA / name
    return p.read_text() if p.exists() else None


def records(version, arch, demo=False, sass=False):
    sfx = "_demo" if demo else ""
    return {r["mangled"]: r for r in R.kernel_records(
        read(f"ptxas_{version}_{arch}{sfx}.txt"), read(f"resusage_{version}_{arch}{sfx}.txt"),
        read(f"sass_{version}_{arch}{sfx}.txt") if sass else None, arch)}


class PtxasOutput(unittest.TestCase):
    def test_every_version_finds_all_instantiations(self):
        for v, a in [("12.4", "sm_80"), ("12.4", "sm_90"), ("13.0", "sm_90"), ("13.5", "sm_100")]:
            with self.subTest(version=v, arch=a):
                recs = records(v, a)
                self.assertEqual(len(recs), 36)
                self.assertTrue(all(r["registers"] for r in recs.values()))

    def test_12_4_sm80(self):
        r = records("12.4", "sm_80")[STORE_UINT4]
        self.assertEqual((r["registers"], r["spill_stores"], r["spill_loads"], r["stack"]),
                         (48, 16, 16, 16))
        self.assertEqual(r["shared"], 0)
        # cuobjdump: CONSTANT[0] of the kernel (no module __constant__ here)
        self.assertEqual(r["constant"], 432)

    def test_12_4_sm90_without_cuobjdump_has_no_constant(self):
        # ptxas 12.4 prints no cmem for sm_90, and no -res-usage output was captured
        r = records("12.4", "sm_90")[STORE_UINT4]
        self.assertEqual((r["registers"], r["spill_stores"], r["stack"]), (56, 16, 16))
        self.assertIsNone(r["constant"])

    def test_13_0_sm90(self):
        recs = records("13.0", "sm_90")
        self.assertEqual(recs[STORE_UINT4]["registers"], 56)
        self.assertEqual(recs[STORE_UINT4]["constant"], 608)
        self.assertEqual(recs[EMB_U16_L2]["spill_stores"], 0)
        self.assertEqual(recs[EMB_U16_L2]["registers"], 32)

    def test_13_5_sm100(self):
        r = records("13.5", "sm_100")[STORE_UINT4]
        self.assertEqual((r["registers"], r["spill_stores"], r["spill_loads"], r["stack"]),
                         (48, 20, 20, 24))

    def test_demo_stack_shared_constant_sass(self):
        for v, a, emb_regs, emb_sass in [("12.4", "sm_80", 14, 24), ("13.5", "sm_100", 13, 30)]:
            with self.subTest(version=v):
                recs = records(v, a, demo=True, sass=True)
                split = recs["_ZN2ns10split_rowsEPfi"]
                self.assertEqual(split["stack"], 256)
                self.assertEqual(split["registers"], 32)
                self.assertEqual(split["sass_instructions"], 472)
                emb = recs["_Z16embedding_kernelPfPKfPKii"]
                self.assertEqual(emb["shared"], 1024)  # static __shared__, not the 1 KiB reserve
                self.assertEqual(emb["registers"], emb_regs)
                self.assertEqual(emb["sass_instructions"], emb_sass)
                # the kernel's bank 0 plus the module's 64 bytes of __constant__ (bank 3)
                res = R.parse_resusage(read(f"resusage_{v}_{a}_demo.txt"))
                bank0 = res["functions"][(a, "_Z16embedding_kernelPfPKfPKii")]["CONSTANT[0]"]
                self.assertEqual(emb["constant"], bank0 + 64)

    def test_ptxas_only_constant_from_cmem(self):
        recs = {r["mangled"]: r for r in R.kernel_records(
            read("ptxas_12.4_sm_80_demo.txt"), None, None, "sm_80")}
        self.assertEqual(recs["_Z16embedding_kernelPfPKfPKii"]["constant"], 380 + 64)
        self.assertIsNone(recs["_Z16embedding_kernelPfPKfPKii"]["sass_instructions"])

    def test_other_arch_is_ignored(self):
        self.assertEqual(R.kernel_records(read("ptxas_12.4_sm_80.txt"), None, None, "sm_90"), [])

    def test_non_entry_functions_are_not_kernels(self):
        text = ("ptxas info    : 0 bytes gmem\n"
                "ptxas info    : Function properties for _Z6helperi\n"
                "    8 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                "ptxas info    : Compiling entry function '_Z1kPi' for 'sm_80'\n"
                "ptxas info    : Function properties for _Z1kPi\n"
                "    24 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads\n"
                "ptxas info    : Used 255 registers, used 1 barriers, 24 bytes cumulative stack "
                "size, 2048 bytes smem, 360 bytes cmem[0], 8 bytes cmem[2]\n")
        (r,) = R.kernel_records(text, None, None, "sm_80")
        self.assertEqual((r["registers"], r["spill_stores"], r["spill_loads"], r["stack"],
                          r["shared"], r["constant"]), (255, 4, 8, 24, 2048, 368))

    def test_sass_count_skips_nops(self):
        counts = R.parse_sass(read("sass_12.4_sm_80_demo.txt"))
        self.assertEqual(counts[("sm_80", "_Z15store_kv_kernelI5uint4iEvPT_PKS1_PKT0_i")], 17)
        self.assertEqual(len(counts), 5)


class Names(unittest.TestCase):
    def test_strip_signature(self):
        self.assertEqual(R._strip_signature("void kernels::k<int, (int)1>(int*, long)"),
                         "kernels::k<int, (int)1>")
        self.assertEqual(R._strip_signature("void f(void (*)(int))"), "f")
        self.assertEqual(R._strip_signature("void (anonymous namespace)::verify<int>(int*)"),
                         "(anonymous namespace)::verify<int>")

    def test_prettify(self):
        self.assertEqual(R.prettify("kernels::store_kv_kernel<unsigned short, long, 1>"),
                         "kernels::store_kv_kernel<uint16_t, int64_t, 1>")
        self.assertEqual(R.prettify("k<unsigned int, uint4>"), "k<uint32_t, uint4>")

    @unittest.skipUnless(shutil.which("c++filt"), "needs c++filt")
    def test_demangle(self):
        d = R.demangle([STORE_UINT4, EMB_U16_L2, "not_mangled"])
        self.assertEqual(d[STORE_UINT4], "kernels::store_kv_kernel<uint4, int, 1>")
        self.assertEqual(d[EMB_U16_L2], "kernels::embedding_kernel<uint16_t, int64_t, 2>")
        self.assertEqual(d["not_mangled"], "not_mangled")


if __name__ == "__main__":
    unittest.main()
