"""Exact discrete Gaussian noise on a partitioned Dask dataframe, one certified guarantee.

    PYTHONPATH=build/python python3 examples/dask_release.py

A LocalCluster of 2 worker processes stands in for a real cluster: calibration and the
guarantee are computed here on the client; each worker draws its noise from its own OS CSPRNG.
"""

import numpy as np
import pandas as pd
import dask.dataframe as dd
from distributed import Client, LocalCluster

import exactdp

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, Client(cluster):
        counts = pd.DataFrame({"region": np.arange(100_000) % 50, "count": np.random.default_rng(1).integers(0, 1000, 100_000)})
        ddf = dd.from_pandas(counts, npartitions=8)
        noised, guarantee = exactdp.dask.release(ddf, columns=["count"], law="discrete-gaussian",
                                                 epsilon="1", delta="1e-6", sensitivity=1)
        print(noised.head())
        print("sigma2 =", guarantee.per_cell)
        print("certified: (1, delta)-DP with delta <=", guarantee.delta.upper_float)
