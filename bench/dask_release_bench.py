#!/usr/bin/env python3
"""Rows per second of exactdp.dask.release (BENCHMARKS.md, "Python package").

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/dask_release_bench.py [rows]
A LocalCluster with worker processes (1, then 2 workers, one thread each); a table of `rows`
integer counts in 8 partitions, one noised column (discrete Gaussian, epsilon 1, delta 1e-6);
wall time of compute() after the release is built, best of 3.
"""
import sys
import time

import dask.dataframe as dd
import numpy as np
import pandas as pd
from distributed import Client, LocalCluster

import exactdp


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    frame = pd.DataFrame({"count": np.zeros(rows, dtype=np.int64)})
    print("workers,rows,seconds,rows_per_second")
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster):
            ddf = dd.from_pandas(frame, npartitions=8).persist()
            best = float("inf")
            for _ in range(3):
                noised, _ = exactdp.dask.release(ddf, columns=["count"], mechanism="discrete-gaussian",
                                                 epsilon="1", delta="1e-6", sensitivity=1)
                start = time.perf_counter()
                noised.compute()
                best = min(best, time.perf_counter() - start)
            print(f"{workers},{rows},{best:.3f},{rows / best:.0f}")


if __name__ == "__main__":
    main()
