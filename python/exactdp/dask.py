"""exactdp.dask.release: exact noise for a partitioned Dask dataframe, one guarantee.

    noised, guarantee = exactdp.dask.release(ddf, columns=["c"], mechanism="discrete-gaussian",
                                             epsilon="1", delta="1e-6", sensitivity=1)

* Calibration and the certified guarantee are computed ONCE, on the client, with the accounting
  functions (``calibrate`` for the discrete Gaussian's sigma2, scale = sensitivity / epsilon for
  the discrete Laplace; ``profile`` for the certified delta at epsilon). ``sensitivity`` is that
  of the whole release: the L2 sensitivity of the vector of all noised cells (discrete
  Gaussian) or its L1 sensitivity (discrete Laplace), an integer.
* Noise is drawn on the workers, inside each partition's task, from the worker's own OS CSPRNG:
  no seed travels over the wire. With ``seed=`` (32 bytes; reproducible demos and tests ONLY)
  each partition derives its own stream, BLAKE2b(seed || partition index), so partitions never
  share noise and a rerun gives the same release.
* Retries: noise is drawn inside the task, so a retried task (worker lost) draws fresh noise for
  the same partition and only one result is ever kept and released. This is safe: the output
  holds exactly one noised copy of each cell, with noise of the calibrated law; a draw that was
  discarded never left the worker. (With seed=, a retry draws the same noise again.)
* Other columns are untouched; noised columns must be integer columns (exact discrete noise).
"""

from __future__ import annotations

import hashlib
import os
from fractions import Fraction
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from . import accounting, samplers
from ._convert import exact_text

MECHANISMS = ("discrete-gaussian", "discrete-laplace")


def _partition_seed(seed: bytes, index: int) -> bytes:
    return hashlib.blake2b(seed + index.to_bytes(8, "little"), digest_size=32).digest()


def _noise_partition(df, columns: List[str], mechanism: str, parameter: str, seed: Optional[bytes],
                     release_id: str, partition_info: Optional[Dict[str, Any]] = None):
    df = df.copy()
    rng = None
    if seed is not None:
        index = partition_info["number"] if partition_info else 0
        rng = samplers.SeededBits(_partition_seed(seed, index))
    draw = samplers.discrete_gaussian if mechanism == "discrete-gaussian" else samplers.discrete_laplace
    for c in columns:
        noise = draw(parameter, size=len(df), rng=rng)
        df[c] = df[c].to_numpy(dtype=np.int64) + noise if noise.dtype != object else df[c].astype(object) + noise
    return df


def calibrate(mechanism: str, epsilon: Any, delta: Any, sensitivity: Any) -> Dict[str, Any]:
    """The noise parameter and the certified guarantee of a release (computed on the client)."""
    if mechanism not in MECHANISMS:
        raise ValueError(f"mechanism = {mechanism!r}: allowed {', '.join(MECHANISMS)}")
    if mechanism == "discrete-gaussian":
        sigma2 = accounting.calibrate("discrete-gaussian", epsilon=epsilon, delta=delta, sensitivity=sensitivity)
        parameter = f"{sigma2.numerator}/{sigma2.denominator}"
        guarantee = accounting.profile("discrete-gaussian", sigma2=parameter, sensitivity=sensitivity, epsilon=epsilon)
        name = "sigma2"
    else:
        accounting.convert("pure-dp", epsilon=epsilon)  # validates 0 <= epsilon <= 1e6 first
        eps = Fraction(exact_text("epsilon", epsilon))
        if eps <= 0:
            raise ValueError("epsilon must be > 0 for the discrete Laplace release")
        scale = Fraction(int(exact_text("sensitivity", sensitivity))) / eps
        parameter = f"{scale.numerator}/{scale.denominator}"
        guarantee = accounting.profile("discrete-laplace", scale=parameter, sensitivity=sensitivity, epsilon=epsilon)
        name = "scale"
    return {"mechanism": mechanism, name: Fraction(parameter), "parameter": parameter,
            "epsilon": exact_text("epsilon", epsilon), "delta": guarantee}


def release(ddf, columns: List[str], mechanism: str = "discrete-gaussian", epsilon: Any = "1",
            delta: Any = "1e-6", sensitivity: Any = 1, seed: Optional[bytes] = None) -> Tuple[Any, Dict[str, Any]]:
    """Noises `columns` of the Dask dataframe `ddf`; returns (noised dataframe, guarantee).

    The guarantee dict: mechanism, its parameter (sigma2 or scale, exact), epsilon and the
    certified ``delta`` Interval at that epsilon (its upper end <= the requested delta for the
    discrete Gaussian; 0 for the pure-DP discrete Laplace).
    """
    for c in columns:
        if c not in ddf.columns:
            raise ValueError(f"column {c!r} is not in the dataframe")
        if ddf[c].dtype.kind not in "iu":
            raise TypeError(f"column {c!r} must hold integers for exact discrete noise (dtype {ddf[c].dtype})")
    if seed is not None and (not isinstance(seed, (bytes, bytearray)) or len(seed) != 32):
        raise ValueError("seed must be 32 bytes")
    g = calibrate(mechanism, epsilon, delta, sensitivity)
    noised = ddf.map_partitions(_noise_partition, list(columns), mechanism, g["parameter"],
                                None if seed is None else bytes(seed),
                                # a fresh id per call: Dask names tasks by their arguments, so
                                # without it a second release could be served the first one's
                                # cached partitions instead of drawing new noise
                                os.urandom(16).hex(), meta=ddf._meta)
    return noised, g
