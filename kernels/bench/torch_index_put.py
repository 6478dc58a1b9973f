#!/usr/bin/env python3
"""PyTorch baselines for kernels/bench/row_copy_bandwidth.cu, on the same shapes.

store_kv:  k_cache[idx] = k; v_cache[idx] = v           (index_put_, accumulate=False)
           k_cache.index_copy_(0, idx, k); v_cache...    (index_copy_)
embedding: weight.index_select(0, ids)                   (full vocabulary; F.embedding's kernel)
bf16 rows of `row` bytes, idx = distinct random slots of a pool of n + n/8 rows (int64, as
PyTorch's indexing wants), ids uniform over a 151936-row vocabulary.
Times: CUDA graph replay of R back-to-back calls when one call takes under 200 us (eager when
capture fails), else events around single calls; median, in microseconds per call.
Writes CSV lines `op,n,row,us` to the file named by the first argument (default stdout).
"""
import sys

import torch


def time_us(fn):
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(3):
        fn()
    b.record()
    b.synchronize()
    est = 1000.0 * a.elapsed_time(b) / 3
    times = []
    if est < 200:
        reps = int(min(2000, max(2, 2000 / max(est, 1.0))))
        try:
            g = torch.cuda.CUDAGraph()
            s = torch.cuda.Stream()
            s.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(s):
                fn()
                torch.cuda.synchronize()
                with torch.cuda.graph(g, stream=s):
                    for _ in range(reps):
                        fn()
            g.replay()
            for _ in range(15):
                a.record()
                g.replay()
                b.record()
                b.synchronize()
                times.append(1000.0 * a.elapsed_time(b) / reps)
        except Exception as e:  # noqa: BLE001  (capture refused: time eagerly)
            print(f"graph capture failed ({e}); eager timing", file=sys.stderr)
            torch.cuda.synchronize()
            times = []
            for _ in range(15):
                a.record()
                for _ in range(reps):
                    fn()
                b.record()
                b.synchronize()
                times.append(1000.0 * a.elapsed_time(b) / reps)
    else:
        for _ in range(int(max(5, min(25, 300000 / est)))):
            a.record()
            fn()
            b.record()
            b.synchronize()
            times.append(1000.0 * a.elapsed_time(b))
    times.sort()
    return times[len(times) // 2]


def main():
    out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
    dev = torch.device("cuda")
    ns = [1, 64, 1024, 16384, 131072, 524288]
    rows = [256, 1024, 2048, 8192]
    vocab = 151936
    gen = torch.Generator(device="cpu").manual_seed(0)
    for row in rows:
        cols = row // 2
        nmax = ns[-1]
        k = torch.randn(nmax, cols, device=dev, dtype=torch.bfloat16)
        v = torch.randn(nmax, cols, device=dev, dtype=torch.bfloat16)
        kc = torch.empty(nmax + nmax // 8, cols, device=dev, dtype=torch.bfloat16)
        vc = torch.empty_like(kc)
        w = torch.randn(vocab, cols, device=dev, dtype=torch.bfloat16)
        for n in ns:
            pool = n + n // 8
            idx = torch.randperm(pool, generator=gen)[:n].to(dev)
            ids = torch.randint(0, vocab, (n,), generator=gen).to(dev)
            kn, vn, kcn, vcn = k[:n], v[:n], kc[:pool], vc[:pool]

            def put():
                kcn[idx] = kn
                vcn[idx] = vn

            def copy():
                kcn.index_copy_(0, idx, kn)
                vcn.index_copy_(0, idx, vn)

            def select():
                return w.index_select(0, ids)

            for name, fn in (("index_put", put), ("index_copy_", copy), ("index_select", select)):
                us = time_us(fn)
                print(f"{name},{n},{row},{us:.4f}", file=out, flush=True)
        del k, v, kc, vc, w
        torch.cuda.empty_cache()
    if out is not sys.stdout:
        out.close()


if __name__ == "__main__":
    main()
