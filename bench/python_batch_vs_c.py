#!/usr/bin/env python3
"""The Python batch against the C batch (BENCHMARKS.md, "Python package").

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_batch_vs_c.py [build]
Times exactdp.discrete_gaussian(s, size=10**6) and exactdp_sample_int64(..., 10**6) from
libexactdp.so.0 (ctypes), interleaved, CPU time, and prints medians of 9 rounds and their ratio.
"""
import ctypes
import statistics
import sys
import time

import numpy as np

import exactdp

build = sys.argv[1] if len(sys.argv) > 1 else "build"
lib = ctypes.CDLL(f"{build}/mechanisms/libexactdp.so.0")
bits, sampler = ctypes.c_void_p(), ctypes.c_void_p()
seed = (ctypes.c_ubyte * 32)(*range(1, 33))
assert lib.exactdp_bits_seeded(seed, ctypes.byref(bits)) == 0
rng = exactdp.SeededBits(bytes(range(1, 33)))
n = 10**6
print("sigma2,c_ns_per_sample,python_ns_per_sample,ratio")
for sigma2 in ["9/4", "100", "1000000"]:
    assert lib.exactdp_discrete_gaussian_new(sigma2.encode(), 0, ctypes.byref(sampler)) == 0
    out = np.zeros(n, dtype=np.int64)
    c_times, py_times = [], []
    for _ in range(9):
        t = time.process_time()
        rc = lib.exactdp_sample_int64(sampler, bits, out.ctypes.data_as(ctypes.c_void_p), ctypes.c_size_t(n))
        c_times.append(time.process_time() - t)
        assert rc == 0
        t = time.process_time()
        exactdp.discrete_gaussian(sigma2, size=n, rng=rng)
        py_times.append(time.process_time() - t)
    lib.exactdp_sampler_free(sampler)
    c_ns, py_ns = statistics.median(c_times) * 1e9 / n, statistics.median(py_times) * 1e9 / n
    print(f"{sigma2},{c_ns:.1f},{py_ns:.1f},{py_ns / c_ns:.2f}")
lib.exactdp_bits_free(bits)
