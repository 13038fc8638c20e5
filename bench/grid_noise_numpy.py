#!/usr/bin/env python3
"""exactdp's grid noise against numpy's Generator.normal, measured in the same run
(BENCHMARKS.md, "Grid noise of float arrays").

Usage: /usr/bin/python3 bench/grid_noise_numpy.py [path/to/grid_noise_bench] [rounds]
Each round, interleaved so that both see the same machine load: numpy adds Gaussian noise to
float64 arrays of 2^20 and 10^7 coordinates (np.add(x, rng.normal(0, sigma, n), out=y): one
thread, wall and process CPU time), then grid_noise_bench runs its per-coordinate cases (2^20
coordinates, 1 and 2 threads) and its 10^7-coordinate double cases once. Prints the medians
over the rounds in ns per coordinate and the ratios exactdp / numpy (below 1: exactdp faster),
plus the machine's load average, as CSV.
"""
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

bench = sys.argv[1] if len(sys.argv) > 1 else "build/bench/grid_noise_bench"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
FILTER = "PerCoordinate|AddNoise10M<double>/log2_sigma_over_g:20"


def numpy_ns(n, rng):
    x = np.arange(n, dtype=np.float64) % 20001
    y = np.empty_like(x)
    np.add(x, rng.normal(0.0, 1.0, n), out=y)  # warm
    wall, cpu = time.perf_counter(), time.process_time()
    np.add(x, rng.normal(0.0, 1.0, n), out=y)
    return ((time.perf_counter() - wall) * 1e9 / n, (time.process_time() - cpu) * 1e9 / n)


def exactdp_ns():
    out = subprocess.run([bench, f"--benchmark_filter={FILTER}", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    rows = {}
    for b in json.loads(out)["benchmarks"]:
        rows[b["label"]] = (b["ns/coordinate"], b["cpu_ns/coordinate"], b.get("peak_rss_MiB"),
                            b.get("rss_growth_MiB"))
    return rows


rng = np.random.default_rng(1)
samples = {}
loads = []
for _ in range(rounds):
    loads.append(os.getloadavg()[0])
    for n in (1 << 20, 10**7):
        samples.setdefault(f"numpy n={n}", []).append(numpy_ns(n, rng) + (None, None))
    for label, value in exactdp_ns().items():
        samples.setdefault(f"exactdp {label}", []).append(value)


def median(rows, i):
    values = [r[i] for r in rows if r[i] is not None]
    return statistics.median(values) if values else float("nan")


print(f"# numpy {np.__version__}, {rounds} rounds, load average (1 min) median "
      f"{statistics.median(loads):.1f} on {os.cpu_count()} CPUs")
print("case,wall_ns_per_coordinate,cpu_ns_per_coordinate,peak_rss_MiB,rss_growth_MiB,"
      "wall_ratio_to_numpy,cpu_ratio_to_numpy")
for name, rows in samples.items():
    n = (10**7 if "n=10000000" in name else 1 << 20)
    reference = samples[f"numpy n={n}"]
    wall, cpu = median(rows, 0), median(rows, 1)
    print(f"{name},{wall:.1f},{cpu:.1f},{median(rows, 2):.0f},{median(rows, 3):.0f},"
          f"{wall / median(reference, 0):.2f},{cpu / median(reference, 1):.2f}")
